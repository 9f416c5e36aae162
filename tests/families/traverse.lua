-- traverse.lua: the traverse family, out = 2 * in over a matrix, its lanes
-- walking a row, a column, or a tile in shared memory. On the GPU, every
-- order with two block shapes, a matrix of partial blocks and the default
-- size: output equal to the CPU reference, the model's requests, sectors and
-- shared wavefronts equal to the hardware counters, the DRAM read estimate
-- within 5% (SKIP without a GPU). On the access model: every parameter value
-- launches, hand-counted small cases, the teaching claims in numbers, the
-- warp maps of 16-wide blocks, and refused parameters. Warps are cut from a
-- block's threads x-fastest (threadIdx.x + threadIdx.y * blockDim.x), as on
-- the GPU.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap
local traffic, shared = family.traffic, family.shared

family.gpu(function()
  local cases = {}
  for _, order in ipairs(family.choices("traverse", "order")) do
    for _, block in ipairs({{32, 8}, {16, 16}}) do
      cases[#cases + 1] = {"traverse", {order = order, block = block, rows = 1024, cols = 1024}}
    end
  end
  cases[#cases + 1] = {"traverse", {order = "col", rows = 1000, cols = 777}}
  cases[#cases + 1] = {"traverse", {order = "row"}, {dram = true}}
  family.gpu_grid(cases)
end)

-- Every parameter value launches: each order with several block shapes,
-- and sizes that leave partial blocks.
for _, order in ipairs({"row", "col", "tiled"}) do
  for _, block in ipairs({{32, 8}, {16, 16}, {64, 4}, {8, 4}, {1024, 1}, {1, 32}}) do
    local r = launch("traverse", {rows = 67, cols = 45, order = order, block = block})
    t.is(r.load.bytes, 67 * 45 * 4, string.format("traverse %s {%d,%d} 67x45: every element loaded once",
         order, block[1], block[2]))
  end
end
t.is(launch("traverse", {rows = 1, cols = 1}).store.requests, 1, "traverse 1x1: one store")
t.is(launch("traverse", {rows = 32768, cols = 1, order = "col", block = {1024, 1}}).load.requests, 1024,
     "traverse 32768x1 by column: 1024 full warps down the one column")

-- row, 64x64, {32,8}: 2x8 blocks of 8 warps = 128 warps, each a 128-byte
-- aligned piece of one row: 4 sectors, 1 line per request.
local row = launch("traverse", {rows = 64, cols = 64, order = "row"})
t.is(traffic(row, "load"), "128/512", "traverse row 64x64: 128 loads of 4 sectors")
t.is(traffic(row, "store"), "128/512", "traverse row 64x64: 128 stores of 4 sectors")
t.is(row.load.lines, 128, "traverse row {32,8}: one 128-byte line per request")

-- col, 64x64, {32,8}: lanes are 32 rows (256 bytes) apart: a sector each.
local col = launch("traverse", {rows = 64, cols = 64, order = "col"})
t.is(traffic(col, "load"), "128/4096", "traverse col 64x64: 128 loads of 32 sectors")
t.is(traffic(col, "store"), "128/4096", "traverse col 64x64: 128 stores of 32 sectors")

-- A 16-wide block puts two rows in a warp: still 4 sectors (2 per half row
-- of 64 bytes) but 2 lines per request.
local row16 = launch("traverse", {rows = 64, cols = 64, order = "row", block = {16, 16}})
t.is(traffic(row16, "load"), "128/512", "traverse row {16,16}: 4 sectors per request, two half rows")
t.is(row16.load.lines, 256, "traverse row {16,16}: two lines per request")
-- ... and two columns in a warp by column: lanes k and k+16 read neighbouring
-- floats of one row, in one sector: 16 sectors per request instead of 32.
local col16 = launch("traverse", {rows = 64, cols = 64, order = "col", block = {16, 16}})
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
local tiled = launch("traverse", {rows = 64, cols = 64, order = "tiled"})
t.is(traffic(tiled, "load") .. " " .. traffic(tiled, "store"), "128/512 128/512", "traverse tiled: row order's global traffic")
t.is(shared(tiled, "shared_store"), "128/128/0", "traverse tiled: 128 shared stores, one wavefront each")
t.is(shared(tiled, "shared_load"), "128/128/0", "traverse tiled: 128 shared loads, one wavefront each")
t.is(shared(launch("traverse", {rows = 64, cols = 64, order = "tiled", block = {16, 16}}), "shared_load"), "128/128/0",
     "traverse tiled {16,16}: the tile is as wide as the block, still conflict-free")
t.is(row.shared_load, nil, "traverse row: no shared memory (no shared_load in the result)")

-- Partial blocks, 3x40 by row, {32,8}: 2x1 blocks; warps 0-2 of each block
-- hold rows 0-2, warps 3-7 are past the last row and make no request.
-- Block 0: 32 floats at byte 160*r: 4 sectors each (r=1: bytes 160-287 =
-- sectors 5-8). Block 1: columns 32-39, 32 bytes at 128+160*r: one sector
-- each (sectors 4, 9, 14). 6 requests, 15 sectors.
local edge = launch("traverse", {rows = 3, cols = 40})
t.is(traffic(edge, "load"), "6/15", "traverse 3x40 by row: 6 requests, 15 sectors")
-- By column: 1x5 blocks of 8 warps, each warp one column with lanes 0-2 (3 rows,
-- 160 bytes apart): 40 requests of 3 sectors.
t.is(traffic(launch("traverse", {rows = 3, cols = 40, order = "col"}), "load"), "40/120",
     "traverse 3x40 by column: 40 requests of 3 sectors")

-- The teaching claim at the default size: a column costs 8 times the sectors of a row.
local defaults = {}
for _, order in ipairs({"row", "col", "tiled"}) do defaults[order] = launch("traverse", {order = order}) end
t.is(defaults.row.load.sectors_per_request, 4.0, "traverse defaults by row: 4 sectors per request")
t.is(defaults.col.load.sectors_per_request, 32.0, "traverse defaults by column: 32 sectors per request")
t.is(defaults.tiled.load.sectors, defaults.row.load.sectors, "traverse tiled: not one sector saved over row")
t.ok(defaults.tiled.shared_load.requests > 0, "traverse tiled: ... but shared traffic on top")
t.ok(defaults.row.footprint_bytes > 2 * device().l2_bytes, "traverse defaults: footprint over twice the L2")

-- The warp map of a 16-wide block shows the two rows.
t.is(launch("traverse", {rows = 32, cols = 32, block = {16, 16}}).map, [[
warp 0 of traverse  rows=32 cols=32 block={16,16} order=row · lanes 0-31 are threads 0-31 · one cell = 4 bytes, # used, . fetched and unused, - not fetched
load in[] · 4-byte elements · 32 lanes · 4 sectors (ideal 4) · 128 of 128 fetched bytes used (100%)
  +0         ######## ######## -------- --------   lanes 0-15
  +128       ######## ######## -------- --------   lanes 16-31
store out[] · 4-byte elements · 32 lanes · 4 sectors (ideal 4) · 128 of 128 fetched bytes used (100%)
  +0         ######## ######## -------- --------   lanes 0-15
  +128       ######## ######## -------- --------   lanes 16-31
warp 0: 2 global requests · 8 sectors · 256 of 256 fetched bytes used (100%)]], "traverse {16,16}: warp 0 is half of row 0 and half of row 1")
local col_map = launch("traverse", {rows = 64, cols = 64, block = {16, 16}, order = "col"}).map
t.ok(col_map:find("+256       ##...... -------- -------- --------   lanes 1, 17", 1, true),
     "traverse col {16,16}: lanes 1 and 17 share a sector of row 1")

-- Refused values.
t.raises(function() launch("traverse", {order = "diagonal"}) end,
         {"'order' must be \"row\", \"col\" or \"tiled\", got \"diagonal\""}, "traverse: an unknown order")
t.raises(function() launch("traverse", {block = {16, 15}}) end, {"'block' must be a block shape", "{16, 15}"},
         "traverse: a block that is not whole warps")
t.raises(function() launch("traverse", {block = {64, 32}}) end, {"at most 1024 threads"}, "traverse: a block over 1024 threads")
t.raises(function() launch("traverse", {block = 256}) end, {"'block' must be a block shape such as {32, 8}"},
         "traverse: block is a shape, not a count")
t.raises(function() launch("traverse", {rows = 0}) end, {"'rows' must be an integer from 1 to 32768, got 0"}, "traverse: no rows")
t.raises(function() launch("traverse", {cols = 40000}) end, {"'cols' must be an integer from 1 to 32768, got 40000"},
         "traverse: too many columns")
t.raises(function() launch("traverse", {n = 1024}) end, {"unknown parameter 'n' for 'traverse'"},
         "traverse: sizes are rows and cols, not n")

family.done()
