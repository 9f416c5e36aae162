-- A lab that reads a kernel the student declared (info().source, kernels()) and declares its own under the name of another.
lab { title = { en = "kernel theft", zh = "窃取核函数" } }
step { text = { en = "x", zh = "x" },
       run = [[local ok, what = pcall(function() return info("stolen").source end)
print(ok and "STOLEN " .. tostring(what) or "REFUSED " .. tostring(what))
for _, k in ipairs(kernels()) do if k.name == "stolen" then print("LISTED stolen") end end]] }
step { text = { en = "y", zh = "y" },
       kernel = { name = "mine", skeleton = [[extern "C" __global__ void mine(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 666.0f;   // LAB_SKELETON
}
]], params = { n = 1024 }, buffers = { out = { type = "float", count = "n", output = true } },
                  args = { "out", "n" }, grid = 4, block = 256 } }
