-- grid2d: a 2-D grid of 2-D blocks 16 wide (a warp is two half rows), over
-- a matrix whose edges leave blocks partly idle.
return {
  name = "grid2d",
  source = [[
extern "C" __global__ void grid2d(const float *a, const float *b, float *c, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) c[y * width + x] = a[y * width + x] - b[y * width + x];
}]],
  params  = { width = 100, height = 50 },
  buffers = { a = { type = "float", count = function(p) return p.width * p.height end },
              b = { type = "float", count = function(p) return p.width * p.height end },
              c = { type = "float", count = function(p) return p.width * p.height end, output = true } },
  args    = { "a", "b", "c", "width", "height" },
  grid    = { function(p) return (p.width + 15) // 16 end, function(p) return (p.height + 7) // 8 end },
  block   = { 16, 8 },
  reference = function(p, b)
    for k = 0, p.width * p.height - 1 do b.c[k] = b.a[k] - b.b[k] end
  end,
}
