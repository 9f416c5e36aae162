-- copy_float4: vector loads, 16 bytes a lane.
return {
  name = "copy_float4",
  source = [[
extern "C" __global__ void copy_float4(const float4 *in, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        out[i] = make_float4(v.x * 2.0f, v.y + 1.0f, -v.z, v.w);
    }
}]],
  params  = { n = 1024 },
  buffers = { ["in"] = { type = "float4", count = "n" },
              out    = { type = "float4", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 127) // 128 end,
  block   = 128,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      local v = b["in"][i]
      b.out[i] = { x = v.x * 2, y = v.y + 1, z = -v.z, w = v.w }
    end
  end,
  -- 32 warps, one 16-byte load and store each; a warp's 512 bytes are 16 sectors in 4 lines.
  expect = { load = { requests = 32, sectors = 512, lines = 128 }, store = { requests = 32, sectors = 512 } },
}
