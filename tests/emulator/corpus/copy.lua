-- copy: one float per thread, the coalesced baseline.
return {
  name = "copy",
  source = [[
extern "C" __global__ void copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}]],
  params  = { n = 4096 },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] end end,
  -- 4096 threads are 128 full warps: a load and a store request each; a
  -- warp's 32 floats are 128 bytes from a 128-byte boundary, 4 sectors.
  expect = { load = { requests = 128, sectors = 512, lines = 128 }, store = { requests = 128, sectors = 512 } },
}
