-- aos_soa.lua: the aos_soa family, one field of a struct read, written or
-- updated, the structs in an array (AoS) or a struct of arrays (SoA). On the
-- GPU: output equal to the CPU reference, the model's requests and sectors
-- equal to the hardware counters, and the model's DRAM reads within 5% of
-- the hardware's where the footprint is over twice the L2 (this is where
-- write-allocate shows: the AoS write stores part of every sector, the
-- update stores after its load); the reference notes' experiment slower as
-- AoS (SKIP without a GPU). On the access model: every layout, struct size
-- and access launches, hand-worked counts of small launches, the notes'
-- experiment in the numbers, and bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local measured = {shared = false, dram = "large", show = true}
  local cases = {
    {"aos_soa", {n = 1000, block = 96, fields = 3, access = "read"}, measured},
    {"aos_soa", {n = 1001, fields = 5, access = "update", layout = "soa"}, measured},
  }
  for _, layout in ipairs({"aos", "soa"}) do
    for _, access in ipairs({"read", "write", "update"}) do
      for _, fields in ipairs({2, 3, 8}) do
        cases[#cases + 1] = {"aos_soa", {layout = layout, access = access, fields = fields}, measured}
      end
    end
  end
  family.gpu_grid(cases)

  -- The teaching claim, measured: AoS slower than SoA where it moves more bytes.
  local write_aos, write_soa = launch("aos_soa", {}), launch("aos_soa", {layout = "soa"})
  t.ok(write_aos.time_ms > write_soa.time_ms, string.format("notes' experiment: AoS %.4f ms, SoA %.4f ms (the notes: 1.5-1.8x)",
                                                            write_aos.time_ms, write_soa.time_ms))
end)

local MB = 1e6

-- aos_soa: every layout, struct size and access launches, and the struct
-- side costs 4 * fields sectors per request in an array of structs, 4 in a
-- struct of arrays (a full warp's field 0 spans 32 * fields * 4 bytes).
for _, layout in ipairs({"aos", "soa"}) do
  for fields = 2, 8 do
    for _, access in ipairs({"read", "write", "update"}) do
      local r = launch("aos_soa", {layout = layout, fields = fields, access = access, n = 4096})
      local struct_side = access == "read" and r.load or r.store   -- update also loads a[i]: its stores are pure
      local want = layout == "aos" and 4 * fields or 4
      t.is(struct_side.sectors_per_request, want,
           string.format("aos_soa %s fields=%d %s: %d sectors per request on the records", layout, fields, access, want))
    end
  end
end
t.is(launch("aos_soa", {n = 1000, block = 96}).store.requests, 32, "aos_soa: an odd n and block launch")

-- The reference notes' experiment, at their N = 2^24: one field of an 8-byte
-- struct written per thread. 2^19 warps; each loads b[i] and a[i] (4 sectors
-- each) and stores x: 32 lanes 8 bytes apart span 256 bytes, 8 sectors. The
-- SoA store is contiguous, 4 sectors: AoS costs twice the sectors, as the notes found.
local aos = launch("aos_soa", {layout = "aos", fields = 2, access = "write", n = 1 << 24})
local soa = launch("aos_soa", {layout = "soa", fields = 2, access = "write", n = 1 << 24})
t.is(aos.load.requests, 2 * (1 << 19), "notes' experiment: two load requests per warp")
t.is(aos.load.sectors, 8 * (1 << 19), "... 4 sectors each")
t.is(aos.store.requests, 1 << 19, "... one store request per warp")
t.is(aos.store.sectors, 8 * (1 << 19), "... AoS: 8 sectors each")
t.is(aos.store.sectors_per_request, 8.0, "... 8.00 sectors per request")
t.is(soa.store.sectors, 4 * (1 << 19), "... SoA: 4 sectors each")
t.is(aos.store.sectors_per_request / soa.store.sectors_per_request, 2.0, "... AoS stores twice the sectors per request of SoA")
-- DRAM: a and b are read whole (2 * 64 MiB); every sector of the AoS records
-- is written in part (x but not y), so L2 reads each first: 128 MiB more, and
-- writes back all 128 MiB. SoA writes whole sectors of x only: no reads, 64 MiB written.
local n = 1 << 24
t.is(aos.model.dram.read_bytes, 8 * n + 8 * n, "notes' experiment AoS: DRAM reads a, b and every record sector")
t.is(aos.model.dram.write_allocate_bytes, 8 * n, "... the record sectors are write-allocate reads (partial stores)")
t.is(aos.model.dram.write_bytes, 8 * n, "... all of the records written back")
t.is(soa.model.dram.read_bytes, 8 * n, "notes' experiment SoA: DRAM reads only a and b")
t.is(soa.model.dram.write_allocate_bytes, 0, "... whole-sector stores: no write-allocate")
t.is(soa.model.dram.write_bytes, 4 * n, "... the x array written back")
t.ok(aos.footprint_bytes > 120 * MB and soa.footprint_bytes > 120 * MB, "notes' experiment: footprint over twice a 60 MB L2")
t.is(aos.useful_bytes, 12 * n, "write: useful bytes are a, b and the field")

-- A struct of 8 floats (32 bytes): each lane's x has a sector to itself.
local wide = launch("aos_soa", {fields = 8, access = "write", n = 1 << 20})
t.is(wide.store.sectors_per_request, 32.0, "fields=8 write: 32 sectors per request")
t.is(wide.model.dram.write_allocate_bytes, 32 * (1 << 20), "fields=8 write: a 32-byte sector read per 4-byte store")

-- Update reads x before it writes it: the partial store finds the sector in L2.
-- n = 2^20, fields = 2: x's sectors (8 MiB) and a (4 MiB) read, no write-allocate.
local update = launch("aos_soa", {fields = 2, access = "update", n = 1 << 20})
t.is(update.load.requests, 2 * (1 << 15), "update: two loads per warp (x, a)")
t.is(update.load.sectors, (8 + 4) * (1 << 15), "... 8 + 4 sectors")
t.is(update.store.sectors, 8 * (1 << 15), "... the store: 8 sectors")
t.is(update.model.dram.read_bytes, 12 * (1 << 20), "update: DRAM reads the records' sectors and a, once")
t.is(update.model.dram.write_allocate_bytes, 0, "update: no write-allocate read after the load")
t.is(update.useful_bytes, 12 * (1 << 20), "update: useful bytes are a, x read and x written")

-- n = 1000, block 256, fields = 3, read: 32 warps, the last with 8 lanes.
-- Full warps: 32 lanes * 12 bytes = 384 bytes from a multiple of 384, 12
-- sectors; the last: 8 lanes span 96 bytes from 992 * 12 = 93 * 128: 3 sectors.
-- out[i]: 4 sectors per full warp, and 8 floats at 992 * 4 = 124 * 32: 1.
local odd = launch("aos_soa", {n = 1000, fields = 3, access = "read"})
t.is(odd.load.requests, 32, "n=1000 fields=3 read: 32 load requests")
t.is(odd.load.sectors, 31 * 12 + 3, "... 375 load sectors")
t.is(odd.store.requests, 32, "... 32 store requests")
t.is(odd.store.sectors, 31 * 4 + 1, "... 125 store sectors")
t.is(odd.useful_bytes, 8 * 1000, "read: useful bytes are the field and out[i]")
t.is(odd.footprint_bytes, 1000 * 12 + 1000 * 4, "read AoS: the records and out")
t.is(launch("aos_soa", {n = 1000, fields = 3, access = "read", layout = "soa"}).footprint_bytes, 3 * 1024 * 4 + 1000 * 4,
     "read SoA: three arrays of 1024 floats (256-byte aligned) and out")

-- Defaults: every access keeps its footprint over 120 MB even at 2 fields.
for _, layout in ipairs({"aos", "soa"}) do
  for _, access in ipairs({"read", "write", "update"}) do
    local r = launch("aos_soa", {layout = layout, access = access})
    t.ok(r.footprint_bytes > 120 * MB, string.format("aos_soa %s %s default: %.0f MB of buffers", layout, access,
                                                      r.footprint_bytes / MB))
  end
end
local defaults = launch("aos_soa", {})
t.ok(defaults.params.layout == "aos" and defaults.params.fields == 2 and defaults.params.access == "write",
     "aos_soa defaults to the reference notes' experiment")

t.raises(function() launch("aos_soa", {fields = 9}) end, {"'fields' must be an integer from 2 to 8, got 9"}, "fields 9 refused")
t.raises(function() launch("aos_soa", {fields = 1}) end, {"'fields' must be an integer from 2 to 8, got 1"}, "fields 1 refused")
t.raises(function() launch("aos_soa", {layout = "row"}) end, {"'layout' must be \"aos\" or \"soa\", got \"row\""},
         "an unknown layout refused")
t.raises(function() launch("aos_soa", {access = "rw"}) end,
         {"'access' must be \"read\", \"write\" or \"update\", got \"rw\""}, "an unknown access refused")

family.done()
