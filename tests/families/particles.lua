-- particles.lua: the particles family, each particle's velocity updated,
-- the particles an array of 32-byte structs (AoS) or seven arrays (SoA). On
-- the GPU: output equal to the CPU reference, the model's requests and
-- sectors equal to the hardware counters, the model's DRAM reads within 5%
-- of the hardware's where the footprint is over twice the L2, and AoS slower
-- than SoA (SKIP without a GPU). On the access model: small launches counted
-- by hand, AoS moving 8/3 the DRAM bytes of SoA at the chapter's N, and bad
-- values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local measured = {shared = false, dram = "large", show = true}
  family.gpu_grid({
    {"particles", {}, measured}, {"particles", {layout = "soa"}, measured},
    {"particles", {n = 1000, block = 96}, measured}, {"particles", {n = 1000, layout = "soa"}, measured},
  })

  -- The teaching claim, measured: AoS slower than SoA where it moves more bytes.
  local aos, soa = launch("particles", {}), launch("particles", {layout = "soa"})
  t.ok(aos.time_ms > 1.5 * soa.time_ms, string.format("particles: AoS %.4f ms, SoA %.4f ms (AoS moves 8/3 the bytes)",
                                                       aos.time_ms, soa.time_ms))
end)

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

family.done()
