-- stencil1d.lua: the stencil1d family, each output the sum of 2r+1
-- neighbouring inputs. On the GPU, every load hint: output equal to the CPU
-- reference and the model's requests and sectors equal to the hardware
-- counters; at the default size the reuse is served by L1 unless load="cg"
-- (the L1 hit rate and L2 sectors printed for the docs). SKIP without a GPU.
-- On the access model: every radius with every hint launches, small
-- launches counted by hand, the loads ask for about 2r+1 times the bytes
-- DRAM sends, and bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap
local hints = {"default", "ca", "cg", "ldg", "cs"}

family.gpu(function()
  local cases = {
    {"stencil1d", {radius = 0, n = 1 << 20}, {shared = false}}, {"stencil1d", {radius = 7, n = 1 << 20}, {shared = false}},
    {"stencil1d", {radius = 3, n = 1000, block = 96}, {shared = false}},
  }
  for _, hint in ipairs(hints) do
    cases[#cases + 1] = {"stencil1d", {radius = 2, n = 1 << 20, load = hint}, {shared = false}}
  end
  family.gpu_grid(cases)

  -- At its default size: with load="cg" every load sector is fetched from
  -- L2; with the default hint L1 serves most of the 2r+1 repeats.
  local by_hint = {}
  for _, hint in ipairs(hints) do
    local r = launch("stencil1d", {load = hint, min_samples = 3})
    by_hint[hint] = r
    if r.counters then
      family.note("stencil1d load=%-7s %.4f ms · L1 hit %5.1f%% · L2 read sectors %d of %d load sectors · DRAM read %d (model %d)",
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
end)

local counts = family.model_counts

local listed = {}
for _, k in ipairs(kernels()) do listed[k.name] = k.summary end
t.ok(listed.stencil1d, "kernels() lists stencil1d with its summary")

-- Every radius with every hint launches; load = 2r+1 requests per warp.
for radius = 0, 7 do
  for _, hint in ipairs(hints) do
    local r = launch("stencil1d", {radius = radius, load = hint, n = 1024})
    t.ok(r.model.load.requests == 32 * (2 * radius + 1) and r.model.store.requests == 32,
         string.format("stencil1d radius=%d load=%s: %d load requests, 32 store requests", radius, hint,
                       32 * (2 * radius + 1)))
  end
end

-- Two full warps, radius 2: load k reads floats k .. k+31 of the warp, so
-- k = 0 is 4 aligned sectors and k = 1..4 are 5 (one sector more, as offset
-- 1..4): 4 + 4*5 = 24 per warp, 48 in all over 10 requests. The input is
-- 64+4 floats = 272 bytes: five 64-byte DRAM blocks, 320 bytes. The store is
-- 2 requests of 4 whole sectors: 256 bytes written, no write-allocate.
local s = launch("stencil1d", {n = 64, block = 64, radius = 2})
t.is(counts(s), "load 10/48 store 2/8 dram 320/256/0", "stencil1d n=64 radius=2: worked by hand")
t.is(s.useful_bytes, 4 * (68 + 64), "stencil1d: useful bytes are the input (with halo) and the output once")

-- A partial warp: n=40, block=64, radius 1. Warp 0: 4+5+5 = 14 sectors.
-- Warp 1 has lanes 32..39; load k reads bytes 4*(32+k) .. 4*(40+k)-1: k=0 is
-- sector 4 alone (1), k=1 and k=2 reach into sector 5 (2 each): 5. Stores:
-- 4 + 1 sectors. Input 42 floats = 168 bytes: three DRAM blocks, 192 bytes.
t.is(counts(launch("stencil1d", {n = 40, block = 64, radius = 1})), "load 6/19 store 2/5 dram 192/160/0",
     "stencil1d n=40 radius=1 (a partial warp): worked by hand")

-- Radius 7: loads k = 0 and k = 8 are aligned (4 sectors), the 13 others 5.
t.is(launch("stencil1d", {n = 1024, radius = 7}).model.load.sectors, 32 * (2 * 4 + 13 * 5),
     "stencil1d radius=7: 73 load sectors per warp")

-- The claim: the loads ask for each input sector about 2r+1 times, but DRAM
-- sends it once; a cache must serve the rest. L1 does it with the default
-- hint; with load="cg" each of those sector requests goes to L2 (on the GPU,
-- counters.l2_read_sectors shows it). The model's counts are the same.
for _, radius in ipairs({1, 2, 4, 7}) do
  local r = launch("stencil1d", {n = 1 << 20, radius = radius})
  local asked = 32 * r.model.load.sectors / r.model.dram.read_bytes
  t.ok(asked >= 2 * radius + 1 and asked < 1.25 * (2 * radius + 1),
       string.format("stencil1d radius=%d: loads ask for %.2fx the bytes DRAM sends (2r+1 = %d)",
                     radius, asked, 2 * radius + 1))
  t.is(counts(launch("stencil1d", {n = 1 << 20, radius = radius, load = "cg"})), counts(r),
       "stencil1d radius=" .. radius .. " load=cg: the same requests and sectors (what changes is where they are served)")
end
local defaults = launch("stencil1d", {})
t.ok(defaults.footprint_bytes > 2 * 60 * 2^20, "stencil1d defaults: footprint over twice a 60 MB L2")
t.ok(info("stencil1d").source:find("__ldcg(p)", 1, true), "stencil1d: info shows the hinted loads")
t.raises(function() launch("stencil1d", {radius = 8}) end,
  {"bad argument #2 to 'launch'", "'radius' must be an integer from 0 to 7, got 8"}, "radius 8 is refused")
t.raises(function() launch("stencil1d", {radius = -1}) end, {"'radius' must be an integer from 0 to 7, got -1"},
  "a negative radius is refused")
t.raises(function() launch("stencil1d", {load = "L1"}) end, {"'load' must be", "got \"L1\""},
  "stencil1d: an unknown hint is refused")

family.done()
