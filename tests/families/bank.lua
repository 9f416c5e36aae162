-- bank.lua: the bank family, one warp reading a shared tile at a stride,
-- with 4-, 8- or 16-byte elements and some of its lanes. On the GPU, strides
-- from broadcast to 32-way conflicts at every element size: output equal to
-- the CPU reference, the model's requests, sectors and shared wavefronts
-- equal to the hardware counters (SKIP without a GPU). On the access model:
-- every value launches, the tile's fill counted by hand, gcd(stride, 32)
-- wavefronts for every stride, every degree of conflict, the phases of wide
-- elements, and bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {}
  for _, case in ipairs({{0, 4, 32}, {1, 4, 32}, {2, 4, 32}, {3, 4, 32}, {8, 4, 32}, {32, 4, 32}, {33, 4, 32},
                         {32, 4, 4}, {1, 8, 32}, {2, 8, 32}, {1, 16, 32}, {2, 16, 32}, {0, 16, 32}}) do
    cases[#cases + 1] = {"bank", {stride = case[1], bytes = case[2], lanes = case[3], n = 1 << 18}}
  end
  family.gpu_grid(cases)
end)

local function gcd(a, b) while b ~= 0 do a, b = b, a % b end return a end

local list = {}
for stride = 0, 64 do
  for _, bytes in ipairs({4, 8, 16}) do list[#list + 1] = {n = 64, stride = stride, bytes = bytes} end
end
for lanes = 1, 32 do
  for _, block in ipairs({256, 288, 1024}) do list[#list + 1] = {n = 100, lanes = lanes, block = block, bytes = 16} end
end
family.all_launch("bank", list, "stride 0..64, bytes and lanes")

-- One warp reads (n=32); a block of 256 threads fills the 2048-element tile,
-- 8 KB of 4-byte elements: 512 16-byte stores, 2 per thread, 4 wavefronts
-- each (quarter-warp phases, no conflicts): 8 warps x 2 = 16 requests, 64 wavefronts.
local r = launch("bank", {n = 32, block = 256, stride = 1})
t.is(r.shared_store.requests, 16, "bank fill: 2 stores per warp of the block")
t.is(r.shared_store.wavefronts, 64, "bank fill: 4 wavefronts per 16-byte store")
t.is(r.shared_store.bank_conflicts, 0, "bank fill: no conflicts")
t.is(r.shared_load.requests, 7, "bank: 7 reads by the one reading warp")
t.is(r.shared_load.wavefronts, 7, "bank stride 1: one wavefront per read")
t.is(r.store.requests, 1, "bank: one store of the sums")
t.is(r.store.sectors, 4, "bank: 32 sums of 4 bytes, 4 sectors")
t.is(r.load.requests, 0, "bank: nothing read from global memory")

-- 4-byte elements, stride s: lane l is in bank (l*s) % 32, and each bank
-- holds gcd(s, 32) of the 32 distinct words: that many wavefronts.
local wrong = {}
for stride = 1, 64 do
  local got = launch("bank", {n = 32, stride = stride}).shared_load.wavefronts / 7
  if got ~= gcd(stride, 32) then wrong[#wrong + 1] = stride .. " gave " .. got end
end
t.is(table.concat(wrong, ", "), "", "bank: stride s costs gcd(s, 32) wavefronts, for s = 1..64")
t.is(launch("bank", {n = 32, stride = 33}).shared_load.bank_conflicts, 0, "bank: stride 33 (a padded column) is conflict-free")
t.is(launch("bank", {n = 32, stride = 32}).shared_load.bank_conflicts, 7 * 31, "bank: stride 32 is a 32-way conflict")
t.is(launch("bank", {n = 32, stride = 0}).shared_load.wavefronts, 7, "bank: stride 0, every lane on one word: a broadcast")

-- Every degree: stride 32 puts lane l at word 32*l (+r), all in one bank;
-- with `lanes` lanes reading, that bank holds `lanes` distinct words.
wrong = {}
for lanes = 1, 32 do
  local s = launch("bank", {n = 32, stride = 32, lanes = lanes}).shared_load
  if s.wavefronts ~= 7 * lanes or s.bank_conflicts ~= 7 * (lanes - 1) then
    wrong[#wrong + 1] = lanes .. " lanes gave " .. s.wavefronts / 7
  end
end
t.is(table.concat(wrong, ", "), "", "bank: stride 32 with lanes=d is a d-way conflict, every d from 1 to 32")

-- 8-byte elements go in half-warps, 16-byte in quarter-warps (docs/model.md).
-- bytes=8, stride 1: 2 conflict-free phases. Stride 2: a half-warp's words
-- 4k, 4k+1 (k = 0..15) put 2 words in each bank used: 2 + 2 = 4 wavefronts.
t.is(launch("bank", {n = 32, bytes = 8}).shared_load.wavefronts, 14, "bank 8 bytes, stride 1: 2 wavefronts (ideal)")
t.is(launch("bank", {n = 32, bytes = 8, stride = 2}).shared_load.wavefronts, 28, "bank 8 bytes, stride 2: 4 wavefronts")
t.is(launch("bank", {n = 32, bytes = 8, stride = 16}).shared_load.wavefronts, 7 * 32, "bank 8 bytes, stride 16: 16-way in each half")
-- bytes=16, stride 1: 4 phases, 1 each. Stride 2: a quarter-warp's words
-- 8k..8k+3 (k = 0..7) put 2 in each bank used: 4 x 2 = 8.
t.is(launch("bank", {n = 32, bytes = 16}).shared_load.wavefronts, 28, "bank 16 bytes, stride 1: 4 wavefronts (ideal)")
t.is(launch("bank", {n = 32, bytes = 16, stride = 2}).shared_load.wavefronts, 56, "bank 16 bytes, stride 2: 8 wavefronts")
t.is(launch("bank", {n = 32, bytes = 16, stride = 8}).shared_load.wavefronts, 7 * 32, "bank 16 bytes, stride 8: 8-way in each quarter")
-- Idle lanes: n=100 with lanes=3 has 4 warps reading 3, 3, 3 and 3 lanes
-- (thread 96..99: lanes 0-3, of which 0-2 read).
r = launch("bank", {n = 100, lanes = 3})
t.is(r.store.requests, 4, "bank lanes=3: every warp stores")
t.is(r.useful_bytes, 4 * 3 * 4, "bank lanes=3: useful bytes are the 12 sums")


-- Bad values.
t.raises(function() launch("bank", {bytes = 2}) end, {"'bytes' must be 4, 8 or 16, got 2"}, "bank: element size")
t.raises(function() launch("bank", {stride = 65}) end, {"'stride' must be an integer from 0 to 64, got 65"}, "bank: stride past the tile")
t.raises(function() launch("bank", {lanes = 33}) end, {"'lanes' must be an integer from 1 to 32, got 33"}, "bank: more lanes than a warp")
t.raises(function() launch("bank", {block = 128}) end, {"'block' must be a multiple of 32 from 256 to 1024, got 128"}, "bank: block too small to fill the tile")

-- The family describes itself in both languages.
family.described("bank")

family.done()
