-- A lab kernel whose fill function is slow: one launch of it at the prompt draws on one budget, not one a call.
lab { title = "budget fill" }
step { text = "x", kernel = {
  name = "spinfill",
  skeleton = [==[extern "C" __global__ void spinfill(const float *in, float *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }]==],
  params = { n = { default = 64, min = 32, max = 8192 } },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n end,
                         fill = function(i) local x = 0; for j = 1, 1e7 do x = x + j end; return 1 end },
              out = { type = "float", count = function(p) return p.n end, output = true } },
  args = { "in", "out", "n" },
  grid = { function(p) return (p.n + 63) // 64 end }, block = { 64 },
} }
