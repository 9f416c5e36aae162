-- transpose_naive: reads rows (coalesced), writes columns (one sector a lane).
return {
  name = "transpose_naive",
  source = [[
extern "C" __global__ void transpose_naive(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[x * height + y] = in[y * width + x];
}]],
  params  = { width = 64, height = 64 },
  buffers = { ["in"] = { type = "float", count = function(p) return p.width * p.height end },
              out    = { type = "float", count = function(p) return p.width * p.height end, output = true } },
  args    = { "in", "out", "width", "height" },
  grid    = { function(p) return (p.width + 31) // 32 end, function(p) return (p.height + 7) // 8 end },
  block   = { 32, 8 },
  reference = function(p, b)
    for y = 0, p.height - 1 do
      for x = 0, p.width - 1 do b.out[x * p.height + y] = b["in"][y * p.width + x] end
    end
  end,
  -- 4096 threads, 128 warps, each one row segment of 32 floats: the load is
  -- 4 sectors; the store puts the 32 lanes 64 floats (256 bytes) apart: 32
  -- sectors in 32 lines.
  expect = { load = { requests = 128, sectors = 512 }, store = { requests = 128, sectors = 4096, lines = 4096 } },
}
