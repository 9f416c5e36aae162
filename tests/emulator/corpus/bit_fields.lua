-- bit_fields: packed data, fields taken out of each 32-bit word by shift and
-- mask (clang makes these the PTX instruction bfe).
return {
  name = "bit_fields",
  source = [[
extern "C" __global__ void bit_fields(const unsigned *packed, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = packed[i];
    int low = v & 0xff, middle = (v >> 8) & 0xfff, high = (v >> 20) & 0x3ff, top = v >> 30;
    out[i] = low - middle + 3 * high - 1000 * top;
}]],
  params  = { n = 1000 },
  buffers = { packed = { type = "unsigned", count = "n", fill = { "int", 0, 0xffffffff } },
              out    = { type = "int", count = "n", output = true } },
  args    = { "packed", "out", "n" },
  grid    = function(p) return (p.n + 127) // 128 end,
  -- clang's PTX has bfe.u32 %r8, %r6, 8, 12 for (v >> 8) & 0xfff; NVRTC's a shift and an and.
  block   = 128,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      local v = b.packed[i]
      b.out[i] = (v & 0xff) - ((v >> 8) & 0xfff) + 3 * ((v >> 20) & 0x3ff) - 1000 * (v >> 30)
    end
  end,
}
