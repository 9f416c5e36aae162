-- local_array: a per-thread array indexed by data (the hex digits of a
-- value, leading zeros left out), which the compiler cannot keep in
-- registers: local memory; a loop whose trip count is data too.
return {
  name = "local_array",
  source = [[
extern "C" __global__ void local_array(const unsigned *values, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int counts[16];
    for (int k = 0; k < 16; k++) counts[k] = 0;
    for (unsigned v = values[i]; v != 0; v >>= 4) counts[v & 15]++;
    int best = 0;
    for (int k = 1; k < 16; k++) if (counts[k] > counts[best]) best = k;
    out[i] = best * 16 + counts[best];
}]],
  params  = { n = 1000 },
  buffers = { values = { type = "unsigned", count = "n", fill = { "int", 0, 0xffffffff } },
              out    = { type = "int", count = "n", output = true } },
  args    = { "values", "out", "n" },
  grid    = function(p) return (p.n + 127) // 128 end,
  block   = 128,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      local counts = {}
      for k = 0, 15 do counts[k] = 0 end
      local v = b.values[i]
      while v ~= 0 do counts[v & 15] = counts[v & 15] + 1 v = v >> 4 end
      local best = 0
      for k = 1, 15 do if counts[k] > counts[best] then best = k end end
      b.out[i] = best * 16 + counts[best]
    end
  end,
  -- Local memory is left out of the accounting (docs/model.md): only the
  -- values and the outputs count. 1000 threads: 31 full warps and one of 8
  -- lanes (32 bytes, 1 sector): 32 requests and 125 sectors each way.
  expect = { load = { requests = 32, sectors = 125 }, store = { requests = 32, sectors = 125 } },
}
