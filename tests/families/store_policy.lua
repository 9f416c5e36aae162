-- store_policy.lua: the store_policy family, float4 stores that fill whole
-- sectors or half of each, with a store hint. On the GPU, every hint and
-- fill: output equal to the CPU reference and the model's requests and
-- sectors equal to the hardware counters; at the default size full sectors
-- read nothing from DRAM and half sectors do (write-allocate); DRAM writes
-- during the kernel and time printed for the docs. SKIP without a GPU. On
-- the access model: write-allocate worked by hand, the hint changing no
-- count, the claim at the default size, and bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {
    {"store_policy", {n = 99, block = 64}, {shared = false}},
    {"store_policy", {n = 99, block = 64, fill = "partial"}, {shared = false}},
  }
  for _, store in ipairs({"default", "cs", "cg"}) do
    for _, fill in ipairs({"full", "partial"}) do
      cases[#cases + 1] = {"store_policy", {store = store, fill = fill, n = 1 << 20}, {shared = false}}
    end
  end
  family.gpu_grid(cases)

  -- At its default size (footprint over twice the L2).
  for _, fill in ipairs({"full", "partial"}) do
    for _, store in ipairs({"default", "cs", "cg"}) do
      local r = launch("store_policy", {store = store, fill = fill, min_samples = 3})
      local c = t.counters_of("store_policy fill=" .. fill .. " store=" .. store, r)
      if c then
        family.note("store_policy fill=%-7s store=%-7s %.4f ms · DRAM read %d (model %d) · written %d during the kernel (model at most %d)",
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
end)

local counts = family.model_counts

local listed = {}
for _, k in ipairs(kernels()) do listed[k.name] = k.summary end
t.ok(listed.store_policy, "kernels() lists store_policy with its summary")

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

family.done()
