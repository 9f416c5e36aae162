-- grid_stride: a fixed grid of 1024 threads walks n = 10000 elements.
return {
  name = "grid_stride",
  source = [[
extern "C" __global__ void grid_stride(const float *in, float *out, float scale, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i] * scale;
}]],
  params  = { n = 10000, scale = 0.5 },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "scale", "n" },
  grid    = 8,
  block   = 128,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] * p.scale end end,
  -- 32 warps; pass k covers elements 1024k to 1024k + 1023. 10000 = 9 x 1024
  -- + 784: passes 0 to 8 are 32 full warps (288 requests of 4 sectors);
  -- pass 9 has 24 full warps and one of 16 lanes (64 bytes, 2 sectors):
  -- 313 requests, (288 + 24) x 4 + 2 = 1250 sectors (10000 x 4 / 32).
  expect = { load = { requests = 313, sectors = 1250 }, store = { requests = 313, sectors = 1250 } },
}
