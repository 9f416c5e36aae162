-- matmul_naive: C = A B, one element of C per thread, straight from global memory.
return {
  name = "matmul_naive",
  source = [[
extern "C" __global__ void matmul_naive(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = s;
}]],
  params  = { n = 32 },
  buffers = { a = { type = "float", count = function(p) return p.n * p.n end },
              b = { type = "float", count = function(p) return p.n * p.n end },
              c = { type = "float", count = function(p) return p.n * p.n end, output = true } },
  args    = { "a", "b", "c", "n" },
  grid    = { function(p) return (p.n + 15) // 16 end, function(p) return (p.n + 15) // 16 end },
  block   = { 16, 16 },
  tolerance = 1e-5,   -- fused multiply-adds
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
  -- 4 blocks of 8 warps; a warp is two rows of 16 threads. At each of the 32
  -- steps: a[row * n + k] is 2 addresses (one per row), 2 sectors; b[k * n +
  -- col] is 16 floats on a 64-byte boundary, both rows alike, 2 sectors:
  -- 32 x 32 x 2 = 2048 requests, 4096 sectors. c: two half rows of 64
  -- bytes, 4 sectors, 32 requests.
  expect = { load = { requests = 2048, sectors = 4096 }, store = { requests = 32, sectors = 128 } },
}
