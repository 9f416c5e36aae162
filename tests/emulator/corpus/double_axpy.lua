-- double_axpy: y = a x + y in double precision, in place; a is a double parameter.
return {
  name = "double_axpy",
  source = [[
extern "C" __global__ void double_axpy(double a, const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}]],
  params  = { n = 2048, a = 1.5 },
  buffers = { x = { type = "double", count = "n" },
              y = { type = "double", count = "n", output = true, fill = "random" } },
  args    = { "a", "x", "y", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  tolerance = 1e-12,   -- a fused multiply-add; 1.5 x has 23 bits, so it is exact either way
  reference = function(p, b) for i = 0, p.n - 1 do b.y[i] = p.a * b.x[i] + b.y[i] end end,
  -- 64 warps; x and y: 32 x 8 = 256 bytes a warp, 8 sectors, two loads;
  -- the store the same 8 sectors.
  expect = { load = { requests = 128, sectors = 1024 }, store = { requests = 64, sectors = 512 } },
}
