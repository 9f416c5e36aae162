-- histogram_global: one atomicAdd on global memory per element.
return {
  name = "histogram_global",
  source = [=[
extern "C" __global__ void histogram_global(const int *values, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[values[i]], 1);
}]=],
  params  = { n = 4096, bins = 64 },
  buffers = { values = { type = "int", count = "n", fill = { "int", 0, 63 } },
              bins   = { type = "int", count = "bins", output = true } },
  args    = { "values", "bins", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.bins[b.values[i]] = b.bins[b.values[i]] + 1 end end,
  -- 128 warps load their 32 ints (4 sectors). Atomics are not counted as
  -- loads or stores (docs/model.md): no store request at all.
  expect = { load = { requests = 128, sectors = 512 }, store = { requests = 0, sectors = 0 } },
}
