-- gpu_families_cache.lua: the cache families on the GPU. Every load and
-- store hint gives output equal to the CPU reference and the model's
-- requests and sectors exactly; stencil1d's reuse is served by L1 unless
-- load="cg"; store_policy's full sectors read nothing from DRAM and its half
-- sectors do (write-allocate). The other effects of the hints (L1 hit rate,
-- DRAM writes during the kernel, time) are printed as diagnostics for the
-- docs. SKIP without a GPU; with WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

t.require_gpu()

local label = t.label

local function note(format, ...) print("# " .. string.format(format, ...)) end

local hints = {"default", "ca", "cg", "ldg", "cs"}
local grid = {
  {"stencil1d", {radius = 0, n = 1 << 20}}, {"stencil1d", {radius = 7, n = 1 << 20}},
  {"stencil1d", {radius = 3, n = 1000, block = 96}},
  {"store_policy", {n = 99, block = 64}}, {"store_policy", {n = 99, block = 64, fill = "partial"}},
}
for _, hint in ipairs(hints) do
  grid[#grid + 1] = {"offset", {offset = 1, n = 262144, load = hint}}
  grid[#grid + 1] = {"strided", {stride = 4, n = 1 << 20, load = hint}}
  grid[#grid + 1] = {"stencil1d", {radius = 2, n = 1 << 20, load = hint}}
end
for _, store in ipairs({"default", "cs", "cg"}) do
  for _, fill in ipairs({"full", "partial"}) do
    grid[#grid + 1] = {"store_policy", {store = store, fill = fill, n = 1 << 20}}
  end
end

-- Correct output and the model's requests and sectors, for every case.
for _, case in ipairs(grid) do
  local name, params = case[1], case[2]
  params.min_samples = 3
  local r = launch(name, params)
  t.ok(r.correct == true, label(name, params) .. ": output matches the CPU reference" ..
       (r.mismatch and " (" .. r.mismatch .. ")" or ""))
  t.model_equals_counters(label(name, params), r, {shared = false})
end

-- stencil1d at its default size: with load="cg" every load sector is fetched
-- from L2; with the default hint L1 serves most of the 2r+1 repeats.
local by_hint = {}
for _, hint in ipairs(hints) do
  local r = launch("stencil1d", {load = hint, min_samples = 3})
  by_hint[hint] = r
  if r.counters then
    note("stencil1d load=%-7s %.4f ms · L1 hit %5.1f%% · L2 read sectors %d of %d load sectors · DRAM read %d (model %d)",
         hint, r.time_ms, r.counters.l1_hit_rate.value, r.counters.l2_read_sectors.value, r.model.load.sectors,
         r.counters.dram_read_bytes.value, r.model.dram.read_bytes)
  end
end
local cg = t.counters_of("stencil1d load=cg", by_hint.cg)
local default = t.counters_of("stencil1d load=default", by_hint.default)
if cg and default then
  t.ok(cg.l1_hit_rate.value < 1 and cg.l2_read_sectors.value > 0.5 * by_hint.cg.model.load.sectors,
       "stencil1d load=cg: L1 hits nothing and L2 serves over half the load sectors (15.7 of 25.2 million on the H200)")
  t.ok(default.l2_read_sectors.value < 0.75 * cg.l2_read_sectors.value,
       "stencil1d load=default: L1 serves the repeats, L2 sends far fewer sectors than with cg")
end

-- store_policy at its default size (footprint over twice the L2).
for _, fill in ipairs({"full", "partial"}) do
  for _, store in ipairs({"default", "cs", "cg"}) do
    local r = launch("store_policy", {store = store, fill = fill, min_samples = 3})
    local c = t.counters_of("store_policy fill=" .. fill .. " store=" .. store, r)
    if c then
      note("store_policy fill=%-7s store=%-7s %.4f ms · DRAM read %d (model %d) · written %d during the kernel (model at most %d)",
           fill, store, r.time_ms, c.dram_read_bytes.value, r.model.dram.read_bytes, c.dram_write_bytes.value,
           r.model.dram.write_bytes)
      if fill == "full" then
        t.ok(c.dram_read_bytes.value < 0.05 * r.useful_bytes,
             "store_policy full store=" .. store .. ": whole sectors read (almost) nothing from DRAM")
      else
        t.ok(c.dram_read_bytes.value >= 0.5 * r.model.dram.write_allocate_bytes,
             "store_policy partial store=" .. store .. ": half-written sectors are read from DRAM (write-allocate)" ..
             string.format(", hardware %.2fx the model", c.dram_read_bytes.value / r.model.dram.write_allocate_bytes))
      end
    end
  end
end

t.done()
