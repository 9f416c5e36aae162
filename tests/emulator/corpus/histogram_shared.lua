-- histogram_shared: a block's histogram by atomics on shared memory, added
-- to the global one at the end; a grid-stride loop over the values.
return {
  name = "histogram_shared",
  source = [[
#define BINS 64
extern "C" __global__ void histogram_shared(const unsigned char *values, unsigned *bins, int n)
{
    __shared__ unsigned local[BINS];
    for (int k = threadIdx.x; k < BINS; k += blockDim.x) local[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[values[i] % BINS], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < BINS; k += blockDim.x) atomicAdd(&bins[k], local[k]);
}]],
  params  = { n = 10000 },
  buffers = { values = { type = "uchar", count = "n", fill = { "int", 0, 255 } },
              bins   = { type = "unsigned", count = 64, output = true } },
  args    = { "values", "bins", "n" },
  grid    = 6,
  block   = 96,
  reference = function(p, b) for i = 0, p.n - 1 do b.bins[b.values[i] % 64] = b.bins[b.values[i] % 64] + 1 end end,
}
