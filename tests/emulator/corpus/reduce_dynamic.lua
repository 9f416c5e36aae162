-- reduce_dynamic: reduce_shared's tree in dynamic shared memory (extern
-- __shared__, sized at the launch), with an interleaved first step.
local BLOCK = 128

local function f(x) return (string.unpack("<f", string.pack("<f", x))) end

return {
  name = "reduce_dynamic",
  source = [[
extern "C" __global__ void reduce_dynamic(const float *in, float *partial, int n)
{
    extern __shared__ float s[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
    float v = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[t] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}]],
  params  = { n = 5000 },
  buffers = { ["in"]  = { type = "float", count = "n" },
              partial = { type = "float", count = function(p) return (p.n + 2 * BLOCK - 1) // (2 * BLOCK) end, output = true } },
  args    = { "in", "partial", "n" },
  grid    = function(p) return (p.n + 2 * BLOCK - 1) // (2 * BLOCK) end,
  block   = BLOCK,
  shared  = BLOCK * 4,
  reference = function(p, b)
    for block = 0, (p.n + 2 * BLOCK - 1) // (2 * BLOCK) - 1 do
      local s = {}
      for t = 0, BLOCK - 1 do
        local i = block * BLOCK * 2 + t
        local v = i < p.n and b["in"][i] or 0.0
        if i + BLOCK < p.n then v = f(v + b["in"][i + BLOCK]) end
        s[t] = v
      end
      local k = BLOCK // 2
      while k > 0 do
        for t = 0, k - 1 do s[t] = f(s[t] + s[t + k]) end
        k = k // 2
      end
      b.partial[block] = s[0]
    end
  end,
}
