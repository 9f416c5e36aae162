-- column_walk: each thread sums one column, so a warp reads 32 neighbours
-- of one row at every step: the coalesced way to walk the same matrix.
return {
  name = "column_walk",
  source = [[
extern "C" __global__ void column_walk(const float *a, float *sums, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.0f;
    for (int r = 0; r < rows; r++) s += a[r * cols + c];
    sums[c] = s;
}]],
  params  = { rows = 32, cols = 256 },
  buffers = { a    = { type = "float", count = function(p) return p.rows * p.cols end },
              sums = { type = "float", count = "cols", output = true } },
  args    = { "a", "sums", "rows", "cols" },
  grid    = function(p) return (p.cols + 127) // 128 end,
  block   = 128,
  tolerance = 1e-5,
  reference = function(p, b)
    for c = 0, p.cols - 1 do
      local s = 0.0
      for r = 0, p.rows - 1 do s = s + b.a[r * p.cols + c] end
      b.sums[c] = s
    end
  end,
  -- 8 warps x 32 rows = 256 load requests of 4 sectors each (a warp's 32
  -- floats of one row, 128-byte aligned): 1024. The sums: 8 x 4.
  expect = { load = { requests = 256, sectors = 1024, lines = 256 }, store = { requests = 8, sectors = 32 } },
}
