-- divergent: odd and even lanes take different branches, each with its own load.
return {
  name = "divergent",
  source = [[
extern "C" __global__ void divergent(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i & 1) {
        out[i] = a[i] * 2.0f;
    } else {
        float v = b[i];
        if (v > 0.0f) out[i] = v + 1.0f; else out[i] = -v;
    }
}]],
  params  = { n = 3000 },
  buffers = { a   = { type = "float", count = "n" },
              b   = { type = "float", count = "n" },
              out = { type = "float", count = "n", output = true } },
  args    = { "a", "b", "out", "n" },
  grid    = function(p) return (p.n + 127) // 128 end,
  block   = 128,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      if i & 1 == 1 then b.out[i] = b.a[i] * 2
      else
        local v = b.b[i]
        b.out[i] = v > 0 and v + 1 or -v
      end
    end
  end,
}
