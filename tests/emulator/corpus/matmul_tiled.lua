-- matmul_tiled: C = A B through 16 x 16 shared tiles of A and B; n a multiple of 16.
return {
  name = "matmul_tiled",
  source = [[
#define TILE 16
extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float s = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        as[ty][tx] = a[row * n + t + tx];
        bs[ty][tx] = b[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) s += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[row * n + col] = s;
}]],
  params  = { n = 48 },
  buffers = { a = { type = "float", count = function(p) return p.n * p.n end },
              b = { type = "float", count = function(p) return p.n * p.n end },
              c = { type = "float", count = function(p) return p.n * p.n end, output = true } },
  args    = { "a", "b", "c", "n" },
  grid    = { function(p) return p.n // 16 end, function(p) return p.n // 16 end },
  block   = { 16, 16 },
  tolerance = 1e-5,
  reference = function(p, b)
    local n = p.n
    for row = 0, n - 1 do
      for col = 0, n - 1 do
        local s = 0.0
        for k = 0, n - 1 do s = s + b.a[row * n + k] * b.b[k * n + col] end
        b.c[row * n + col] = s
      end
    end
  end,
  -- On the H200 ptxas merges reads of a tile's row into wider LDS, fewer
  -- wavefronts than the PTX's one load per element (hardware 5184 shared-load
  -- wavefronts against the emulator's 6912, 2026-12-01); docs/model.md.
  gpu_differs = "ptxas merges the tile's shared reads into wider loads",
}
