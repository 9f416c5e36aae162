-- families_shared.lua: the reuse, bank, working_set and prefetch families on
-- the access model: every parameter value launches, small launches give the
-- counts worked out by hand below, each family's lesson shows in the numbers,
-- and bad values are refused.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

-- Runs every launch of a list and reports the first one that fails, as one test.
local function all_launch(name, list, what)
  for _, params in ipairs(list) do
    local ok, message = pcall(launch, name, params)
    if not ok then
      t.ok(false, name .. ": every " .. what .. " launches")
      print("#   " .. tostring(message))
      return
    end
  end
  t.ok(true, string.format("%s: every %s launches (%d launches)", name, what, #list))
end

local function gcd(a, b) while b ~= 0 do a, b = b, a % b end return a end

---------------------------------------------------------------------------
-- reuse
---------------------------------------------------------------------------
local list = {}
for reuse = 1, 13 do
  for _, variant in ipairs({"shared", "global"}) do
    for _, block in ipairs({32, 96, 1024}) do
      list[#list + 1] = {n = 1000, block = block, reuse = reuse, variant = variant}
    end
  end
end
all_launch("reuse", list, "reuse 1..13 with both variants")

-- One block of 256 (8 warps), reuse=3. shared: each warp loads its 32 floats
-- (4 sectors), stores them to the tile (1 wavefront), reads the tile 3 times
-- (consecutive words, 1 wavefront each, also in warp 7 whose lanes wrap to
-- words 0..k-1 of other banks) and stores 32 floats (4 sectors).
local r = launch("reuse", {n = 256, reuse = 3, variant = "shared"})
t.is(r.load.requests, 8, "reuse shared: one load request per warp")
t.is(r.load.sectors, 32, "reuse shared: 4 sectors each")
t.is(r.shared_store.requests, 8, "reuse shared: one tile store per warp")
t.is(r.shared_store.wavefronts, 8, "reuse shared: conflict-free tile store")
t.is(r.shared_load.requests, 24, "reuse shared: 3 tile reads per warp")
t.is(r.shared_load.wavefronts, 24, "reuse shared: each one wavefront, also where warp 7 wraps")
t.is(r.store.sectors, 32, "reuse shared: 4 store sectors per warp")
-- global: 3 loads per warp. k=0 is aligned: 8 x 4 sectors. For k=1 and 2 a
-- warp's 32 floats start 4 or 8 bytes into a sector: 5 sectors for warps 0-6;
-- warp 7 reads elements 225..255 or 226..255 (sectors 28-31) and wraps to
-- 0 or 0..1 (sector 0): 5 too. 32 + 2 * 40 = 112.
local g = launch("reuse", {n = 256, reuse = 3, variant = "global"})
t.is(g.load.requests, 24, "reuse global: a load request for every use")
t.is(g.load.sectors, 112, "reuse global: 112 sectors (hand count)")
t.is(g.shared_load, nil, "reuse global: no shared memory")
-- The lesson: global memory is asked reuse times as often; DRAM still sees each block once.
local s10, g10 = launch("reuse", {n = 1 << 16}), launch("reuse", {n = 1 << 16, variant = "global"})
t.is(g10.load.requests, 10 * s10.load.requests, "reuse=10: global makes 10x the load requests of shared")
t.ok(g10.load.sectors > 10 * s10.load.sectors, "... and over 10x the sectors (the shifted reads straddle sectors)")
t.is(s10.shared_load.requests, 10 * s10.load.requests, "... which shared serves from the tile instead")
t.is(g10.model.dram.read_bytes, s10.model.dram.read_bytes, "... while DRAM reads each block once either way")
-- A partial last block: n=40, block=32. Warp 0 is a whole block: its lanes
-- wrap within their own 128 bytes, 4 sectors for every use. Block 1 holds 8
-- elements, so its lanes read elements 32 + (t+k) % 8: one sector.
local p = launch("reuse", {n = 40, block = 32, reuse = 13, variant = "global"})
t.is(p.load.requests, 26, "reuse n=40: 13 uses in each of 2 warps")
t.is(p.load.sectors, 13 * 4 + 13 * 1, "reuse n=40: 4 sectors a use in warp 0, 1 in warp 1 (hand count)")

---------------------------------------------------------------------------
-- bank
---------------------------------------------------------------------------
list = {}
for stride = 0, 64 do
  for _, bytes in ipairs({4, 8, 16}) do list[#list + 1] = {n = 64, stride = stride, bytes = bytes} end
end
for lanes = 1, 32 do
  for _, block in ipairs({256, 288, 1024}) do list[#list + 1] = {n = 100, lanes = lanes, block = block, bytes = 16} end
end
all_launch("bank", list, "stride 0..64, bytes and lanes")

-- One warp reads (n=32); a block of 256 threads fills the 2048-element tile,
-- 8 KB of 4-byte elements: 512 16-byte stores, 2 per thread, 4 wavefronts
-- each (quarter-warp phases, no conflicts): 8 warps x 2 = 16 requests, 64 wavefronts.
r = launch("bank", {n = 32, block = 256, stride = 1})
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

---------------------------------------------------------------------------
-- working_set
---------------------------------------------------------------------------
list = {}
for _, bytes in ipairs({512, 1024, 4096, 65536, 3 * 512, 1 << 20}) do
  for _, n in ipairs({1, 48, 1000, 4096}) do list[#list + 1] = {n = n, bytes = bytes, block = 96} end
end
all_launch("working_set", list, "buffer size")
-- n=64, bytes=1024: 64 elements of 16 bytes. Warp w loads elements
-- 32w..32w+31 eight times (64 % 64 = 0: every pass starts where the last
-- did): 16 requests of 16 sectors; lane 0 of each warp stores one sum.
r = launch("working_set", {n = 64, bytes = 1024})
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

---------------------------------------------------------------------------
-- prefetch
---------------------------------------------------------------------------
list = {}
for _, variant in ipairs({"none", "register", "cp_async"}) do
  for _, n in ipairs({1, 1000, 1024, 5000}) do
    for _, block in ipairs({32, 256, 1024}) do list[#list + 1] = {n = n, block = block, variant = variant} end
  end
end
all_launch("prefetch", list, "variant")
-- n=1000, block=256: one block takes 4 chunks of 256. Chunks 0-2 are full:
-- 8 warps x 4 sectors. Chunk 3 holds elements 768..999: warps 0-6 full,
-- warp 7 has 992..999, 8 floats in 1 sector. 32 requests, 3*32 + 28 + 1 sectors.
-- cp_async's copies are LDGSTS: the same requests and sectors, counted as
-- ldgsts, neither as loads nor as shared stores (as the H200 counts them).
local counts = {}
for _, variant in ipairs({"none", "register", "cp_async"}) do
  r = launch("prefetch", {n = 1000, variant = variant})
  counts[variant] = r
  local read = variant == "cp_async" and r.ldgsts or r.load
  t.is(read.requests, 32, "prefetch " .. variant .. ": 4 " .. (variant == "cp_async" and "copies" or "loads") .. " per warp")
  t.is(read.sectors, 125, "prefetch " .. variant .. ": 125 sectors read (hand count)")
  t.is(r.store.sectors, 125, "prefetch " .. variant .. ": 125 store sectors")
end
t.is(counts.none.shared_load, nil, "prefetch none: no shared memory")
t.ok(counts.cp_async.load.requests == 32 and counts.cp_async.shared_store == nil,
     "prefetch cp_async: a copy counts as a load (the H200 counts LDGSTS under op_ld), not as a shared store ...")
t.is(counts.cp_async.shared_load.requests, 32, "... and each chunk is read back from the stage")
t.is(counts.cp_async.shared_load.wavefronts, 32, "... one wavefront each (consecutive words)")
t.is(info("prefetch").params[3].name, "variant", "prefetch: variant is its parameter")

---------------------------------------------------------------------------
-- bad values
---------------------------------------------------------------------------
t.raises(function() launch("reuse", {reuse = 14}) end, {"'reuse' must be an integer from 1 to 13, got 14"}, "reuse: too many uses")
t.raises(function() launch("reuse", {reuse = 0}) end, {"'reuse' must be an integer from 1 to 13, got 0"}, "reuse: no use")
t.raises(function() launch("reuse", {variant = "texture"}) end, {"'variant' must be \"shared\" or \"global\""}, "reuse: unknown variant")
t.raises(function() launch("bank", {bytes = 2}) end, {"'bytes' must be 4, 8 or 16, got 2"}, "bank: element size")
t.raises(function() launch("bank", {stride = 65}) end, {"'stride' must be an integer from 0 to 64, got 65"}, "bank: stride past the tile")
t.raises(function() launch("bank", {lanes = 33}) end, {"'lanes' must be an integer from 1 to 32, got 33"}, "bank: more lanes than a warp")
t.raises(function() launch("bank", {block = 128}) end, {"'block' must be a multiple of 32 from 256 to 1024, got 128"}, "bank: block too small to fill the tile")
t.raises(function() launch("working_set", {bytes = 1000}) end, {"'bytes' must be a multiple of 512 from 512 to 1073741824, got 1000"}, "working_set: size not whole warps")
t.raises(function() launch("working_set", {bytes = 1 << 31}) end, {"'bytes' must be a multiple of 512"}, "working_set: over 1 GiB")
t.raises(function() launch("prefetch", {variant = "async"}) end, {"'variant' must be \"none\", \"register\" or \"cp_async\", got \"async\""}, "prefetch: unknown variant")

-- Every family describes itself in both languages.
for _, name in ipairs({"reuse", "bank", "working_set", "prefetch"}) do
  local i = info(name)
  local complete = i.summary and i.teaches and i.summary_zh ~= i.summary and i.teaches_zh ~= i.teaches and
                   i.source:find("__global__", 1, true)
  for _, param in ipairs(i.params) do complete = complete and param.doc and param.doc_zh ~= param.doc end
  t.ok(complete, name .. ": summary, teaches, params and source in English and Chinese")
end
t.done()
