-- index64: 64-bit indices (unsigned long long and long long), a reversed copy.
return {
  name = "index64",
  source = [[
extern "C" __global__ void index64(const float *in, float *out, long long n)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned long long)n) out[i] = in[(unsigned long long)n - 1 - i];
}]],
  params  = { n = 4096 },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][p.n - 1 - i] end end,
  -- 128 warps; warp w reads elements 4064 - 32w to 4095 - 32w, backwards but
  -- one aligned 128-byte line: 4 sectors, as the store.
  expect = { load = { requests = 128, sectors = 512 }, store = { requests = 128, sectors = 512 } },
}
