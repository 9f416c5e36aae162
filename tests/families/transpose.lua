-- transpose.lua: the transpose family, a matrix transposed naively, through
-- a shared tile, or through a padded one. On the GPU, every variant with
-- every tile and a matrix of partial tiles: output equal to the CPU
-- reference, the model's requests, sectors and shared wavefronts equal to the
-- hardware counters (SKIP without a GPU). On the access model: every
-- parameter value launches, hand-counted small cases with their bank
-- conflicts, the teaching claims in numbers, the warp map's conflict count,
-- and refused parameters.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap
local traffic, shared = family.traffic, family.shared

family.gpu(function()
  local cases = {}
  for _, variant in ipairs(family.choices("transpose", "variant")) do
    for _, tile in ipairs(family.choices("transpose", "tile")) do
      cases[#cases + 1] = {"transpose", {variant = variant, tile = tile, rows = 1024, cols = 1024}}
    end
  end
  cases[#cases + 1] = {"transpose", {variant = "padded", tile = 16, rows = 1000, cols = 777}}
  family.gpu_grid(cases)
end)

-- Every parameter value launches, on a matrix that leaves partial tiles.
for _, variant in ipairs({"naive", "shared", "padded"}) do
  for _, tile in ipairs({8, 16, 32}) do
    local r = launch("transpose", {rows = 45, cols = 70, variant = variant, tile = tile})
    t.is(r.load.bytes .. " " .. r.store.bytes, (45 * 70 * 4) .. " " .. (45 * 70 * 4),
         string.format("transpose %s tile %d 45x70: every element loaded and stored once", variant, tile))
  end
end

-- 64x64, tile 32: 2x2 blocks of 32 warps, each warp one row of a tile.
-- naive: a 128-byte row piece read (4 sectors), a column written (lanes 256
-- bytes apart: 32 sectors).
local naive = launch("transpose", {rows = 64, cols = 64})
t.is(traffic(naive, "load") .. " " .. traffic(naive, "store"), "128/512 128/4096",
     "transpose naive tile 32: loads 4 sectors, stores 32 per request")
-- shared: both sides 4 sectors; the shared store writes a tile row (words
-- 32y + x: every bank once), the shared load reads a tile column (words
-- 32x + y: all 32 in bank y): 32 wavefronts, 31 of them conflicts.
local plain = launch("transpose", {rows = 64, cols = 64, variant = "shared"})
t.is(traffic(plain, "load") .. " " .. traffic(plain, "store"), "128/512 128/512", "transpose shared: both sides coalesced")
t.is(shared(plain, "shared_store"), "128/128/0", "transpose shared tile 32: rows stored without conflict")
t.is(shared(plain, "shared_load"), "128/4096/3968", "transpose shared tile 32: a column read is a 32-way conflict")
-- padded: words 33x + y fall in banks (x + y) mod 32, all different.
local padded = launch("transpose", {rows = 64, cols = 64, variant = "padded"})
t.is(traffic(padded, "store"), "128/512", "transpose padded: stores coalesced")
t.is(shared(padded, "shared_store"), "128/128/0", "transpose padded tile 32: no conflict storing rows")
t.is(shared(padded, "shared_load"), "128/128/0", "transpose padded tile 32: no conflict reading columns")

-- tile 16: a warp is two half rows of a tile (y and y+1, x = 0..15).
-- naive: loads 2 x 64 bytes = 4 sectors; stores: lanes x and x+16 write
-- out rows x, at columns y and y+1 (8 bytes, one sector): 16 sectors.
t.is(traffic(launch("transpose", {rows = 64, cols = 64, tile = 16}), "store"), "128/2048",
     "transpose naive tile 16: 16 sectors per store")
-- shared: the store writes words 16y + 0..31, all banks once; the load reads
-- words 16x + y and 16x + y + 1: banks y, y+16 (even x) and y+1, y+17 (odd x),
-- 8 words each: 8 wavefronts, 7 conflicts.
local s16 = launch("transpose", {rows = 64, cols = 64, tile = 16, variant = "shared"})
t.is(shared(s16, "shared_store") .. " " .. shared(s16, "shared_load"), "128/128/0 128/1024/896",
     "transpose shared tile 16: a column read is an 8-way conflict")
-- padded with 17 floats a row: the two half rows y and y+1 start 17 words
-- apart, so the 16th word of the second (17y + 32) meets the first word of
-- the first (17y) in one bank: 2 wavefronts; the column read (words 17x + y
-- and 17x + y + 1) likewise has one bank with two words. Padding by one
-- removes conflicts only when a warp is one row of the tile.
local p16 = launch("transpose", {rows = 64, cols = 64, tile = 16, variant = "padded"})
t.is(shared(p16, "shared_store") .. " " .. shared(p16, "shared_load"), "128/256/128 128/256/128",
     "transpose padded tile 16: 2-way conflicts on both sides")
t.is(s16.dram.write_allocate_bytes, 0, "transpose shared tile 16: whole sectors stored, nothing write-allocated")
t.is(naive.dram.write_allocate_bytes, 0, "transpose naive: output sectors written in part are completed by the launch")
-- tile 8: a warp is four rows of 8. shared: column words 8x + y (y = 4k..4k+3)
-- are in banks 8(x mod 4) + y: x and x+4 share each: 2 wavefronts. padded (9
-- a row): rows y..y+3 start 9 words apart, the fourth wraps onto the first.
local s8 = launch("transpose", {rows = 64, cols = 64, tile = 8, variant = "shared"})
local p8 = launch("transpose", {rows = 64, cols = 64, tile = 8, variant = "padded"})
t.is(shared(s8, "shared_store") .. " " .. shared(s8, "shared_load"), "128/128/0 128/256/128",
     "transpose shared tile 8: a 2-way conflict reading columns")
t.is(shared(p8, "shared_store") .. " " .. shared(p8, "shared_load"), "128/256/128 128/256/128",
     "transpose padded tile 8: 2-way conflicts on both sides")
t.is(traffic(launch("transpose", {rows = 64, cols = 64, tile = 8}), "store"), "128/1024",
     "transpose naive tile 8: 8 columns of 4 floats (16 bytes): 8 sectors per store")

-- Partial tiles, 3x40, tile 32: 2x1 blocks. Loads as traverse's rows: 6/15.
-- naive stores: out is 40x3, lane c of row r writes byte 12c + 4r: block 0
-- spans 12 sectors per row, block 1 (c = 32..39) 3: 6 requests, 45 sectors.
local small = launch("transpose", {rows = 3, cols = 40})
t.is(traffic(small, "load") .. " " .. traffic(small, "store"), "6/15 6/45", "transpose naive 3x40: hand-counted")
-- shared: warp y of block bx writes out row 32bx + y from lanes 0-2 (12
-- bytes at 12 * row): 40 rows, 40 requests; rows with row mod 8 = 2 or 5
-- cross a sector (bytes 24-35, 28-39): 10 of them, 50 sectors. The column
-- read by 3 lanes, words 32x + y, all in bank y: 3 wavefronts each.
local small_shared = launch("transpose", {rows = 3, cols = 40, variant = "shared"})
t.is(traffic(small_shared, "store"), "40/50", "transpose shared 3x40: 40 stores, 50 sectors")
t.is(shared(small_shared, "shared_store"), "6/6/0", "transpose shared 3x40: 6 tile rows stored")
t.is(shared(small_shared, "shared_load"), "40/120/80", "transpose shared 3x40: 3-way column reads")

-- The teaching claim at the default size: tile 32, 4096x4096.
local d = {}
for _, variant in ipairs({"naive", "shared", "padded"}) do d[variant] = launch("transpose", {variant = variant}) end
t.is(d.naive.store.sectors_per_request, 32.0, "transpose defaults naive: 32 sectors per store")
t.is(d.shared.store.sectors_per_request, 4.0, "transpose defaults shared: 4 sectors per store")
t.is(d.shared.shared_load.wavefronts, 32 * d.shared.shared_load.requests, "transpose defaults shared: 32-way conflicts")
t.is(d.padded.shared_load.bank_conflicts + d.padded.shared_store.bank_conflicts, 0, "transpose defaults padded: no conflicts")
t.ok(d.naive.footprint_bytes > 2 * device().l2_bytes, "transpose defaults: footprint over twice the L2")

-- The warp map shows the banks of the column read.
t.ok(launch("transpose", {rows = 64, cols = 64, variant = "shared"}).map:find(
       "shared load · 4-byte elements · 32 lanes · 32 wavefronts (ideal 1) · 31 extra from bank conflicts", 1, true),
     "transpose shared: the warp map counts the conflict")

-- Refused values.
t.raises(function() launch("transpose", {tile = 12}) end, {"'tile' must be 8, 16 or 32, got 12"}, "transpose: a tile size not offered")
t.raises(function() launch("transpose", {variant = "fast"}) end,
         {"'variant' must be \"naive\", \"shared\" or \"padded\", got \"fast\""}, "transpose: an unknown variant")
t.raises(function() launch("transpose", {rows = 32769}) end, {"'rows' must be an integer from 1 to 32768"}, "transpose: too many rows")
t.raises(function() launch("transpose", {block = {32, 8}}) end, {"unknown parameter 'block' for 'transpose'"},
         "transpose: the tile is the block")

family.done()
