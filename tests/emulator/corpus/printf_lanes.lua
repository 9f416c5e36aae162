-- printf_lanes: printf in every eighth thread of two warps and a partial
-- third, with <cstdio> included: on the emulator each call is formatted as
-- CUDA formats it, in lane order, warp by warp (`printed`); its argument
-- buffer is local memory, not counted. On a GPU machine the kernel runs on
-- the emulator, its output shown once (tests/compile/kernel_gpu.lua checks both).
return {
  name = "printf_lanes",
  source = [[
#include <cstdio>
extern "C" __global__ void printf_lanes(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i], doubled = 2 * v;
    out[i] = doubled;
    if (i % 8 == 0)
        printf("lane %2d of warp %d: in=%4d out=%-5d|\n", threadIdx.x % 32, threadIdx.x / 32, v, doubled);
}]],
  params  = { n = 80 },
  buffers = { ["in"] = { type = "int", count = "n", fill = "index" },
              out    = { type = "int", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = 1,
  block   = 96,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = 2 * b["in"][i] end end,
  printed = function(p)
    local lines = {}
    for i = 0, p.n - 1, 8 do
      lines[#lines + 1] = string.format("lane %2d of warp %d: in=%4d out=%-5d|\n", i % 32, i // 32, i, 2 * i)
    end
    return table.concat(lines)
  end,
  -- 80 ints in three warps (the third of 16 lanes): 3 requests and 10 sectors each way; printf adds none.
  expect = { load = { requests = 3, sectors = 10 }, store = { requests = 3, sectors = 10 } },
}
