-- popcount: __popc and __clz, the bit-counting intrinsics.
return {
  name = "popcount",
  source = [[
extern "C" __global__ void popcount(const unsigned *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    out[i] = __popc(v) * 100 + __clz(v);
}]],
  params  = { n = 1000 },
  buffers = { ["in"] = { type = "unsigned", count = "n", fill = function(i) return (i * 2654435761) % (1 << (i % 33)) end },
              out    = { type = "int", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 127) // 128 end,
  block   = 128,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      local v, bits, zeros = b["in"][i], 0, 32
      for k = 0, 31 do if (v >> k) & 1 == 1 then bits, zeros = bits + 1, 31 - k end end
      b.out[i] = bits * 100 + zeros
    end
  end,
}
