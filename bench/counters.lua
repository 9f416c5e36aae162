-- counters.lua: the counters' speed (issue 4), run by bench.lua and, with
-- WARPLAB_REPLAY=user, by bench/run again to compare CUPTI's user replay.
local probe = launch("offset", {offset = 1})
if probe.counters then
  local metrics = {}
  for _, c in pairs(probe.counters) do metrics[#metrics + 1] = c.metric end
  print("metrics", table.concat(metrics, ","))
  local walls = {}
  for i = 1, 5 do walls[i] = launch("offset", {offset = 1}).wall_ms end
  table.sort(walls)
  print("launch_with_counters_ms", walls[3])
  walls = {}
  for i = 1, 5 do walls[i] = launch("offset", {offset = 1, counters = false}).wall_ms end
  table.sort(walls)
  print("launch_without_counters_ms", walls[3])
  -- the sweep of issue 7, offset 0..32: launched together, counters read in one session
  local configs = {}
  for offset = 0, 32 do configs[#configs + 1] = {offset = offset} end
  local started = os.clock()
  local results = launch("offset", configs)
  local total = 0
  for _, r in ipairs(results) do total = total + r.wall_ms end
  print("sweep33_per_config_ms", total / 33)
  local agree = 0
  for _, r in ipairs(results) do
    if r.counters and r.load.sectors == r.model.load.sectors then agree = agree + 1 end
  end
  print("sweep33_model_equals_hardware", agree)
else
  print("counters_unavailable", probe.counters_unavailable)
end
