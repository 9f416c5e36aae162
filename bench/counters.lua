-- counters.lua: the counters' speed (issue 4), run by bench.lua and, with
-- WARPLAB_REPLAY=kernel, by bench/run again to compare CUPTI's kernel replay.
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
  -- the sweep of issue 7, offset 0..32: launched together, counters read in
  -- sessions of a few launches; at the default n (805 MB of buffers, the host
  -- check dominates) and at n = 2^24 (201 MB, still over twice the L2)
  for _, size in ipairs({{"sweep33", nil}, {"sweep33_n24", 1 << 24}}) do
    local configs = {}
    for offset = 0, 32 do configs[#configs + 1] = {offset = offset, n = size[2]} end
    local results = launch("offset", configs)
    local total, agree = 0, 0
    for _, r in ipairs(results) do
      total = total + r.wall_ms
      if r.counters and r.counters.load_sectors.value == r.model.load.sectors then agree = agree + 1 end
    end
    print(size[1] .. "_per_config_ms", total / 33)
    print(size[1] .. "_model_equals_hardware", agree)
  end
else
  print("counters_unavailable", probe.counters_unavailable)
end
