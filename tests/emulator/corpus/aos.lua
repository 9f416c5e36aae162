-- aos: an array of 12-byte structures; each field's load spans every sector
-- of the warp's 384 bytes.
return {
  name = "aos",
  source = [[
struct point { float x, y, z; };
extern "C" __global__ void aos(const point *points, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = points[i].x + points[i].y + points[i].z;
}]],
  params  = { n = 4096 },
  buffers = { points = { type = "float", count = function(p) return 3 * p.n end },
              out    = { type = "float", count = "n", output = true } },
  args    = { "points", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b)
    for i = 0, p.n - 1 do b.out[i] = b.points[3 * i] + b.points[3 * i + 1] + b.points[3 * i + 2] end
  end,
  -- 128 warps, three 4-byte loads each (x, y, z); a warp's structures are
  -- 384 bytes from a 128-byte boundary, and each field's lanes, 12 bytes
  -- apart, land in all 12 of its sectors: 384 requests, 4608 sectors.
  expect = { load = { requests = 384, sectors = 4608 }, store = { requests = 128, sectors = 512 } },
}
