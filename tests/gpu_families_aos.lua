-- gpu_families_aos.lua: aos_soa and particles on the GPU: output equal to
-- the CPU reference, the model's requests and sectors equal to the hardware
-- counters, and the model's DRAM reads within 5% of the hardware's where the
-- footprint is over twice the L2 (this is where write-allocate shows: the
-- AoS write stores part of every sector, the update stores after its load).
-- SKIP without a GPU; with WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

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
  t.model_equals_counters(text, r, {shared = false, dram = r.footprint_bytes > 2 * d.l2_bytes})
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
