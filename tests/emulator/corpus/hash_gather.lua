-- hash_gather: an index from a 64-bit multiply (past 2^32 for most threads)
-- and a remainder: i * 2654435761 mod n, a permutation for n a power of 2.
return {
  name = "hash_gather",
  source = [[
extern "C" __global__ void hash_gather(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * 2654435761LL % n];
}]],
  params  = { n = 4096 },
  buffers = { ["in"] = { type = "float", count = "n" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i * 2654435761 % p.n] end end,
}
