-- constant_poly: a polynomial whose coefficients are in __constant__ memory,
-- the same address for every lane: one pass per load.
return {
  name = "constant_poly",
  source = [[
__constant__ float coefficients[4];
extern "C" __global__ void constant_poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coefficients[3] * v + coefficients[2]) * v + coefficients[1]) * v + coefficients[0];
    }
}]],
  params  = { n = 4096 },
  buffers = { coefficients = { type = "float", count = 4, constant = true },
              x = { type = "float", count = "n" },
              y = { type = "float", count = "n", output = true } },
  args    = { "x", "y", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  tolerance = 1e-5,   -- the compilers fuse the multiply-adds
  reference = function(p, b)
    local c = b.coefficients
    for i = 0, p.n - 1 do
      local v = b.x[i]
      b.y[i] = ((c[3] * v + c[2]) * v + c[1]) * v + c[0]
    end
  end,
  -- 128 warps, each reading the 4 coefficients, one address for all lanes:
  -- 4 constant requests of 1 pass a warp.
  expect = { load = { requests = 128, sectors = 512 }, store = { requests = 128, sectors = 512 },
             constant = { requests = 512, passes = 512 } },
}
