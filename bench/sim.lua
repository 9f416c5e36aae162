-- sim.lua: the access model's speed (issue 5), on the machine at hand:
--   WARPLAB_MODEL_THREADS=1 ./warplab --sim bench/sim.lua   (one core)
--   ./warplab --sim bench/sim.lua                           (all cores, as at the prompt)
-- A full launch of 2^26 threads with three accesses each (offset at its
-- default size) must take at most 1 s on one core; a default-size launch at
-- the prompt at most 0.5 s. Medians of five wall times of launch().
local function median_wall(kernel, params)
  local walls = {}
  for i = 1, 5 do walls[i] = launch(kernel, params).wall_ms end
  table.sort(walls)
  return walls[3]
end

print(string.format("model threads: %s", os.getenv("WARPLAB_MODEL_THREADS") or "one per core (at most 16)"))
print(string.format("%-46s %10s %8s", "launch (sim backend)", "wall ms", "target"))
print(string.format("%-46s %10.1f %8s", "offset, 2^26 threads x 3 accesses", median_wall("offset", {offset = 1}), "<= 1000"))
print(string.format("%-46s %10.1f %8s", "strided 1024 (n = 2^24, 64 GB input)", median_wall("strided", {stride = 1024}), "<= 500"))
local slowest, slowest_ms = nil, 0
for _, k in ipairs(kernels()) do
  local ms = median_wall(k.name, {})
  print(string.format("%-46s %10.1f %8s", k.name .. " at its defaults", ms, "<= 500"))
  if ms > slowest_ms then slowest, slowest_ms = k.name, ms end
end
print(string.format("slowest default launch: %s, %.1f ms", slowest, slowest_ms))
