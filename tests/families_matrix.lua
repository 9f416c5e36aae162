-- families_matrix.lua: the matrix families (traverse, transpose) on the
-- access model: every parameter value launches, hand-counted small cases,
-- the teaching claims in numbers, the warp maps of 16-wide blocks, and
-- refused parameters. Warps are cut from a block's threads x-fastest
-- (threadIdx.x + threadIdx.y * blockDim.x), as on the GPU.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local function sim(kernel, params) return launch(kernel, params) end

-- Requests and sectors of loads and stores, as "requests/sectors".
local function traffic(r, side) return r[side].requests .. "/" .. r[side].sectors end
local function shared(r, side)
  local s = r[side]
  return s.requests .. "/" .. s.wavefronts .. "/" .. s.bank_conflicts
end

---------------------------------------------------------------------------
-- traverse
---------------------------------------------------------------------------

-- Every parameter value launches: each order with several block shapes,
-- and sizes that leave partial blocks.
for _, order in ipairs({"row", "col", "tiled"}) do
  for _, block in ipairs({{32, 8}, {16, 16}, {64, 4}, {8, 4}, {1024, 1}, {1, 32}}) do
    local r = sim("traverse", {rows = 67, cols = 45, order = order, block = block})
    t.is(r.load.bytes, 67 * 45 * 4, string.format("traverse %s {%d,%d} 67x45: every element loaded once",
         order, block[1], block[2]))
  end
end
t.is(sim("traverse", {rows = 1, cols = 1}).store.requests, 1, "traverse 1x1: one store")
t.is(sim("traverse", {rows = 32768, cols = 1, order = "col", block = {1024, 1}}).load.requests, 1024,
     "traverse 32768x1 by column: 1024 full warps down the one column")

-- row, 64x64, {32,8}: 2x8 blocks of 8 warps = 128 warps, each a 128-byte
-- aligned piece of one row: 4 sectors, 1 line per request.
local row = sim("traverse", {rows = 64, cols = 64, order = "row"})
t.is(traffic(row, "load"), "128/512", "traverse row 64x64: 128 loads of 4 sectors")
t.is(traffic(row, "store"), "128/512", "traverse row 64x64: 128 stores of 4 sectors")
t.is(row.load.lines, 128, "traverse row {32,8}: one 128-byte line per request")

-- col, 64x64, {32,8}: lanes are 32 rows (256 bytes) apart: a sector each.
local col = sim("traverse", {rows = 64, cols = 64, order = "col"})
t.is(traffic(col, "load"), "128/4096", "traverse col 64x64: 128 loads of 32 sectors")
t.is(traffic(col, "store"), "128/4096", "traverse col 64x64: 128 stores of 32 sectors")

-- A 16-wide block puts two rows in a warp: still 4 sectors (2 per half row
-- of 64 bytes) but 2 lines per request.
local row16 = sim("traverse", {rows = 64, cols = 64, order = "row", block = {16, 16}})
t.is(traffic(row16, "load"), "128/512", "traverse row {16,16}: 4 sectors per request, two half rows")
t.is(row16.load.lines, 256, "traverse row {16,16}: two lines per request")
-- ... and two columns in a warp by column: lanes k and k+16 read neighbouring
-- floats of one row, in one sector: 16 sectors per request instead of 32.
local col16 = sim("traverse", {rows = 64, cols = 64, order = "col", block = {16, 16}})
t.is(traffic(col16, "load"), "128/2048", "traverse col {16,16}: 16 sectors per request (two columns per warp)")

-- DRAM (estimated): by row, every store fills whole sectors, so nothing is
-- read for them, also when a 16-wide block splits each store over two rows;
-- by column, each store request writes 4 bytes of 32 sectors, but other warps
-- of the launch fill the rest of each sector in L2, so nothing is read first
-- either (on the H200 a naive transpose read only its input: 70 MB, not 134).
t.is(row16.dram.read_bytes .. " " .. row16.dram.write_allocate_bytes, "16384 0",
     "traverse row {16,16}: DRAM reads only the input (whole sectors stored)")
t.is(col.dram.read_bytes .. " " .. col.dram.write_allocate_bytes, "16384 0",
     "traverse col: sectors written 4 bytes at a time are completed in L2, none write-allocated")

-- tiled: the global accesses of row order, plus a shared store and load per
-- warp at 4 * (threadIdx.y * blockDim.x + threadIdx.x): 32 consecutive words, no conflict.
local tiled = sim("traverse", {rows = 64, cols = 64, order = "tiled"})
t.is(traffic(tiled, "load") .. " " .. traffic(tiled, "store"), "128/512 128/512", "traverse tiled: row order's global traffic")
t.is(shared(tiled, "shared_store"), "128/128/0", "traverse tiled: 128 shared stores, one wavefront each")
t.is(shared(tiled, "shared_load"), "128/128/0", "traverse tiled: 128 shared loads, one wavefront each")
t.is(shared(sim("traverse", {rows = 64, cols = 64, order = "tiled", block = {16, 16}}), "shared_load"), "128/128/0",
     "traverse tiled {16,16}: the tile is as wide as the block, still conflict-free")
t.is(row.shared_load, nil, "traverse row: no shared memory (no shared_load in the result)")

-- Partial blocks, 3x40 by row, {32,8}: 2x1 blocks; warps 0-2 of each block
-- hold rows 0-2, warps 3-7 are past the last row and make no request.
-- Block 0: 32 floats at byte 160*r: 4 sectors each (r=1: bytes 160-287 =
-- sectors 5-8). Block 1: columns 32-39, 32 bytes at 128+160*r: one sector
-- each (sectors 4, 9, 14). 6 requests, 15 sectors.
local edge = sim("traverse", {rows = 3, cols = 40})
t.is(traffic(edge, "load"), "6/15", "traverse 3x40 by row: 6 requests, 15 sectors")
-- By column: 1x5 blocks of 8 warps, each warp one column with lanes 0-2 (3 rows,
-- 160 bytes apart): 40 requests of 3 sectors.
t.is(traffic(sim("traverse", {rows = 3, cols = 40, order = "col"}), "load"), "40/120",
     "traverse 3x40 by column: 40 requests of 3 sectors")

-- The teaching claim at the default size: a column costs 8 times the sectors of a row.
local defaults = {}
for _, order in ipairs({"row", "col", "tiled"}) do defaults[order] = sim("traverse", {order = order}) end
t.is(defaults.row.load.sectors_per_request, 4.0, "traverse defaults by row: 4 sectors per request")
t.is(defaults.col.load.sectors_per_request, 32.0, "traverse defaults by column: 32 sectors per request")
t.is(defaults.tiled.load.sectors, defaults.row.load.sectors, "traverse tiled: not one sector saved over row")
t.ok(defaults.tiled.shared_load.requests > 0, "traverse tiled: ... but shared traffic on top")
t.ok(defaults.row.footprint_bytes > 2 * device().l2_bytes, "traverse defaults: footprint over twice the L2")

-- The warp map of a 16-wide block shows the two rows.
t.is(sim("traverse", {rows = 32, cols = 32, block = {16, 16}}).map, [[
warp 0 of traverse  rows=32 cols=32 block={16,16} order=row · lanes 0-31 are threads 0-31 · one cell = 4 bytes, # used, . fetched and unused, - not fetched
load in[] · 4-byte elements · 32 lanes · 4 sectors (ideal 4) · 128 of 128 fetched bytes used (100%)
  +0         ######## ######## -------- --------   lanes 0-15
  +128       ######## ######## -------- --------   lanes 16-31
store out[] · 4-byte elements · 32 lanes · 4 sectors (ideal 4) · 128 of 128 fetched bytes used (100%)
  +0         ######## ######## -------- --------   lanes 0-15
  +128       ######## ######## -------- --------   lanes 16-31
warp 0: 2 global requests · 8 sectors · 256 of 256 fetched bytes used (100%)]], "traverse {16,16}: warp 0 is half of row 0 and half of row 1")
local col_map = sim("traverse", {rows = 64, cols = 64, block = {16, 16}, order = "col"}).map
t.ok(col_map:find("+256       ##...... -------- -------- --------   lanes 1, 17", 1, true),
     "traverse col {16,16}: lanes 1 and 17 share a sector of row 1")

-- Refused values.
t.raises(function() sim("traverse", {order = "diagonal"}) end,
         {"'order' must be \"row\", \"col\" or \"tiled\", got \"diagonal\""}, "traverse: an unknown order")
t.raises(function() sim("traverse", {block = {16, 15}}) end, {"'block' must be a block shape", "{16, 15}"},
         "traverse: a block that is not whole warps")
t.raises(function() sim("traverse", {block = {64, 32}}) end, {"at most 1024 threads"}, "traverse: a block over 1024 threads")
t.raises(function() sim("traverse", {block = 256}) end, {"'block' must be a block shape such as {32, 8}"},
         "traverse: block is a shape, not a count")
t.raises(function() sim("traverse", {rows = 0}) end, {"'rows' must be an integer from 1 to 32768, got 0"}, "traverse: no rows")
t.raises(function() sim("traverse", {cols = 40000}) end, {"'cols' must be an integer from 1 to 32768, got 40000"},
         "traverse: too many columns")
t.raises(function() sim("traverse", {n = 1024}) end, {"unknown parameter 'n' for 'traverse'"},
         "traverse: sizes are rows and cols, not n")

---------------------------------------------------------------------------
-- transpose
---------------------------------------------------------------------------

-- Every parameter value launches, on a matrix that leaves partial tiles.
for _, variant in ipairs({"naive", "shared", "padded"}) do
  for _, tile in ipairs({8, 16, 32}) do
    local r = sim("transpose", {rows = 45, cols = 70, variant = variant, tile = tile})
    t.is(r.load.bytes .. " " .. r.store.bytes, (45 * 70 * 4) .. " " .. (45 * 70 * 4),
         string.format("transpose %s tile %d 45x70: every element loaded and stored once", variant, tile))
  end
end

-- 64x64, tile 32: 2x2 blocks of 32 warps, each warp one row of a tile.
-- naive: a 128-byte row piece read (4 sectors), a column written (lanes 256
-- bytes apart: 32 sectors).
local naive = sim("transpose", {rows = 64, cols = 64})
t.is(traffic(naive, "load") .. " " .. traffic(naive, "store"), "128/512 128/4096",
     "transpose naive tile 32: loads 4 sectors, stores 32 per request")
-- shared: both sides 4 sectors; the shared store writes a tile row (words
-- 32y + x: every bank once), the shared load reads a tile column (words
-- 32x + y: all 32 in bank y): 32 wavefronts, 31 of them conflicts.
local plain = sim("transpose", {rows = 64, cols = 64, variant = "shared"})
t.is(traffic(plain, "load") .. " " .. traffic(plain, "store"), "128/512 128/512", "transpose shared: both sides coalesced")
t.is(shared(plain, "shared_store"), "128/128/0", "transpose shared tile 32: rows stored without conflict")
t.is(shared(plain, "shared_load"), "128/4096/3968", "transpose shared tile 32: a column read is a 32-way conflict")
-- padded: words 33x + y fall in banks (x + y) mod 32, all different.
local padded = sim("transpose", {rows = 64, cols = 64, variant = "padded"})
t.is(traffic(padded, "store"), "128/512", "transpose padded: stores coalesced")
t.is(shared(padded, "shared_store"), "128/128/0", "transpose padded tile 32: no conflict storing rows")
t.is(shared(padded, "shared_load"), "128/128/0", "transpose padded tile 32: no conflict reading columns")

-- tile 16: a warp is two half rows of a tile (y and y+1, x = 0..15).
-- naive: loads 2 x 64 bytes = 4 sectors; stores: lanes x and x+16 write
-- out rows x, at columns y and y+1 (8 bytes, one sector): 16 sectors.
t.is(traffic(sim("transpose", {rows = 64, cols = 64, tile = 16}), "store"), "128/2048",
     "transpose naive tile 16: 16 sectors per store")
-- shared: the store writes words 16y + 0..31, all banks once; the load reads
-- words 16x + y and 16x + y + 1: banks y, y+16 (even x) and y+1, y+17 (odd x),
-- 8 words each: 8 wavefronts, 7 conflicts.
local s16 = sim("transpose", {rows = 64, cols = 64, tile = 16, variant = "shared"})
t.is(shared(s16, "shared_store") .. " " .. shared(s16, "shared_load"), "128/128/0 128/1024/896",
     "transpose shared tile 16: a column read is an 8-way conflict")
-- padded with 17 floats a row: the two half rows y and y+1 start 17 words
-- apart, so the 16th word of the second (17y + 32) meets the first word of
-- the first (17y) in one bank: 2 wavefronts; the column read (words 17x + y
-- and 17x + y + 1) likewise has one bank with two words. Padding by one
-- removes conflicts only when a warp is one row of the tile.
local p16 = sim("transpose", {rows = 64, cols = 64, tile = 16, variant = "padded"})
t.is(shared(p16, "shared_store") .. " " .. shared(p16, "shared_load"), "128/256/128 128/256/128",
     "transpose padded tile 16: 2-way conflicts on both sides")
t.is(s16.dram.write_allocate_bytes, 0, "transpose shared tile 16: whole sectors stored, nothing write-allocated")
t.is(naive.dram.write_allocate_bytes, 0, "transpose naive: output sectors written in part are completed by the launch")
-- tile 8: a warp is four rows of 8. shared: column words 8x + y (y = 4k..4k+3)
-- are in banks 8(x mod 4) + y: x and x+4 share each: 2 wavefronts. padded (9
-- a row): rows y..y+3 start 9 words apart, the fourth wraps onto the first.
local s8 = sim("transpose", {rows = 64, cols = 64, tile = 8, variant = "shared"})
local p8 = sim("transpose", {rows = 64, cols = 64, tile = 8, variant = "padded"})
t.is(shared(s8, "shared_store") .. " " .. shared(s8, "shared_load"), "128/128/0 128/256/128",
     "transpose shared tile 8: a 2-way conflict reading columns")
t.is(shared(p8, "shared_store") .. " " .. shared(p8, "shared_load"), "128/256/128 128/256/128",
     "transpose padded tile 8: 2-way conflicts on both sides")
t.is(traffic(sim("transpose", {rows = 64, cols = 64, tile = 8}), "store"), "128/1024",
     "transpose naive tile 8: 8 columns of 4 floats (16 bytes): 8 sectors per store")

-- Partial tiles, 3x40, tile 32: 2x1 blocks. Loads as traverse's rows: 6/15.
-- naive stores: out is 40x3, lane c of row r writes byte 12c + 4r: block 0
-- spans 12 sectors per row, block 1 (c = 32..39) 3: 6 requests, 45 sectors.
local small = sim("transpose", {rows = 3, cols = 40})
t.is(traffic(small, "load") .. " " .. traffic(small, "store"), "6/15 6/45", "transpose naive 3x40: hand-counted")
-- shared: warp y of block bx writes out row 32bx + y from lanes 0-2 (12
-- bytes at 12 * row): 40 rows, 40 requests; rows with row mod 8 = 2 or 5
-- cross a sector (bytes 24-35, 28-39): 10 of them, 50 sectors. The column
-- read by 3 lanes, words 32x + y, all in bank y: 3 wavefronts each.
local small_shared = sim("transpose", {rows = 3, cols = 40, variant = "shared"})
t.is(traffic(small_shared, "store"), "40/50", "transpose shared 3x40: 40 stores, 50 sectors")
t.is(shared(small_shared, "shared_store"), "6/6/0", "transpose shared 3x40: 6 tile rows stored")
t.is(shared(small_shared, "shared_load"), "40/120/80", "transpose shared 3x40: 3-way column reads")

-- The teaching claim at the default size: tile 32, 4096x4096.
local d = {}
for _, variant in ipairs({"naive", "shared", "padded"}) do d[variant] = sim("transpose", {variant = variant}) end
t.is(d.naive.store.sectors_per_request, 32.0, "transpose defaults naive: 32 sectors per store")
t.is(d.shared.store.sectors_per_request, 4.0, "transpose defaults shared: 4 sectors per store")
t.is(d.shared.shared_load.wavefronts, 32 * d.shared.shared_load.requests, "transpose defaults shared: 32-way conflicts")
t.is(d.padded.shared_load.bank_conflicts + d.padded.shared_store.bank_conflicts, 0, "transpose defaults padded: no conflicts")
t.ok(d.naive.footprint_bytes > 2 * device().l2_bytes, "transpose defaults: footprint over twice the L2")

-- The warp map shows the banks of the column read.
t.ok(sim("transpose", {rows = 64, cols = 64, variant = "shared"}).map:find(
       "shared load · 4-byte elements · 32 lanes · 32 wavefronts (ideal 1) · 31 extra from bank conflicts", 1, true),
     "transpose shared: the warp map counts the conflict")

-- Refused values.
t.raises(function() sim("transpose", {tile = 12}) end, {"'tile' must be 8, 16 or 32, got 12"}, "transpose: a tile size not offered")
t.raises(function() sim("transpose", {variant = "fast"}) end,
         {"'variant' must be \"naive\", \"shared\" or \"padded\", got \"fast\""}, "transpose: an unknown variant")
t.raises(function() sim("transpose", {rows = 32769}) end, {"'rows' must be an integer from 1 to 32768"}, "transpose: too many rows")
t.raises(function() sim("transpose", {block = {32, 8}}) end, {"unknown parameter 'block' for 'transpose'"},
         "transpose: the tile is the block")
t.done()
