-- scan_block: an inclusive prefix sum within each block (Hillis and Steele,
-- double-buffered in shared memory).
return {
  name = "scan_block",
  source = [[
#define BLOCK 256
extern "C" __global__ void scan_block(const int *in, int *out)
{
    __shared__ int buffer[2][BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t, from = 0;
    buffer[0][t] = in[i];
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset *= 2) {
        int v = buffer[from][t];
        if (t >= offset) v += buffer[from][t - offset];
        buffer[1 - from][t] = v;
        from = 1 - from;
        __syncthreads();
    }
    out[i] = buffer[from][t];
}]],
  params  = { n = 1024 },
  buffers = { ["in"] = { type = "int", count = "n", fill = { "int", -50, 50 } },
              out    = { type = "int", count = "n", output = true } },
  args    = { "in", "out" },
  grid    = function(p) return p.n // 256 end,
  block   = 256,
  reference = function(p, b)
    for i = 0, p.n - 1 do b.out[i] = (i % 256 > 0 and b.out[i - 1] or 0) + b["in"][i] end
  end,
}
