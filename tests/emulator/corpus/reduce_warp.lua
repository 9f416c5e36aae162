-- reduce_warp: a warp's sum by shuffles (__shfl_down_sync), no shared memory;
-- lane 0 writes it.
local function f(x) return (string.unpack("<f", string.pack("<f", x))) end

return {
  name = "reduce_warp",
  source = [[
extern "C" __global__ void reduce_warp(const float *in, float *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if ((threadIdx.x & 31) == 0) sums[i / 32] = v;
}]],
  params  = { n = 4000 },
  buffers = { ["in"] = { type = "float", count = "n" },
              sums   = { type = "float", count = function(p) return (p.n + 255) // 256 * 8 end, output = true } },
  args    = { "in", "sums", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b)
    for w = 0, (p.n + 255) // 256 * 8 - 1 do
      local v = {}
      for lane = 0, 31 do v[lane] = w * 32 + lane < p.n and b["in"][w * 32 + lane] or 0.0 end
      local offset = 16
      while offset > 0 do   -- a lane whose source is past the warp gets its own value
        local before = table.move(v, 0, 31, 0, {})
        for lane = 0, 31 do v[lane] = f(before[lane] + (lane + offset < 32 and before[lane + offset] or before[lane])) end
        offset = offset // 2
      end
      b.sums[w] = v[0]
    end
  end,
  -- 16 blocks of 8 warps, 128 warps; the loads: 125 warps have an active
  -- lane (4000 / 32), each 4 sectors (warp 124's last lane is element 3999);
  -- the last block's 3 idle warps load nothing. The sums: one lane a warp,
  -- 128 requests (the idle warps store their zeros too), 1 sector each.
  expect = { load = { requests = 125, sectors = 500 }, store = { requests = 128, sectors = 128 } },
}
