-- reduce_atomic: a warp's sum by shuffles, then one atomicAdd a warp into
-- out[0]: a float sum whose terms arrive in any order (issue 31, item 3).
-- The reference sums in double, in index order; the emulator adds the
-- warps' sums in its own order and the GPU in another, so the outputs are
-- equal within their rounding, not bit for bit: here a relative 1e-4 (the
-- shell allows the rounding of 313 terms in any order).
return {
  name = "reduce_atomic",
  source = [[
extern "C" __global__ void reduce_atomic(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}]],
  params  = { n = 10000 },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = 1, output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b)
    local sum = 0.0
    for i = 0, p.n - 1 do sum = sum + b["in"][i] end
    b.out[0] = sum
  end,
  tolerance = 1e-4,
  -- 40 blocks of 8 warps; warps 0 .. 312 have an active lane (10000 / 32 =
  -- 312.5), 312 of them load 4 sectors and the last 16 lanes 2. The atomics
  -- are reductions (320 of them, one a warp), neither loads nor stores.
  expect = { load = { requests = 313, sectors = 1250 }, store = { requests = 0, sectors = 0 } },
}
