-- soa: aos's points as three arrays: every load coalesced.
return {
  name = "soa",
  source = [[
extern "C" __global__ void soa(const float *x, const float *y, const float *z, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i] + z[i];
}]],
  params  = { n = 4096 },
  buffers = { x = { type = "float", count = "n" }, y = { type = "float", count = "n" }, z = { type = "float", count = "n" },
              out = { type = "float", count = "n", output = true } },
  args    = { "x", "y", "z", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b.x[i] + b.y[i] + b.z[i] end end,
  -- 128 warps, three loads of 4 sectors each: 384 requests, 1536 sectors (aos: 4608).
  expect = { load = { requests = 384, sectors = 1536 }, store = { requests = 128, sectors = 512 } },
}
