-- stencil_halo: a 3-point stencil through a shared tile with a halo cell at
-- each end, loaded by the block's first and last threads (zero past the ends).
return {
  name = "stencil_halo",
  source = [[
#define BLOCK 256
extern "C" __global__ void stencil_halo(const float *in, float *out, int n)
{
    __shared__ float tile[BLOCK + 2];
    int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + 1;
    tile[l] = in[g];
    if (threadIdx.x == 0) tile[0] = g > 0 ? in[g - 1] : 0.0f;
    if (threadIdx.x == blockDim.x - 1) tile[l + 1] = g + 1 < n ? in[g + 1] : 0.0f;
    __syncthreads();
    out[g] = 0.25f * tile[l - 1] + 0.5f * tile[l] + 0.25f * tile[l + 1];
}]],
  params  = { n = 4096 },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return p.n // 256 end,
  block   = 256,
  reference = function(p, b)
    local x = b["in"]
    for i = 0, p.n - 1 do
      b.out[i] = 0.25 * (i > 0 and x[i - 1] or 0) + 0.5 * x[i] + 0.25 * (i + 1 < p.n and x[i + 1] or 0)
    end
  end,
  -- 16 blocks of 8 warps. Loads: 128 of the tile (4 sectors), and the halos:
  -- lane 0 of warp 0 in blocks 1 to 15, lane 31 of warp 7 in blocks 0 to 14,
  -- one sector each: 158 requests, 542 sectors. Shared stores: 128 of the
  -- tile and 2 halo cells a block, all blocks (zeros at the ends): 160,
  -- a wavefront each. Shared loads: 3 a warp of 32 consecutive words: 384.
  expect = { load = { requests = 158, sectors = 542 }, store = { requests = 128, sectors = 512 },
             shared_store = { requests = 160, wavefronts = 160 }, shared_load = { requests = 384, wavefronts = 384 } },
}
