-- copy_partial: n not a multiple of 32 and a block of 100 threads, not a
-- multiple of 32 either: every block ends in a warp of 4 lanes.
return {
  name = "copy_partial",
  source = [[
extern "C" __global__ void copy_partial(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}]],
  params  = { n = 1000 },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 99) // 100 end,
  block   = 100,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] end end,
  -- 10 blocks of 4 warps (32, 32, 32 and 4 lanes): 40 requests. Block b
  -- starts at byte 400b, on a sector boundary for even b and 16 bytes into
  -- one for odd b: a full warp's 128 bytes are 4 sectors (even) or 5 (odd),
  -- the 4-lane warp's 16 bytes 1 either way. 5 x 13 + 5 x 16 = 145.
  expect = { load = { requests = 40, sectors = 145 }, store = { requests = 40, sectors = 145 } },
}
