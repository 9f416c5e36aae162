-- vector_int2: 8-byte vector loads of int2, a scalar int stored.
return {
  name = "vector_int2",
  source = [[
extern "C" __global__ void vector_int2(const int2 *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int2 v = in[i];
        out[i] = v.x * 3 - v.y;
    }
}]],
  params  = { n = 2048 },
  buffers = { ["in"] = { type = "int2", count = "n", fill = { "int", -1000, 1000 } },
              out    = { type = "int", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i].x * 3 - b["in"][i].y end end,
  -- 64 warps; a warp loads 32 x 8 = 256 bytes (8 sectors) and stores 128 (4).
  expect = { load = { requests = 64, sectors = 512 }, store = { requests = 64, sectors = 256 } },
}
