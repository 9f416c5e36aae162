-- grid3d: a 3-D grid of 3-D blocks over a volume, each cell the sum of its
-- two neighbours along z (zero past the ends).
return {
  name = "grid3d",
  source = [[
extern "C" __global__ void grid3d(const float *in, float *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    int plane = nx * ny, at = z * plane + y * nx + x;
    float below = z > 0 ? in[at - plane] : 0.0f;
    float above = z + 1 < nz ? in[at + plane] : 0.0f;
    out[at] = below + above;
}]],
  params  = { nx = 20, ny = 10, nz = 7 },
  buffers = { ["in"] = { type = "float", count = function(p) return p.nx * p.ny * p.nz end },
              out    = { type = "float", count = function(p) return p.nx * p.ny * p.nz end, output = true } },
  args    = { "in", "out", "nx", "ny", "nz" },
  grid    = { function(p) return (p.nx + 7) // 8 end, function(p) return (p.ny + 3) // 4 end, function(p) return (p.nz + 3) // 4 end },
  block   = { 8, 4, 4 },
  reference = function(p, b)
    local plane = p.nx * p.ny
    for z = 0, p.nz - 1 do
      for k = 0, plane - 1 do
        local at = z * plane + k
        b.out[at] = (z > 0 and b["in"][at - plane] or 0.0) + (z + 1 < p.nz and b["in"][at + plane] or 0.0)
      end
    end
  end,
}
