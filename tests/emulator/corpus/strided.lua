-- strided: every stride-th float; each warp spans stride x 128 bytes.
return {
  name = "strided",
  source = [[
extern "C" __global__ void strided(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(long long)i * stride];
}]],
  params  = { n = 1 << 12, stride = { default = 2, min = 1, max = 1024 } },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n * p.stride end },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n", "stride" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i * p.stride] end end,
  -- 128 warps. Stride 2: a warp's loads cover 256 bytes, one float of every
  -- 8 bytes, so all 8 sectors: 1024. The stores are the copy's: 4 a warp.
  expect = { load = { requests = 128, sectors = 1024 }, store = { requests = 128, sectors = 512 } },
}
