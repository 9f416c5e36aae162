-- atomic_minmax: the smallest and largest value, by atomicMin and atomicMax
-- on two words of global memory, after a warp-level pass with shuffles.
return {
  name = "atomic_minmax",
  source = [[
extern "C" __global__ void atomic_minmax(const int *in, int *result, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int low = i < n ? in[i] : 2147483647, high = i < n ? in[i] : -2147483647 - 1;
    for (int o = 16; o > 0; o >>= 1) {
        low = min(low, __shfl_xor_sync(0xffffffff, low, o));
        high = max(high, __shfl_xor_sync(0xffffffff, high, o));
    }
    if ((threadIdx.x & 31) == 0) { atomicMin(&result[0], low); atomicMax(&result[1], high); }
}]],
  params  = { n = 5000 },
  buffers = { ["in"] = { type = "int", count = "n", fill = { "int", -1000000, 1000000 } },
              result = { type = "int", count = 2, output = true, fill = function(i) return i == 0 and 2147483647 or -2147483648 end } },
  args    = { "in", "result", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      b.result[0] = math.min(b.result[0], b["in"][i])
      b.result[1] = math.max(b.result[1], b["in"][i])
    end
  end,
}
