-- gpu_families_aos.lua: aos_soa and particles on the GPU: output equal to
-- the CPU reference, the model's requests and sectors equal to the hardware
-- counters, and the model's DRAM reads within 5% of the hardware's where the
-- footprint is over twice the L2 (this is where write-allocate shows: the
-- AoS write stores part of every sector, the update stores after its load).
-- SKIP without a GPU; with WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")

local d = t.require_gpu()

local grid = {
  {"particles", {}}, {"particles", {layout = "soa"}},
  {"particles", {n = 1000, block = 96}}, {"particles", {n = 1000, layout = "soa"}},
  {"aos_soa", {n = 1000, block = 96, fields = 3, access = "read"}},
  {"aos_soa", {n = 1001, fields = 5, access = "update", layout = "soa"}},
}
for _, layout in ipairs({"aos", "soa"}) do
  for _, access in ipairs({"read", "write", "update"}) do
    for _, fields in ipairs({2, 3, 8}) do
      grid[#grid + 1] = {"aos_soa", {layout = layout, access = access, fields = fields}}
    end
  end
end

local label = t.label

for _, case in ipairs(grid) do
  local name, params = case[1], case[2]
  local text = label(name, params)
  params.min_samples = 3
  local r = launch(name, params)
  t.ok(r.correct == true, text .. ": output matches the CPU reference" .. (r.mismatch and " (" .. r.mismatch .. ")" or ""))
  local c, m = r.counters, r.model
  t.ok(c and c.load_requests.value == m.load.requests and c.load_sectors.value == m.load.sectors and
       c.store_requests.value == m.store.requests and c.store_sectors.value == m.store.sectors,
       text .. ": model = hardware, requests and sectors" ..
       (c and string.format(" (hw %d/%d %d/%d, model %d/%d %d/%d)", c.load_requests.value, c.load_sectors.value,
          c.store_requests.value, c.store_sectors.value, m.load.requests, m.load.sectors,
          m.store.requests, m.store.sectors) or (" (no counters: " .. tostring(r.counters_unavailable) .. ")")))
  if c and r.footprint_bytes > 2 * d.l2_bytes then
    local err = math.abs(m.dram.read_bytes - c.dram_read_bytes.value) / c.dram_read_bytes.value
    t.ok(err <= 0.05, text .. string.format(": model DRAM read %d (write-allocate %d) vs hardware %d (%.2f%%, within 5%%)",
         m.dram.read_bytes, m.dram.write_allocate_bytes, c.dram_read_bytes.value, 100 * err))
  end
  print("# " .. tostring(r):gsub("\n", "\n# "))
end

-- The teaching claims, measured: AoS slower than SoA where it moves more bytes.
local aos, soa = launch("particles", {}), launch("particles", {layout = "soa"})
t.ok(aos.time_ms > 1.5 * soa.time_ms, string.format("particles: AoS %.4f ms, SoA %.4f ms (AoS moves 8/3 the bytes)",
                                                     aos.time_ms, soa.time_ms))
local write_aos, write_soa = launch("aos_soa", {}), launch("aos_soa", {layout = "soa"})
t.ok(write_aos.time_ms > write_soa.time_ms, string.format("notes' experiment: AoS %.4f ms, SoA %.4f ms (the notes: 1.5-1.8x)",
                                                          write_aos.time_ms, write_soa.time_ms))
t.done()
