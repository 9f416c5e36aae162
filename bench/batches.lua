-- batches.lua: how counter batches hold up when a sweep's launches share
-- one (issue 4). Sweeps offset 0..32 and compares each launch's hardware
-- requests and sectors with the model's; run under the session settings
-- named by WARPLAB_REPLAY, WARPLAB_RANGE and WARPLAB_BATCH_ITEMS.
local n = tonumber(os.getenv("SESSIONS_N") or "") or (1 << 22)
local configs = {}
for offset = 0, 32 do configs[#configs + 1] = {offset = offset, n = n} end
local started = os.clock()
local results = launch("offset", configs)
local agree, wall, why = 0, 0, nil
for _, r in ipairs(results) do
  local c, m = r.counters, r.model
  wall = wall + r.wall_ms
  if c and c.load_requests.value == m.load.requests and c.load_sectors.value == m.load.sectors and
     c.store_requests.value == m.store.requests and c.store_sectors.value == m.store.sectors then
    agree = agree + 1
  end
  why = why or r.counters_unavailable
end
print(string.format("replay=%s range=%s items=%s n=%d: %d of %d agree with the model, %.1f ms per config%s",
      os.getenv("WARPLAB_REPLAY") or "user", os.getenv("WARPLAB_RANGE") or "user",
      os.getenv("WARPLAB_BATCH_ITEMS") or "all", n, agree, #results, wall / #results,
      why and (" (" .. why .. ")") or ""))
