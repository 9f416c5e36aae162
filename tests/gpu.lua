-- gpu.lua: each family on the GPU: output checked against the CPU
-- reference, the model's numbers beside the measurement, sane timings.
-- SKIP without a GPU; with WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local d = t.require_gpu()

t.ok(d.l2_bytes > 0 and d.sm_count > 0 and d.peak_gbs > 100, "device() describes the GPU")

local cases = {
  {"copy", {}}, {"copy", {vec = 2}}, {"copy", {vec = 4}}, {"copy", {n = 1000, block = 96}},
  {"offset", {offset = 0}}, {"offset", {offset = 1}}, {"offset", {offset = 7}}, {"offset", {offset = 8}},
  {"offset", {offset = 1, n = 262144}},
  {"strided", {stride = 1}}, {"strided", {stride = 2}}, {"strided", {stride = 8}}, {"strided", {stride = 32}},
  {"strided", {stride = 3, n = 4097}},
}
for _, case in ipairs(cases) do
  local name, params = case[1], case[2]
  local r = launch(name, params)
  local label = name .. " " .. (next(params) and tostring(r.params.n) .. "/" .. tostring(params.offset or params.stride or params.vec or params.block) or "defaults")
  t.ok(r.backend == "gpu", label .. ": ran on the GPU")
  t.ok(r.correct == true, label .. ": output matches the CPU reference" .. (r.mismatch and " (" .. r.mismatch .. ")" or ""))
  t.ok(#r.samples >= 10 and r.time_ms > 0 and r.time_min_ms <= r.time_ms and r.time_ms <= r.time_max_ms,
       label .. ": at least 10 samples, median between min and max")
  t.ok(r.bandwidth_gbs > 0 and r.bandwidth_gbs < 1.05 * d.peak_gbs, label .. ": bandwidth below the peak")
  t.ok(r.model.load.sectors > 0 and r.load.sectors_per_request == r.model.load.sectors_per_request,
       label .. ": model numbers are there")
  print("# " .. tostring(r):gsub("\n", "\n# "))
end

-- A launch too big for the device is an error with sizes, and the shell goes on.
t.ok(not pcall(launch, "strided", {n = 1 << 30, stride = 1024}), "a footprint over the device memory is refused")
t.ok(launch("copy", {n = 4096}).correct, "launches still work afterwards")
t.done()
