-- A lab kernel whose buffers are 4.3 GB each: refused against the lab's memory cap before anything is allocated.
lab { title = "budget memory" }
step { text = "x", kernel = {
  name = "bigfour",
  skeleton = [==[extern "C" __global__ void bigfour(const float4 *in, float4 *out, long long n)
{ long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }]==],
  params = { n = { default = 1 << 28, min = 1, max = 1 << 32 } },
  buffers = { ["in"] = { type = "float4", count = "n" }, out = { type = "float4", count = "n", output = true } },
  args = { "in", "out", "n" },
  grid = function(p) return (p.n + 255) // 256 end, block = 256,
}, run = [[launch("bigfour")]] }
