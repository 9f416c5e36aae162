-- warp_vote: a ballot, any and all over predicates; the ballot's bits counted
-- by a loop (trip count: the bits set).
return {
  name = "warp_vote",
  source = [[
extern "C" __global__ void warp_vote(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned positive = __ballot_sync(0xffffffff, v > 0);
    int any_big = __any_sync(0xffffffff, v > 90), all_small = __all_sync(0xffffffff, v < 95);
    int count = 0;
    for (unsigned bits = positive; bits != 0; bits &= bits - 1) count++;
    if (i < n) out[i] = count * 4 + any_big * 2 + all_small + ((positive >> (threadIdx.x & 31)) & 1) * 1000;
}]],
  params  = { n = 1000 },
  buffers = { ["in"] = { type = "int", count = "n", fill = { "int", -100, 100 } },
              out    = { type = "int", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 127) // 128 end,
  -- NVRTC turns the counting loop into popc.b32 and packs two flags with bfi.b32
  block   = 128,
  reference = function(p, b)
    for w = 0, (p.n + 31) // 32 - 1 do
      local count, any_big, all_small = 0, 0, 1
      for lane = 0, 31 do
        local i = w * 32 + lane
        local v = i < p.n and b["in"][i] or 0
        if v > 0 then count = count + 1 end
        if v > 90 then any_big = 1 end
        if v >= 95 then all_small = 0 end
      end
      for lane = 0, 31 do
        local i = w * 32 + lane
        if i < p.n then b.out[i] = count * 4 + any_big * 2 + all_small + (b["in"][i] > 0 and 1000 or 0) end
      end
    end
  end,
}
