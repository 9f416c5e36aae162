-- size_t_index: the 64-bit index as most CUDA code writes it, with size_t;
-- a scaled copy with an offset base.
return {
  name = "size_t_index",
  source = [[
extern "C" __global__ void size_t_index(const float *in, float *out, size_t n, size_t base)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 3.0f * in[base + i];
}]],
  params  = { n = 2000, base = 40 },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n + p.base end },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n", "base" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  -- clang is given warplab's prelude in place of CUDA's headers (lua/compile.lua), which has no size_t
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = 3 * b["in"][p.base + i] end end,
  -- 63 warps with an active lane (2000 = 62 x 32 + 16); the loads start 40
  -- floats (160 bytes, 5 sectors) in: warp w covers bytes 160 + 128w to
  -- 287 + 128w, 4 sectors as 160 is a sector boundary, and the last 16
  -- lanes 64 bytes, 2 sectors: 62 x 4 + 2 = 250 each way.
  expect = { load = { requests = 63, sectors = 250 }, store = { requests = 63, sectors = 250 } },
}
