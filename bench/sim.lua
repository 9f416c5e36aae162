-- sim.lua: the access model's speed (issue 5), on the machine at hand:
--   ./warplab --sim bench/sim.lua
-- A full launch of 2^26 threads with three accesses each (offset at its
-- default size) must take at most 1 s on one core; a default-size launch at
-- the prompt at most 0.5 s. Medians of five.
local function median_wall(kernel, params)
  local walls = {}
  for i = 1, 5 do walls[i] = launch(kernel, params).wall_ms end
  table.sort(walls)
  return walls[3]
end

print(string.format("%-46s %10s %8s", "launch (sim backend)", "wall ms", "target"))
local rows = {
  {"offset, 2^26 threads x 3 accesses", "offset", {offset = 1}, "<= 1000"},
  {"copy (default n = 2^26)", "copy", {}, "<= 500"},
  {"copy float4 (default n = 2^26)", "copy", {vec = 4}, "<= 500"},
  {"strided 4 (default n = 2^24)", "strided", {stride = 4}, "<= 500"},
  {"strided 32 (default n = 2^24)", "strided", {stride = 32}, "<= 500"},
  {"strided 1024 (default n = 2^24, 64 GB input)", "strided", {stride = 1024}, "<= 500"},
}
for _, row in ipairs(rows) do
  print(string.format("%-46s %10.1f %8s", row[1], median_wall(row[2], row[3]), row[4]))
end
