-- shared_double: 8-byte words in shared memory: a warp's 256 bytes take two
-- 128-byte phases (half warps), two wavefronts without any conflict; read
-- back two words a lane (16 bytes apart), each phase conflicts two ways.
return {
  name = "shared_double",
  source = [[
extern "C" __global__ void shared_double(const double *in, double *out)
{
    __shared__ double s[512];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    double v = in[i];
    s[t] = v;
    s[t + 256] = -v;
    __syncthreads();
    out[i] = s[2 * t] + s[2 * t + 1];
}]],
  params  = { n = 1024 },
  buffers = { ["in"] = { type = "double", count = "n" },
              out    = { type = "double", count = "n", output = true } },
  args    = { "in", "out" },
  grid    = function(p) return p.n // 256 end,
  block   = 256,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      local base, t = i - i % 256, i % 256
      local function s(k) return k < 256 and b["in"][base + k] or -b["in"][base + k - 256] end
      b.out[i] = s(2 * t) + s(2 * t + 1)
    end
  end,
  -- 4 blocks of 8 warps. Stores: s[t] and s[t + 256], 32 requests each; a
  -- half warp's 16 doubles are 128 bytes, each bank once: 2 wavefronts a
  -- request, 64 requests, 128 wavefronts. Loads: s[2t] and s[2t + 1], 16
  -- bytes a lane, so a half warp spans 256 bytes and lanes l and l + 8 share
  -- banks (words 4l and 4l + 32): 2 wavefronts a phase, 4 a request, 64
  -- requests, 256. Global: one load and one store of 8 sectors a warp.
  expect = { shared_store = { requests = 64, wavefronts = 128 }, shared_load = { requests = 64, wavefronts = 256 },
             load = { requests = 32, sectors = 256 }, store = { requests = 32, sectors = 256 } },
}
