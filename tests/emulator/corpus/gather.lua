-- gather: loads through an index buffer (a random permutation): each lane's
-- address is data, so a warp touches up to 32 sectors.
return {
  name = "gather",
  source = [=[
extern "C" __global__ void gather(const float *in, const int *index, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[index[i]];
}]=],
  params  = { n = 4096 },
  buffers = { ["in"] = { type = "float", count = "n" },
              index  = { type = "int", count = "n", fill = "permutation" },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "index", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][b.index[i]] end end,
}
