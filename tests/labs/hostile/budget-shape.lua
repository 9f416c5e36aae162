-- Launch shapes no GPU takes: 2 GB of shared memory a block, a block 128 deep.
lab { title = "budget shape" }
local function kernel_with(name, shape)
  local spec = {
    name = name,
    skeleton = [==[extern "C" __global__ void KERNEL(float *out, int n)
{ extern __shared__ float s[]; int i = threadIdx.x + threadIdx.z; s[0] = i; __syncthreads(); if (i < n) out[i] = s[0]; }]==],
    params = { n = 64 }, buffers = { out = { type = "float", count = "n", output = true } },
    args = { "out", "n" }, grid = 1, block = { 64 },
  }
  spec.skeleton = spec.skeleton:gsub("KERNEL", name)
  for k, v in pairs(shape) do spec[k] = v end
  return spec
end
step { text = "shared", kernel = kernel_with("hugeshared", { shared = 2147483647 }), run = [[launch("hugeshared")]] }
step { text = "deep", kernel = kernel_with("deepblock", { block = { 1, 1, 128 } }), run = [[launch("deepblock")]] }
