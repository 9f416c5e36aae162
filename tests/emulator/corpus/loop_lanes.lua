-- loop_lanes: a loop whose trip count differs from lane to lane (0 to 3):
-- the warp runs until its last lane is done, the others idle.
return {
  name = "loop_lanes",
  source = [[
extern "C" __global__ void loop_lanes(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int k = 0; k < (i & 3); k++) s += in[i + k * n];
    out[i] = s;
}]],
  params  = { n = 256 },
  buffers = { ["in"] = { type = "float", count = function(p) return 3 * p.n end },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n" },
  grid    = function(p) return (p.n + 63) // 64 end,
  block   = 64,
  reference = function(p, b)
    for i = 0, p.n - 1 do
      local s = 0.0
      for k = 0, (i & 3) - 1 do s = s + b["in"][i + k * p.n] end
      b.out[i] = s
    end
  end,
  -- 8 warps. Trip k runs on the lanes with (i & 3) > k: 24, 16 and 8 lanes of
  -- each warp for k = 0, 1, 2, and no lanes for k = 3: 3 requests a warp.
  -- Every sector (8 floats) still has an active lane at each trip, so each
  -- request is the warp's 4 sectors: 24 requests, 96 sectors.
  expect = { load = { requests = 24, sectors = 96 }, store = { requests = 8, sectors = 32 } },
  -- On the H200 ptxas unrolls the loop and peels its remainder, so that one
  -- LDG serves trip 0 of the lanes that run once and trip 2 of those that run
  -- three times: 8 sectors, where the PTX's own order gives 4 (hardware
  -- 24/128 against the emulator's 24/96, 2026-12-01).
  gpu_differs = "ptxas unrolls the loop: one load serves two trips",
}
