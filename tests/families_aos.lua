-- families_aos.lua: the aos_soa and particles families on the sim backend:
-- every parameter value launches, hand-worked counts of small launches, the
-- teaching claims in the numbers, and bad values refused.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

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

-- particles: n = 64, two full warps. Each loads and stores vx, vy, vz in
-- turn (6 instructions). AoS: lanes 32 bytes apart, a sector each; SoA: 4.
local small = {aos = launch("particles", {n = 64}), soa = launch("particles", {n = 64, layout = "soa"})}
t.is(small.aos.load.requests, 6, "particles n=64 AoS: 3 loads per warp")
t.is(small.aos.load.sectors, 6 * 32, "... 32 sectors each")
t.is(small.aos.store.requests, 6, "... 3 stores per warp")
t.is(small.aos.store.sectors, 6 * 32, "... 32 sectors each")
t.is(small.soa.load.sectors, 6 * 4, "particles n=64 SoA: 4 sectors per load")
t.is(small.soa.store.sectors, 6 * 4, "... and per store")
-- DRAM: AoS reads every 64-byte block of the particles (vx..vz of both
-- particles in each) and writes every sector back; the stores follow their
-- loads, so no write-allocate. SoA: the three 256-byte velocity arrays.
t.is(small.aos.model.dram.read_bytes, 64 * 32, "particles n=64 AoS: DRAM reads all 2,048 bytes")
t.is(small.aos.model.dram.write_allocate_bytes, 0, "... no write-allocate: the loads brought the sectors")
t.is(small.aos.model.dram.write_bytes, 64 * 32, "... and writes all 2,048 back")
t.is(small.soa.model.dram.read_bytes, 3 * 256, "particles n=64 SoA: DRAM reads 768 bytes")
t.is(small.soa.model.dram.write_bytes, 3 * 256, "... and writes 768")

-- n = 1000: 32 warps, the last with 8 lanes. AoS: a sector per particle per
-- field, 3,000 each way. SoA (pitch 1024 floats, each array 256-byte aligned):
-- 31 * 4 + 1 sectors per field. DRAM: AoS the whole 32,000 bytes; SoA three
-- 4,000-byte arrays, 63 64-byte blocks read and 125 sectors written each.
local odd_aos, odd_soa = launch("particles", {n = 1000}), launch("particles", {n = 1000, layout = "soa"})
t.is(odd_aos.load.requests, 96, "particles n=1000: 96 load requests")
t.is(odd_aos.load.sectors, 3000, "... AoS: 3,000 load sectors")
t.is(odd_aos.store.sectors, 3000, "... AoS: 3,000 store sectors")
t.is(odd_soa.load.sectors, 3 * (31 * 4 + 1), "... SoA: 375 load sectors")
t.is(odd_soa.store.sectors, 3 * (31 * 4 + 1), "... SoA: 375 store sectors")
t.is(odd_aos.model.dram.read_bytes, 32000, "... AoS DRAM read: 32,000 bytes")
t.is(odd_soa.model.dram.read_bytes, 3 * 63 * 64, "... SoA DRAM read: 12,096 bytes")
t.is(odd_soa.model.dram.write_bytes, 3 * 125 * 32, "... SoA DRAM written: 12,000 bytes")
t.is(launch("particles", {n = 1000, block = 96, layout = "soa"}).store.requests, 96, "particles: an odd block launches")

-- The chapter's N: AoS moves 8/3 the DRAM bytes of SoA (whole 32-byte
-- particles against three floats of each).
local big = {aos = launch("particles", {}), soa = launch("particles", {layout = "soa"})}
t.is(big.aos.params.n, 10000000, "particles default n is the chapter's 10,000,000")
t.is(big.aos.footprint_bytes, 320000000, "AoS footprint: 320 MB of particles")
t.is(big.soa.footprint_bytes, 280000000, "SoA footprint: seven arrays, 280 MB")
t.is(big.aos.useful_bytes, 24 * 10000000, "useful bytes: vx, vy, vz read and written")
t.is(big.aos.model.dram.read_bytes, 320000000, "AoS DRAM read: every particle, 320 MB")
t.is(big.soa.model.dram.read_bytes, 120000000, "SoA DRAM read: the velocities, 120 MB")
t.is(big.aos.model.dram.read_bytes * 3, big.soa.model.dram.read_bytes * 8, "AoS reads 8/3 the bytes of SoA")
t.is(big.aos.load.sectors_per_request, 32.0, "AoS: 32 sectors per load request")
t.is(big.soa.load.sectors_per_request, 4.0, "SoA: 4")
t.raises(function() launch("particles", {layout = "AoS"}) end, {"'layout' must be \"aos\" or \"soa\", got \"AoS\""},
         "particles: a layout is spelt in lower case")
t.raises(function() launch("particles", {fields = 3}) end, {"unknown parameter 'fields'"}, "particles has no fields")

t.done()
