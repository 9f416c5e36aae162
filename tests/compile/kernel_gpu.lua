-- gpu_kernel.lua: kernels declared in Lua, on the GPU. Each is compiled for
-- the GPU's own architecture, loaded in the GPU process and measured as the
-- built-ins are; its hardware requests, sectors and shared wavefronts must
-- equal the emulator's, and its outputs the emulator's (and through them
-- the reference's). The corpus (tests/emulator/corpus/) runs through kernel{} where
-- kernel{} can say what its declaration says. A kernel that faults, and one
-- that runs past its time limit, are each one error, and the next launch
-- runs. Float atomics' sums are correct within their rounding. SKIP without
-- a GPU (WARPLAB_REQUIRE_GPU=1 fails instead) or NVRTC.
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
t.require_gpu()
if not core.nvrtc_version() then t.skip_all("no NVRTC here") end

-- The emulator's counts (the model of a declared kernel) against the hardware's.
local function counts_agree(r)
  local c, m = r.counters, r.model
  if not c then return false, "no counters: " .. tostring(r.counters_unavailable) end
  local shared_load = r.shared_load and r.shared_load.model_wavefronts or 0
  local shared_store = r.shared_store and r.shared_store.model_wavefronts or 0
  local same = m.load.requests == c.load_requests.value and m.load.sectors == c.load_sectors.value and
               m.store.requests == c.store_requests.value and m.store.sectors == c.store_sectors.value and
               shared_load == c.shared_load_wavefronts.value and shared_store == c.shared_store_wavefronts.value
  return same, string.format("emulated %d/%d %d/%d (shared %d/%d), hardware %d/%d %d/%d (shared %d/%d)",
    m.load.requests, m.load.sectors, m.store.requests, m.store.sectors, shared_load, shared_store,
    c.load_requests.value, c.load_sectors.value, c.store_requests.value, c.store_sectors.value,
    c.shared_load_wavefronts.value, c.shared_store_wavefronts.value)
end

-- differs: where ptxas reorders what the PTX says (the corpus's gpu_differs), a known difference.
local function check_launch(label, r, differs)
  if not r.counters and not core.counters_built then   -- --disable-counters: the outputs, and no counts
    t.ok(r.backend == "gpu" and r.correct == true, string.format("%s: on %s, correct %s%s", label, r.backend,
         tostring(r.correct), r.mismatch and " (" .. r.mismatch .. ")" or ""))
    return t.skip(label .. ": hardware counts", tostring(r.counters_unavailable))
  end
  local same, text = counts_agree(r)
  local report = string.format("%s: on %s, correct %s%s; %s", label, r.backend, tostring(r.correct),
                               r.mismatch and " (" .. r.mismatch .. ")" or "", text)
  local agreed = r.backend == "gpu" and same and r.correct == true
  if differs then t.todo(agreed, report, differs) else t.ok(agreed, report) end
end

local mystride = {
  name = "mystride",
  source = [[
__global__ void mystride(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(long long)i * stride];
}]],
  params  = { n = 1 << 20, stride = { default = 2, min = 1, max = 1024 } },
  buffers = { ["in"] = { type = "float", count = function(p) return p.n * p.stride end },
              out    = { type = "float", count = "n", output = true } },
  args    = { "in", "out", "n", "stride" },
  grid    = function(p) return (p.n + 255) // 256 end,
  block   = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i * p.stride] end end,
}
kernel(mystride)
check_launch("mystride at stride 4", launch("mystride", { stride = 4, n = 1 << 16 }))
local swept = sweep("mystride", { n = 1 << 16, stride = { 1, 3, 32 } })
for i, r in ipairs(swept) do check_launch("mystride in a sweep, stride " .. r.params.stride, r) end

-- The corpus through kernel{}: its declarations in the shell's format, under names of their own.
local SUPPORTED = { name = true, source = true, params = true, buffers = true, args = true, grid = true, block = true,
                    shared = true, reference = true, kernel = true, expect = true, tolerance = true, gpu_differs = true,
                    printed = true }
local function as_kernel(decl)
  for key in pairs(decl) do if not SUPPORTED[key] then return nil, "field " .. key end end
  local buffers = {}
  for name, b in pairs(decl.buffers) do
    -- outputs start zeroed, as the corpus's own harness has them
    buffers[name] = { type = b.type, count = b.count, output = b.output, fill = b.fill or (b.output and "zero" or nil),
                      constant = b.constant }
  end
  return { name = "corpus_" .. decl.name, entry = decl.kernel or decl.name, source = decl.source, params = decl.params,
           buffers = buffers, args = decl.args, grid = decl.grid, block = decl.block, shared = decl.shared,
           reference = decl.reference }
end

-- A kernel that calls printf runs on the emulator on a GPU machine (its
-- output shown once a launch, not at every sample): the launch says so, and
-- printed what the declaration's `printed` says, once.
local function check_printed_launch(label, r, shown, want)
  local said = false
  for _, warning in ipairs(r.warnings or {}) do said = said or warning:find("calls printf", 1, true) ~= nil end
  local _, times = shown:gsub(want:gsub("%p", "%%%0"), "")
  t.ok(r.model.source == "emulator" and said and r.printf == want and times == 1 and r.correct == true,
       string.format("%s: on the emulator (%s), its printf shown once (%d times), as CUDA prints it%s", label,
                     said and "said so" or "not said", times, r.printf == want and "" or ": " .. tostring(r.printf)))
end

local function defaults_of(params)
  local p = {}
  for name, v in pairs(params or {}) do p[name] = type(v) == "table" and v.default or v end
  return p
end

local names = {}
local pipe = io.popen("ls '" .. srcdir .. "/tests/emulator/corpus/'")
for file in pipe:lines() do names[#names + 1] = file:match("^([%w_]+)%.lua$") end
pipe:close()
local declared, skipped = 0, {}
for _, name in ipairs(names) do
  local decl = dofile(srcdir .. "/tests/emulator/corpus/" .. name .. ".lua")
  local spec, why = as_kernel(decl)
  if not spec then
    skipped[#skipped + 1] = name .. " (" .. why .. ")"
  else
    local ok, message = pcall(kernel, spec)
    if not t.ok(ok, "corpus " .. name .. " declared") then print("#   " .. tostring(message)) end
    if ok then
      declared = declared + 1
      core.capture(true)
      local fine, r = pcall(launch, spec.name, { min_samples = 3 })
      local shown = core.capture(false)
      io.write(shown)
      if not fine then
        t.ok(false, "corpus " .. name .. ": " .. tostring(r))
      elseif decl.printed then
        check_printed_launch("corpus " .. name, r, shown, decl.printed(defaults_of(decl.params)))
      else
        -- at SASS level the engine ran what ptxas made: the difference is gone, and the counts must agree
        check_launch("corpus " .. name .. " (" .. tostring(r.model.level) .. " level)", r,
                     r.model.level ~= "sass" and decl.gpu_differs or nil)
      end
    end
  end
end
print(string.format("# %d corpus kernels on the GPU; not yet expressible in kernel{}: %s", declared,
                    #skipped > 0 and table.concat(skipped, ", ") or "none"))

-- Float atomics: the GPU adds their terms in an order of its own, and the
-- check allows the rounding of those terms in any order (issue 31, item 3):
-- 2^20 adds into 4 bins, and blocks' sums made in shared memory and added by one.
kernel {
  name = "float_bins",
  source = [[
__global__ void float_bins(const float *in, float *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[i % 4], in[i]);
}]],
  params = { n = 1 << 20 },
  buffers = { ["in"] = { type = "float", count = "n" }, bins = { type = "float", count = 4, output = true, fill = "zero" } },
  args = { "in", "bins", "n" }, grid = function(p) return (p.n + 255) // 256 end, block = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.bins[i % 4] = b.bins[i % 4] + b["in"][i] end end,
}
kernel {
  name = "block_sum",
  file = (os.getenv("srcdir") or ".") .. "/tests/compile/block_sum.cu",
  params = { n = { default = 1024, min = 1, max = 1 << 24 } },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = 1, output = true, fill = "zero" } },
  args = { "in", "out", "n" }, grid = function(p) return (p.n + 1023) // 1024 end, block = 1024,
  reference = function(p, b) local s = 0 for i = 0, p.n - 1 do s = s + b["in"][i] end b.out[0] = s end,
}
-- Each warp adds into a shared word of its own: the compare-and-swap loop's
-- trips, as the emulator counts them, are all the GPU does.
kernel {
  name = "warp_sums",
  source = [[
__global__ void warp_sums(const float *in, float *out, int n)
{
    __shared__ float sums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 32) sums[threadIdx.x] = 0.0f;
    __syncthreads();
    if (i < n) atomicAdd(&sums[threadIdx.x / 32], in[i]);
    __syncthreads();
    if (threadIdx.x < 32) atomicAdd(out, sums[threadIdx.x]);
}]],
  params = { n = { default = 1024, min = 1, max = 1 << 24 } },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = 1, output = true, fill = "zero" } },
  args = { "in", "out", "n" }, grid = function(p) return (p.n + 1023) // 1024 end, block = 1024,
  reference = function(p, b) local s = 0 for i = 0, p.n - 1 do s = s + b["in"][i] end b.out[0] = s end,
}
-- block_sum's 32 warps add to one shared word: the GPU retries their
-- compare-and-swap loop as their timing falls (from 2,049 to 2,101 shared
-- loads for 1,024 adds, 2026-12-03), the emulator counts its least, and
-- the card says so; every other count is equal.
local function check_colliding(label, r)
  local c, m = r.counters, r.model
  local emulated = r.shared_load and r.shared_load.model_wavefronts or 0
  local hardware = c and c.shared_load_wavefronts.value or -1
  local others = c and m.load.sectors == c.load_sectors.value and m.load.requests == c.load_requests.value and
                 (r.shared_store and r.shared_store.model_wavefronts or 0) == c.shared_store_wavefronts.value
  local noted = false
  for _, w in ipairs(r.warnings or {}) do noted = noted or w:find("compare-and-swap loop", 1, true) ~= nil end
  t.ok(r.backend == "gpu" and r.correct == true and others and hardware >= emulated and hardware < 3 * emulated and noted,
       string.format("%s: on %s, correct %s; shared loads emulated %d, hardware %d; other counts equal %s; noted %s", label,
                     r.backend, tostring(r.correct), emulated, hardware, tostring(others), tostring(noted)))
end
for _, case in ipairs({ { "float_bins", {} }, { "warp_sums", { n = 1 << 20 } }, { "block_sum", { n = 1024 } },
                        { "block_sum", { n = 1 << 20 } } }) do
  local r = launch(case[1], case[2])
  local label = t.label(case[1], case[2]) .. ", float atomics"
  if case[1] == "block_sum" then check_colliding(label, r) else check_launch(label, r) end
  t.ok(r.tolerance ~= nil, t.label(case[1], case[2]) .. ": the card says its float atomics' sums were compared within their rounding")
end

-- A fault: one error saying what the GPU said, and the next launch runs in a fresh GPU process.
kernel {
  name = "faulty",
  source = [[
__global__ void faulty(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i + (1ll << 40)] = 1.0f;
}]],
  params = { n = 1024 }, buffers = { out = { type = "float", count = "n", output = true } },
  args = { "out", "n" }, grid = 4, block = 256,
}
t.raises(function() launch("faulty") end, { "launch of 'faulty' failed", "CUDA error", "fresh process" },
         "a faulting kernel is one error naming what the GPU said")
check_launch("mystride after the fault", launch("mystride", { stride = 2, n = 1 << 16 }))

-- Past its time limit: the GPU process is ended and replaced.
kernel {
  name = "forever",
  source = [[
__global__ void forever(volatile int *flag, int n)
{
    while (flag[0] == 0) { }
}]],
  params = { n = 1 }, buffers = { flag = { type = "int", count = 1, output = true, fill = "zero" } },
  args = { "flag", "n" }, grid = 1, block = 32,
}
local started = os.time()
t.raises(function() launch("forever", { kernel_timeout = 1 }) end, { "'forever' was still running after its time limit of 1 s", "fresh process" },
         "a kernel past its time limit is one error, and its GPU process is replaced")
t.ok(os.time() - started < 60, "the timed-out launch came back in " .. (os.time() - started) .. " s")
check_launch("mystride after the time limit", launch("mystride", { stride = 8, n = 1 << 16 }))
t.done()
