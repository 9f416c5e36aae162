-- model.lua: the access model against what the H200 of the GPU machine
-- measured on 2026-11-30 (docs/model.md): DRAM reads of the ncu comparison,
-- within 1%, and the streaming kernels' times, within 15% (the H200
-- profile is fitted to 210 launches of every family since issue 29, these
-- among them; tests/model/time.lua holds the model to the rest). Runs on the
-- sim backend.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local dram = {   -- dram__bytes_read.sum from the hardware
  {"copy", {vec = 1, n = 4194304}, 16781568}, {"copy", {vec = 4, n = 4194304}, 67112192},
  {"offset", {offset = 0, n = 262144}, 2097664}, {"offset", {offset = 1, n = 262144}, 2097152},
  {"offset", {offset = 1, n = 67108864}, 536881408}, {"strided", {stride = 2, n = 4194304}, 33557248},
  {"strided", {stride = 8, n = 4194304}, 134222080}, {"strided", {stride = 32, n = 4194304}, 268444160},
}
for _, case in ipairs(dram) do
  local r = launch(case[1], case[2])
  local err = math.abs(r.model.dram.read_bytes - case[3]) / case[3]
  t.ok(err <= 0.01, string.format("%s: DRAM read %d vs the H200's %d (%.2f%%)", case[1],
                                  r.model.dram.read_bytes, case[3], 100 * err))
end

local times = {   -- median kernel times, ms: bench/data/h200-model-time.json (2026-12-02); vec = 2, strided 4 from bench/run (2026-11-30)
  {"copy", {}, 0.1966}, {"copy", {vec = 2}, 0.2788}, {"copy", {vec = 4}, 0.4999},
  {"offset", {offset = 1}, 0.2391}, {"offset", {offset = 0}, 0.2343},
  {"strided", {stride = 4}, 0.0806}, {"strided", {stride = 32}, 0.2964},
}
config{profile = "h200"}
for _, case in ipairs(times) do
  local r = launch(case[1], case[2])
  local err = (r.model.time_ms - case[3]) / case[3]
  t.ok(math.abs(err) <= 0.15, string.format("%s %s: modelled %.4f ms vs the H200's %.4f (%+.1f%%)", case[1],
       tostring(next(case[2]) and select(2, next(case[2])) or "defaults"), r.model.time_ms, case[3], 100 * err))
end

-- Profiles: another device changes the estimate, and device() in sim mode.
config{profile = "rtx4060"}
t.ok(device().name:find("4060", 1, true) ~= nil, "config{profile=} changes the modelled device")
t.ok(launch("copy", {n = 1 << 24}).model.time_ms > 5 * launch("copy", {n = 1 << 24, profile = "h200"}).model.time_ms,
     "a 272 GB/s card is modelled far slower than an H200")
t.raises(function() config{profile = "tpu"} end, {"'profile' must be a device profile"}, "an unknown profile")
t.done()
