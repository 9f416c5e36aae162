-- families_cache.lua: the cache families on the access model: the `load`
-- hint of offset and strided, stencil1d and store_policy. Every parameter
-- value launches, small launches give the sectors and DRAM bytes worked out
-- by hand below, each family's teaching claim shows in the numbers, and bad
-- values are refused. Runs on the sim backend.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local hints = {"default", "ca", "cg", "ldg", "cs"}

local listed = {}
for _, k in ipairs(kernels()) do listed[k.name] = k.summary end
t.ok(listed.stencil1d and listed.store_policy, "kernels() lists stencil1d and store_policy with their summaries")

-- The model's counts of a result, as one comparable line.
local function counts(r)
  local m = r.model
  return string.format("load %d/%d store %d/%d dram %d/%d/%d", m.load.requests, m.load.sectors,
                       m.store.requests, m.store.sectors, m.dram.read_bytes, m.dram.write_bytes,
                       m.dram.write_allocate_bytes)
end

---------------------------------------------------------------- load hints
-- A hint picks the cache path (ld.global.ca/.cg/.nc/.cs), not the addresses:
-- every hint gives the default's requests, sectors and DRAM bytes.
for _, family in ipairs({{"offset", {offset = 3, n = 5000, block = 96}}, {"strided", {stride = 5, n = 3000}}}) do
  local name, params = family[1], family[2]
  local default = launch(name, params)
  t.is(default.params.load, "default", name .. ": load defaults to \"default\"")
  for _, hint in ipairs(hints) do
    params.load = hint
    local r = launch(name, params)
    t.is(counts(r), counts(default), name .. " load=" .. hint .. ": the model's counts are the default's")
  end
  params.load = nil
end

-- The reference notes' numbers stay with every hint (as in tests/shell/api.lua):
-- offset=1 over 2^18 floats is 8,192 warps with two loads each; a warp's 32
-- floats straddle 5 sectors, except the last warp's, whose 31 working lanes
-- (i+1 < n) fit in 4: 2 * (8191*5 + 4) = 81,918 sectors.
for _, hint in ipairs({"ca", "cg"}) do
  local r = launch("offset", {offset = 1, n = 262144, load = hint})
  t.ok(r.load.requests == 16384 and r.load.sectors == 81918 and r.store.sectors == 32768,
       "offset=1 load=" .. hint .. ": 16,384 requests, 81,918 load sectors, 32,768 store sectors")
end
t.is(launch("strided", {stride = 8, n = 4096, load = "ldg"}).load.sectors_per_request, 32.0,
     "strided 8 load=ldg: still 32 sectors per request (no hint makes them fewer)")

local offset_info = info("offset")
t.is(offset_info.params[4].name, "load", "offset: load is the 4th parameter, after offset")
t.is(offset_info.params[4].allowed, '"default", "ca", "cg", "ldg" or "cs"', "info lists the five hints")
for _, intrinsic in ipairs({"__ldca", "__ldcg", "__ldg", "__ldcs", "-dlcm=cg"}) do
  t.ok(offset_info.params[4].doc:find(intrinsic, 1, true) and offset_info.params[4].doc_zh:find(intrinsic, 1, true),
       "the load doc explains " .. intrinsic .. " (English and Chinese)")
end
t.ok(offset_info.source:find("__ldcg(p)", 1, true) and info("strided").source:find("__ldcs(p)", 1, true),
     "info shows the intrinsics in the compiled source")
t.raises(function() launch("offset", {load = "nc"}) end,
  {"bad argument #2 to 'launch'", "'load' must be \"default\", \"ca\", \"cg\", \"ldg\" or \"cs\", got \"nc\""},
  "an unknown load hint names the five")
t.raises(function() launch("strided", {load = 2}) end, {"'load' must be", "got number"}, "a hint is a string")

---------------------------------------------------------------- stencil1d
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

---------------------------------------------------------------- store_policy
-- n=100 float4 stores, block=64: 128 threads, 4 warps; warp 3 has lanes
-- 96..99. Full: warps 0-2 write 512 contiguous bytes = 16 whole sectors
-- each, warp 3 writes 64 bytes = 2: 50 sectors, all whole, so no DRAM read,
-- 1600 bytes written. Partial: each lane fills half of its own sector: 32
-- sectors a full warp, 4 for warp 3, 100 in all; every one is read from
-- DRAM first (write-allocate, 3200 bytes) and written back whole (3200).
local full = launch("store_policy", {n = 100, block = 64})
local partial = launch("store_policy", {n = 100, block = 64, fill = "partial"})
t.is(counts(full), "load 0/0 store 4/50 dram 0/1600/0", "store_policy full n=100: worked by hand")
t.is(counts(partial), "load 0/0 store 4/100 dram 3200/3200/3200", "store_policy partial n=100: worked by hand")
t.ok(full.useful_bytes == 1600 and partial.useful_bytes == 1600 and full.footprint_bytes == 1600 and
     partial.footprint_bytes == 3200, "store_policy: 16 useful bytes a thread; partial spans twice the bytes")
-- n=99: warp 3 writes bytes 1536..1583, sector 48 whole and sector 49 half:
-- that one half-written sector costs a 32-byte write-allocate read.
t.is(counts(launch("store_policy", {n = 99, block = 64})), "load 0/0 store 4/50 dram 32/1600/32",
     "store_policy full n=99: the half-written last sector is read first")

-- Every store hint with both fills: the hint changes neither sectors nor
-- the model's DRAM estimate (what .cs changes, L2 keeping the lines, the GPU's
-- counters show).
for _, fill in ipairs({"full", "partial"}) do
  local base = counts(launch("store_policy", {n = 4096, fill = fill}))
  for _, store in ipairs({"default", "cs", "cg"}) do
    local r = launch("store_policy", {n = 4096, fill = fill, store = store})
    t.is(counts(r), base, "store_policy fill=" .. fill .. " store=" .. store .. ": the same model counts")
  end
end

-- The claim at the default size: full sectors read nothing from DRAM;
-- half sectors read as many bytes as are written back, twice the useful bytes.
local big_full = launch("store_policy", {})
local big_partial = launch("store_policy", {fill = "partial"})
t.ok(big_full.model.dram.read_bytes == 0 and big_full.model.dram.write_bytes == big_full.useful_bytes,
     "store_policy full: no DRAM read, the useful bytes written")
t.ok(big_partial.model.dram.write_allocate_bytes == 2 * big_partial.useful_bytes and
     big_partial.model.dram.read_bytes == big_partial.model.dram.write_bytes,
     "store_policy partial: write-allocate reads twice the useful bytes, as much as is written back")
t.is(big_full.store.sectors_per_request, 16.0, "store_policy full: 16 sectors per request (ideal 16)")
t.is(big_partial.store.sectors_per_request, 32.0, "store_policy partial: 32 sectors per request (ideal 16)")
t.ok(big_full.footprint_bytes > 2 * 60 * 2^20, "store_policy defaults: footprint over twice a 60 MB L2")
t.ok(info("store_policy").source:find("__stcs(p, v)", 1, true), "store_policy: info shows the streaming store")
t.raises(function() launch("store_policy", {store = "wt"}) end,
  {"bad argument #2 to 'launch'", "'store' must be \"default\", \"cs\" or \"cg\", got \"wt\""}, "an unknown store hint")
t.raises(function() launch("store_policy", {fill = "half"}) end,
  {"'fill' must be \"full\" or \"partial\", got \"half\""}, "an unknown fill")

t.done()
