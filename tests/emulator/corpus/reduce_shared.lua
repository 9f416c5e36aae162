-- reduce_shared: a block's sum by a tree in shared memory (sequential
-- addressing: no bank conflicts), one partial sum per block.
local BLOCK = 256

-- The tree's own order of additions, each rounded to float as the GPU rounds it.
local function f(x) return (string.unpack("<f", string.pack("<f", x))) end

return {
  name = "reduce_shared",
  source = [[
extern "C" __global__ void reduce_shared(const float *in, float *partial)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}]],
  params  = { n = 16 * BLOCK },
  buffers = { ["in"]  = { type = "float", count = "n" },
              partial = { type = "float", count = function(p) return p.n // BLOCK end, output = true } },
  args    = { "in", "partial" },
  grid    = function(p) return p.n // BLOCK end,
  block   = BLOCK,
  reference = function(p, b)
    for block = 0, p.n // BLOCK - 1 do
      local s = {}
      for t = 0, BLOCK - 1 do s[t] = b["in"][block * BLOCK + t] end
      local k = BLOCK // 2
      while k > 0 do
        for t = 0, k - 1 do s[t] = f(s[t] + s[t + k]) end
        k = k // 2
      end
      b.partial[block] = s[0]
    end
  end,
  -- Per block of 8 warps: 8 tile stores; steps k = 128, 64, 32 run on 4, 2
  -- and 1 warps, k = 16 to 1 on part of warp 0: 12 warp-steps of two loads
  -- (s[t], s[t + k]) and a store; and warp 0 reads s[0] at the end. Every
  -- access is consecutive words or one word: a wavefront each. 16 blocks:
  -- 16 x 25 loads, 16 x 20 stores. Global: 128 loads of 4 sectors; 16
  -- one-lane stores of 1 sector. clang keeps each thread's own s[t] in a
  -- register across the barriers (its PTX loads only s[t + k] and s[0]):
  -- 12 + 1 loads a block, 208.
  expect = { load = { requests = 128, sectors = 512 }, store = { requests = 16, sectors = 16 },
             shared_load = { requests = 400, wavefronts = 400 }, shared_store = { requests = 320, wavefronts = 320 },
             clang = { shared_load = { requests = 208, wavefronts = 208 } } },
}
