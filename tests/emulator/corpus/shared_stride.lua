-- shared_stride: shared memory written and read stride words apart: at
-- stride 2 lanes l and l + 16 share a bank, two wavefronts a request.
return {
  name = "shared_stride",
  source = [[
extern "C" __global__ void shared_stride(const float *in, float *out, int stride)
{
    __shared__ float s[8192];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t * stride] = in[i];
    __syncthreads();
    out[i] = s[((t + 1) % blockDim.x) * stride];
}]],
  params  = { n = 1024, stride = { default = 2, min = 1, max = 32 } },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "stride" },
  grid    = function(p) return p.n // 256 end,
  block   = 256,
  reference = function(p, b)
    for i = 0, p.n - 1 do b.out[i] = b["in"][i - i % 256 + (i % 256 + 1) % 256] end
  end,
  -- 4 blocks of 8 warps: 32 shared stores and 32 loads. Stride 2: lane l's
  -- word is 2l (plus 64 a warp), bank 2l mod 32, so lanes l and l + 16
  -- share each even bank: 2 wavefronts. The read is one word further on,
  -- and in the last warp lane 31 wraps to word 0, bank 0 with lane 15 only:
  -- still 2. 64 wavefronts each way.
  expect = { load = { requests = 32, sectors = 128 }, store = { requests = 32, sectors = 128 },
             shared_store = { requests = 32, wavefronts = 64 }, shared_load = { requests = 32, wavefronts = 64 } },
}
