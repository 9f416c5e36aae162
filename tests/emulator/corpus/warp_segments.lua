-- warp_segments: sums over segments of 8 lanes (shuffles with width 8) and
-- an inclusive scan of each warp by __shfl_up_sync.
return {
  name = "warp_segments",
  source = [[
extern "C" __global__ void warp_segments(const int *in, int *sums, int *scan)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = in[i], s = v;
    for (int o = 4; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o, 8);
    sums[i] = s;
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffff, v, o);
        if (lane >= o) v += u;
    }
    scan[i] = v;
}]],
  params  = { n = 2048 },
  buffers = { ["in"] = { type = "int", count = "n", fill = { "int", -1000, 1000 } },
              sums   = { type = "int", count = "n", output = true },
              scan   = { type = "int", count = "n", output = true } },
  args    = { "in", "sums", "scan" },
  grid    = function(p) return p.n // 256 end,
  block   = 256,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      local first, s = i - i % 8, 0
      for k = first, first + 7 do s = s + b["in"][k] end
      b.sums[i] = s
      b.scan[i] = (i % 32 > 0 and b.scan[i - 1] or 0) + b["in"][i]
    end
  end,
}
