-- row_walk: each thread sums one row of a row-major matrix, so a warp's
-- lanes are a row apart at every step: the uncoalesced way.
return {
  name = "row_walk",
  source = [[
extern "C" __global__ void row_walk(const float *a, float *sums, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += a[r * cols + c];
    sums[r] = s;
}]],
  params  = { rows = 256, cols = 32 },
  buffers = { a    = { type = "float", count = function(p) return p.rows * p.cols end },
              sums = { type = "float", count = "rows", output = true } },
  args    = { "a", "sums", "rows", "cols" },
  grid    = function(p) return (p.rows + 127) // 128 end,
  block   = 128,
  tolerance = 1e-5,
  reference = function(p, b)
    for r = 0, p.rows - 1 do
      local s = 0.0
      for c = 0, p.cols - 1 do s = s + b.a[r * p.cols + c] end
      b.sums[r] = s
    end
  end,
  -- 8 warps x 32 steps = 256 load requests; at each step the 32 lanes are
  -- 128 bytes apart: 32 sectors (and 32 lines) each. The sums: 8 x 4 sectors.
  expect = { load = { requests = 256, sectors = 8192, lines = 8192 }, store = { requests = 8, sectors = 32 } },
}
