-- emulator.lua: the PTX emulator's speed against the hand-written model, and
-- the SASS engine's against the PTX emulator's, on the machine at hand
-- (needs NVRTC: a build with CUDA; the SASS part, nvdisasm):
--   ./warplab --sim bench/emulator.lua
-- The target (issue 17): emulating offset at n = 2^24 takes at most 8 times
-- as long as the hand-written model's launch; and the emulator's rate in
-- lane-instructions a second on one core, for copy, transpose (shared) and
-- spmv. Both run on one thread per core (WARPLAB_MODEL_THREADS sets it).
-- Each is the median of 5 runs, taken in turn, after a first run of each
-- (the emulator's first compiles the kernel and faults its buffers in:
-- that first run is shown too).
local core = debug.getregistry()["warplab.core"]
if not core.nvrtc_version() then print("no NVRTC here: the emulator compiles with it") return end

-- Wall time and CPU time (of every thread) of fn.
local function clock_ms(fn)
  local wall, cpu = core.now_ms(), os.clock()
  local result = fn()
  return core.now_ms() - wall, (os.clock() - cpu) * 1000, result
end

local function median(values) table.sort(values) return values[(#values + 1) // 2] end

print(string.format("%s, model threads: %s", core.nvrtc_version(), os.getenv("WARPLAB_MODEL_THREADS") or "one per core (at most 16)"))
print(string.format("%-36s %10s %12s %10s %10s %8s %s", "launch", "first ms", "emulator ms", "(cpu ms)", "model ms", "ratio", "target"))
local cases = {
  { "offset", {n = 1 << 24, offset = 1}, "<= 8" },
  { "copy", {n = 1 << 22}, "" },
  { "transpose", {rows = 2048, cols = 2048, variant = "shared", tile = 32}, "" },
  { "spmv", {n = 1 << 16, nnz_per_row = 16}, "" },
}
local RUNS = 5
local rates = {}
for _, case in ipairs(cases) do
  local name, params, target = case[1], case[2], case[3]
  local first_ms = clock_ms(function() return core.emulate_family(name, params) end)
  launch(name, params)
  local emulator_walls, emulator_cpus, model_walls, e = {}, {}, {}, nil
  for i = 1, RUNS do
    emulator_walls[i], emulator_cpus[i], e = clock_ms(function() return core.emulate_family(name, params) end)
    model_walls[i] = launch(name, params).wall_ms
  end
  local emulator_ms, cpu_ms, model_ms = median(emulator_walls), median(emulator_cpus), median(model_walls)
  rates[name] = e.lane_instructions / (cpu_ms / 1000)
  local size = params.n and ("n=" .. params.n) or string.format("%dx%d", params.rows, params.cols)
  print(string.format("%-36s %10.0f %12.0f %10.0f %10.1f %8.1f %s", name .. " " .. size, first_ms, emulator_ms, cpu_ms, model_ms,
                      emulator_ms / model_ms, target))
end
for _, name in ipairs({ "copy", "transpose", "spmv" }) do
  print(string.format("%-36s %12.1f M lane-instructions a CPU second", name, rates[name] / 1e6))
end

-- The SASS engine against the PTX emulator (issue 33: within 2x), on the
-- same launches at sizes the engine takes (at most 32,768 warps): the H200's
-- profile runs them on the engine, the A100's (sm_80) on the PTX emulator,
-- with the same counts. Where there is no disassembler, nothing runs at SASS level.
if not core.disassembler() then print("no nvdisasm here: no SASS level to time") return end
print()
print(string.format("%-36s %10s %10s %8s", "launch (emulator, median of 5)", "SASS ms", "PTX ms", "ratio"))
local function timed(profile, name, params)
  config { profile = profile }
  local e = core.emulate_family(name, params)   -- the first: the listing and the buffers
  local walls = {}
  for i = 1, RUNS do walls[i], _, e = clock_ms(function() return core.emulate_family(name, params) end) end
  return median(walls), e.level
end
for _, case in ipairs({
  { "offset", {n = 1 << 20, offset = 1} },
  { "copy", {n = 1 << 20} },
  { "transpose", {rows = 512, cols = 512, variant = "shared", tile = 32} },
  { "matmul", {m = 256, n = 256, k = 256, variant = "tiled"} },
}) do
  local name, params = case[1], case[2]
  local sass_ms, sass_level = timed("h200", name, params)
  local ptx_ms, ptx_level = timed("a100", name, params)
  local label = name .. " " .. (params.n and params.m == nil and ("n=" .. params.n) or params.rows and
                string.format("%dx%d", params.rows, params.cols) or string.format("%dx%dx%d", params.m, params.n, params.k))
  print(string.format("%-36s %10.0f %10.0f %8.1f%s", label, sass_ms, ptx_ms, sass_ms / ptx_ms,
                      sass_level == "sass" and ptx_level == "ptx" and "" or "  (levels: " .. tostring(sass_level) .. ", " .. tostring(ptx_level) .. ")"))
end
config { profile = "h200" }
