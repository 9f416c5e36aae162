-- constant_lookup: __constant__ memory indexed by data, so the lanes of a
-- warp want different addresses and the constant cache serves one a pass.
return {
  name = "constant_lookup",
  source = [[
__constant__ int table[16];
extern "C" __global__ void constant_lookup(const int *keys, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[keys[i] & 15];
}]],
  params  = { n = 4096 },
  buffers = { table = { type = "int", count = 16, constant = true, fill = { "int", -100000, 100000 } },
              keys  = { type = "int", count = "n", fill = function(i) return (i % 32) // 4 end },
              out   = { type = "int", count = "n", output = true } },
  args    = { "keys", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b.table[b.keys[i] & 15] end end,
  -- 128 warps; in each, lanes 4k to 4k + 3 read table[k]: 8 addresses, 8
  -- passes a request. Keys and outputs: 4 sectors a warp.
  expect = { constant = { requests = 128, passes = 1024 }, load = { requests = 128, sectors = 512 },
             store = { requests = 128, sectors = 512 } },
}
