-- gpu_measure.lua: the GPU backend's method and its failures: the check
-- catches a wrong kernel, a faulting kernel is reported and the next launch
-- works, device() is sane, the cache warning appears when it should, a
-- footprint over the device's memory is refused and the shell goes on.
-- (Running out of memory is in gpu_processes.lua.) SKIP without a GPU (fail with
-- WARPLAB_REQUIRE_GPU=1). Needs WARPLAB_TEST_KERNELS=1 (tests/lib/run-lua sets it).
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local d = t.require_gpu()

-- device()
t.ok(d.name:find("NVIDIA", 1, true) ~= nil, "device() names the GPU: " .. d.name)
t.ok(d.compute_capability:match("^%d+%.%d+$") ~= nil, "compute capability " .. d.compute_capability)
t.ok(d.sm_count >= 1 and d.l2_bytes >= 1 << 20, "SM count and L2 size")
t.ok(d.bus_width_bits >= 64 and d.memory_clock_mhz > 100, "memory bus width and clock")
t.ok(math.abs(d.peak_gbs - 2 * d.memory_clock_mhz * 1e6 * d.bus_width_bits / 8 / 1e9) < 1,
     "peak = 2 x memory clock x bus width / 8")
t.ok(d.copy_gbs and d.copy_gbs > 0.3 * d.peak_gbs and d.copy_gbs < 1.02 * d.peak_gbs,
     "measured copy ceiling is below the peak: " .. tostring(d.copy_gbs))
t.ok(d.sm_clock_mhz > 100, "the SM clock the device reports")
t.ok(d.l2_bytes > 0 and d.sm_count > 0 and d.peak_gbs > 100, "device() describes the GPU")

-- The method: random inputs checked, samples kept, cold by default, clock read.
local r = launch("copy", {vec = 4})
t.ok(r.correct, "copy float4 is correct")
t.is(r.cache, "cold", "cold L2 by default")
t.ok(#r.samples >= 10, "at least 10 samples kept")
t.ok(r.sm_clock_mhz and r.sm_clock_mhz > 0.5 * d.sm_clock_mhz, "SM clock read on the device: " .. tostring(r.sm_clock_mhz))
t.ok(r.copy_fraction and r.copy_fraction > 0.5 and r.copy_fraction < 1.1, "share of the copy ceiling: " .. tostring(r.copy_fraction))
t.is(#r.warnings, 0, "no warning for a footprint far over the L2")
local warm = launch("copy", {n = 1 << 16, cache = "warm", min_samples = 25})
t.is(warm.cache, "warm", "cache='warm' per launch")
t.ok(#warm.samples >= 25, "min_samples per launch")
t.ok(#warm.warnings == 1 and warm.warnings[1]:find("largely measures the cache", 1, true),
     "a small footprint is said to measure the cache")
config{min_samples = 12, check = false}
local unchecked = launch("copy", {n = 1 << 20})
t.is(unchecked.correct, nil, "config{check=false}: no check")
t.ok(#unchecked.samples >= 12, "config{min_samples=12} holds for the session")
config{min_samples = 10, check = true}

-- cudaMalloc's alignment, asked of the driver.
local blocks = alloc_alignment(16, 1000)
local least = math.huge
for _, b in ipairs(blocks) do least = math.min(least, b.alignment) end
t.ok(not blocks.modelled and least >= 256, "cudaMalloc gives at least 256-byte alignment: " .. least)

-- A wrong kernel is caught and named.
local wrong = launch("wrong", {n = 1000})
t.is(wrong.correct, false, "the check catches a wrong kernel")
t.ok(wrong.mismatch and wrong.mismatch:find("out[500]", 1, true), "the mismatch names the first bad index: " .. tostring(wrong.mismatch))
t.ok(wrong.mismatch and wrong.mismatch:find("expected", 1, true) and wrong.mismatch:find("got", 1, true),
     "... with expected and actual values")

-- A faulting kernel is reported, the device reset, and the next launch works.
local ok, message = pcall(launch, "fault", {n = 1024})
t.ok(not ok and message:find("cudaErrorIllegalAddress", 1, true), "a fault is reported: " .. tostring(message))
t.ok(not ok and message:find("reset", 1, true), "... and the device was reset")
local next_ok, after = pcall(launch, "offset", {offset = 1, n = 1 << 20})
t.ok(next_ok and after.correct and after.backend == "gpu", "the next launch works on the GPU and is correct")
if not next_ok then print("# " .. tostring(after)) end
local again_ok, again = pcall(launch, "copy", {n = 4096})
t.ok(again_ok and again.load.sectors > 0, "the shell carries on after the fault: the next launch runs (on the " ..
     (again_ok and again.backend or "?") .. " backend)")

-- A launch too big for the device is an error with sizes, and the shell goes on.
t.ok(not pcall(launch, "strided", {n = 1 << 30, stride = 1024}), "a footprint over the device memory is refused")
t.ok(launch("copy", {n = 4096}).correct, "launches still work afterwards")

t.done()
