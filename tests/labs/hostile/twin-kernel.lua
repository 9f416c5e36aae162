-- A lab with a kernel to write, copied by tests/labs/sandbox.sh to /x/a/b.lua and /x/a_b.lua: each keeps the student's source apart.
lab { title = { en = "twin", zh = "双胞胎" } }
step { text = { en = "x", zh = "x" },
       kernel = { name = "twin", skeleton = [[extern "C" __global__ void twin(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0f;   // SKELETON
}
]], params = { n = 1024 }, buffers = { out = { type = "float", count = "n", output = true } },
                  args = { "out", "n" }, grid = 4, block = 256 } }
