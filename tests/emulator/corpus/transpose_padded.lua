-- transpose_padded: through a 32 x 32 shared tile, padded to 33 columns: the column read is conflict-free.
return {
  name = "transpose_padded",
  source = [[
#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose_padded(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        if (x < width && y + r < height) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x, y = blockIdx.x * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        if (x < height && y + r < width) out[(y + r) * height + x] = tile[threadIdx.x][threadIdx.y + r];
}]],
  params  = { width = 64, height = 64 },
  buffers = { ["in"] = { type = "float", count = function(p) return p.width * p.height end },
              out    = { type = "float", count = function(p) return p.width * p.height end, output = true } },
  args    = { "in", "out", "width", "height" },
  grid    = { function(p) return (p.width + 31) // 32 end, function(p) return (p.height + 31) // 32 end },
  block   = { 32, 8 },
  reference = function(p, b)
    for y = 0, p.height - 1 do
      for x = 0, p.width - 1 do b.out[x * p.height + y] = b["in"][y * p.width + x] end
    end
  end,
  -- 4 blocks of 8 warps, each warp 4 rows of 32: 128 global loads and
  -- stores, all whole aligned rows (4 sectors). The tile store
  -- tile[r][tx] is 32 consecutive words: 1 wavefront each, 128. The tile
  -- read tile[tx][r] is word 33 tx + r, bank (tx + r) mod 32, a different bank for every lane: 1 wavefront each, 128.
  expect = { load = { requests = 128, sectors = 512 }, store = { requests = 128, sectors = 512 },
             shared_store = { requests = 128, wavefronts = 128 }, shared_load = { requests = 128, wavefronts = 128 } },
}
