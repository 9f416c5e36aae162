-- working_set.lua: the working_set family, every warp reading a buffer of
-- `bytes` again and again. On the GPU, a buffer that fits L1 and one that
-- does not: output equal to the CPU reference, the model's requests and
-- sectors equal to the hardware counters (SKIP without a GPU). On the access
-- model: every size launches, small launches counted by hand, the same loads
-- whatever the size (only where they hit changes), and bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {}
  for _, bytes in ipairs({32768, 16 << 20}) do cases[#cases + 1] = {"working_set", {bytes = bytes, n = 1 << 20}} end
  family.gpu_grid(cases)
end)

local list = {}
for _, bytes in ipairs({512, 1024, 4096, 65536, 3 * 512, 1 << 20}) do
  for _, n in ipairs({1, 48, 1000, 4096}) do list[#list + 1] = {n = n, bytes = bytes, block = 96} end
end
family.all_launch("working_set", list, "buffer size")
-- n=64, bytes=1024: 64 elements of 16 bytes. Warp w loads elements
-- 32w..32w+31 eight times (64 % 64 = 0: every pass starts where the last
-- did): 16 requests of 16 sectors; lane 0 of each warp stores one sum.
local r = launch("working_set", {n = 64, bytes = 1024})
t.is(r.load.requests, 16, "working_set: 8 loads per warp")
t.is(r.load.sectors, 256, "working_set: 16 sectors per 512-byte warp load")
t.is(r.store.requests, 2, "working_set: one store per warp")
t.is(r.store.sectors, 2, "working_set: from lane 0 only")
-- n=48, bytes=512: 32 elements. Warp 0's passes start at 0 or 16 (48 % 32):
-- 16..31 then 0..15 wraps, still the whole 512 bytes, 16 sectors. Warp 1
-- has 16 threads: 256 bytes, 8 sectors. 8 x 16 + 8 x 8 = 192.
r = launch("working_set", {n = 48, bytes = 512})
t.is(r.load.sectors, 192, "working_set: a wrapped pass and a half warp (hand count)")
-- The lesson: the loads are the same whatever the size; only where they hit changes.
local small, large = launch("working_set", {n = 1 << 16, bytes = 1 << 16}), launch("working_set", {n = 1 << 16, bytes = 1 << 23})
t.is(small.load.sectors, large.load.sectors, "working_set: same loads for a 64 kB and an 8 MB working set")
t.is(small.useful_bytes, 128 * (1 << 16) + 4 * 2048, "working_set: useful bytes count every pass")
-- (The sums' sectors are written 4 bytes at a time by 8 warps, which fill
-- them whole in L2 between them: no write-allocate read.)
local function buffer_reads(r) return r.model.dram.read_bytes - r.model.dram.write_allocate_bytes end
t.is(buffer_reads(small), 1 << 16, "working_set: the model reads a 64 kB buffer from DRAM once (cold L2)")
t.is(buffer_reads(large), 1 << 23, "working_set: and an 8 MB one once too: 8 MB")
t.is(small.model.dram.write_allocate_bytes, 0, "working_set: the sums' sectors are completed by the launch, nothing write-allocated")
t.ok(info("working_set").teaches:find('cache="warm"', 1, true) ~= nil, "working_set: teaches says to run it warm")


-- Bad values.
t.raises(function() launch("working_set", {bytes = 1000}) end, {"'bytes' must be a multiple of 512 from 512 to 1073741824, got 1000"}, "working_set: size not whole warps")
t.raises(function() launch("working_set", {bytes = 1 << 31}) end, {"'bytes' must be a multiple of 512"}, "working_set: over 1 GiB")

-- The family describes itself in both languages.
family.described("working_set")

family.done()
