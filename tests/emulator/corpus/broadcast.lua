-- broadcast: every lane reads the same address.
return {
  name = "broadcast",
  source = [[
extern "C" __global__ void broadcast(const float *scale, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * scale[0];
}]],
  params  = { n = 4096 },
  buffers = { scale  = { type = "float", count = 1 },
              ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "scale", "in", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] * b.scale[0] end end,
  -- 128 warps, two loads each: in[i] (4 sectors) and scale[0], one address
  -- for all 32 lanes, one sector: 256 requests, 128 x 4 + 128 x 1 sectors.
  expect = { load = { requests = 256, sectors = 640 }, store = { requests = 128, sectors = 512 } },
}
