-- offset: reads shifted by one float from the 128-byte boundary.
return {
  name = "offset",
  source = [[
extern "C" __global__ void offset(const float *in, float *out, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + offset];
}]],
  params  = { n = 1 << 12, offset = { default = 1, min = 0, max = 32 } },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n + p.offset end },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n", "offset" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i + p.offset] end end,
  -- 128 warps. Warp w reads bytes 128w + 4 to 128w + 131: the 4 sectors of
  -- its line but the first 4 bytes, and the next line's first sector: 5.
  -- The stores are aligned: 4.
  expect = { load = { requests = 128, sectors = 640, lines = 256 }, store = { requests = 128, sectors = 512 } },
}
