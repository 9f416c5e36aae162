-- char_short: 1-byte inputs widened to 2-byte outputs.
return {
  name = "char_short",
  source = [[
extern "C" __global__ void char_short(const signed char *in, short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (short)(in[i] * 200);
}]],
  params  = { n = 4096 },
  buffers = { ["in"] = { type = "char", count = "n", fill = { "int", -128, 127 } },
              out    = { type = "short", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] * 200 end end,   -- wrapped to 16 bits as C does
  -- 128 warps; a warp's 32 chars are one sector, its 32 shorts (64 bytes) two.
  expect = { load = { requests = 128, sectors = 128 }, store = { requests = 128, sectors = 256 } },
}
