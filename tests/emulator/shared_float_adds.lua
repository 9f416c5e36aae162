-- shared_float_adds.lua: a float atomicAdd on shared memory is a
-- compare-and-swap loop on the GPU (sm_90 has no ATOMS.ADD.F32): each trip
-- loads the word (one LDS, counted among shared load wavefronts) and tries
-- the swap, and one lane of each word wins a trip. The emulator counts the
-- loop's trips; where no two warps of a block add to one word, its shared
-- loads equal the H200's, and where they do, the GPU retries as the warps'
-- timing falls, the emulator's count is the least, and the card says so.
-- Integer atomicAdd on shared memory is one ATOMS and loads nothing.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
if not core.nvrtc_version() and not core.find_program("clang") then t.skip_all("no CUDA compiler here (neither NVRTC nor clang)") end

-- Each kernel adds one input a thread as its body says; `none` adds nothing,
-- so a kernel's shared loads less none's are its atomics' alone. The
-- emulator runs a kernel of float atomics at PTX level and `none` at SASS
-- level, where ptxas reads s[0] and s[1] with one LDS.64: `none_ptx`, whose
-- float atomic never runs, is the baseline at PTX level, so that both
-- sides of the difference count the same code.
local function declare(name, body)
  kernel {
    name = name,
    source = "__global__ void " .. name .. "(const float *in, float *out, int n)\n{\n" .. [[
    __shared__ float s[1024];
    __shared__ int si[1024];
    int t = threadIdx.x;
    s[t] = 0.0f; si[t] = 0;
    __syncthreads();
]] .. body .. [[
    __syncthreads();
    if (t == 0) out[blockIdx.x] = s[0] + s[1] + (float)si[0];
}]],
    params = { n = { default = 32, min = 1, max = 1 << 20 }, threads = { default = 32, min = 32, max = 1024 } },
    buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = 64, output = true, fill = "zero" } },
    args = { "in", "out", "n" }, grid = function(p) return (p.n + p.threads - 1) // p.threads end,
    block = function(p) return p.threads end,
  }
end
declare("none", "")
declare("none_ptx", "    if (n < 0) atomicAdd(&s[0], 1.0f);\n")
declare("same_word", "    atomicAdd(&s[0], in[blockIdx.x * blockDim.x + t]);\n")
declare("own_word", "    atomicAdd(&s[t], in[blockIdx.x * blockDim.x + t]);\n")
declare("warp_word", "    atomicAdd(&s[t / 32], in[blockIdx.x * blockDim.x + t]);\n")
declare("two_words", "    atomicAdd(&s[t & 1], in[blockIdx.x * blockDim.x + t]);\n")
declare("int_same", "    atomicAdd(&si[0], (int)in[blockIdx.x * blockDim.x + t]);\n")

-- The H200's shared load wavefronts less none's, measured through warplab's
-- counters (2026-12-03), three launches each: one figure where all three
-- gave it, else the least and the most. `collide`: warps of a block add to one word.
local H200 = {
  { "same_word", 32, 32, 32 },   { "same_word", 1024, 32, 1024 },   { "same_word", 64, 64, 97, collide = true },
  { "same_word", 1024, 1024, 2049, 2101, collide = true },          { "same_word", 65536, 1024, 128009, 128512, collide = true },
  { "own_word", 32, 32, 1 },     { "own_word", 64, 64, 2 },          { "own_word", 1024, 1024, 32 },
  { "own_word", 1024, 32, 32 },  { "own_word", 65536, 1024, 2048 },
  { "warp_word", 32, 32, 32 },   { "warp_word", 64, 64, 64 },        { "warp_word", 1024, 1024, 1024 },
  { "warp_word", 1024, 32, 1024 }, { "warp_word", 65536, 1024, 65536 },
  { "two_words", 32, 32, 16 },   { "two_words", 1024, 32, 512 },    { "two_words", 64, 64, 49, collide = true },
  { "two_words", 1024, 1024, 1007, 1008, collide = true },          { "two_words", 65536, 1024, 62665, 62819, collide = true },
  { "int_same", 32, 32, 0 },     { "int_same", 1024, 1024, 0 },      { "int_same", 65536, 1024, 0 },
}

local function shared_loads(name, n, threads)
  local r = launch(name, { n = n, threads = threads })
  return r.shared_load and r.shared_load.model_wavefronts or 0, r
end

-- The shared loads of the baseline at the level the kernel ran at.
local function baseline(r, n, threads)
  return (shared_loads(r.model.level == "ptx" and "none_ptx" or "none", n, threads))
end

local function warned(r)
  for _, w in ipairs(r.warnings or {}) do
    if w:find("compare-and-swap loop", 1, true) then return w end
  end
end

for _, case in ipairs(H200) do
  local name, n, threads, least, most = case[1], case[2], case[3], case[4], case[5] or case[4]
  local loads, r = shared_loads(name, n, threads)
  local modelled = loads - baseline(r, n, threads)
  local label = string.format("%s n=%d threads=%d: modelled %d, H200 %d%s", name, n, threads, modelled, least,
                              most > least and ".." .. most or "")
  if case.collide then
    t.ok(modelled <= least and warned(r), label .. ": the least the loop does, and the card says the GPU retries more")
  else
    t.ok(modelled == least and least == most and not warned(r), label .. ": the same count, and no note")
  end
end

-- The note names how many adds collided, in both languages.
local _, r = shared_loads("same_word", 64, 64)
t.ok(warned(r) and warned(r):find("32 adds hit a word", 1, true), "two warps on one word: 32 of their adds collide: " .. tostring(warned(r)))
core.lang("zh")
_, r = shared_loads("same_word", 64, 64)
t.ok((r.warnings[#r.warnings] or ""):find("比较并交换", 1, true), "and in Chinese: " .. tostring(r.warnings[#r.warnings]))
core.lang("en")
t.done()
