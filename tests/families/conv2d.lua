-- conv2d.lua: the conv2d family, an image convolved with a filter in
-- constant memory, reading its neighbours from global memory (naive) or
-- from a shared tile with its halo (tiled). On the GPU, both variants with
-- every tile on three images: output within the family's tolerance of the
-- CPU reference, the model's global requests and sectors and shared
-- wavefronts equal to the hardware counters (SKIP without a GPU). On the
-- access model: small cases equal counts worked out by hand; over a grid of
-- every parameter value the request counts equal a second count made here,
-- warp by warp, from the kernel's loops; the teaching claims show in the
-- numbers; bad values are refused with a message that names them.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap
local counts = family.request_counts

family.gpu(function()
  local cases = {}
  for _, variant in ipairs({"naive", "tiled"}) do
    for _, tile in ipairs({8, 16, 32}) do
      cases[#cases + 1] = {"conv2d", {variant = variant, tile = tile}, {show = true}}
      cases[#cases + 1] = {"conv2d", {variant = variant, tile = tile, radius = 1, width = 517, height = 301}, {show = true}}
      cases[#cases + 1] = {"conv2d", {variant = variant, tile = tile, radius = 8, width = 200, height = 64}, {show = true}}
    end
  end
  family.gpu_grid(cases)
end)

---------------------------------------------------------------------------
-- Hand-worked cases. Notation: "ld R/S" is R global load requests touching
-- S sectors in all; "shld R/W" shared loads and their wavefronts; "const R/P"
-- constant loads and their passes.
---------------------------------------------------------------------------

-- conv2d naive, tile 32, radius 1, a 64 x 2 image: 2 blocks of 32 x 32
-- threads, but only rows 0 and 1 exist, so 4 warps work (one row of 32
-- pixels each). Each does 9 taps: a constant load of the weight (every lane
-- the same address: 1 pass) and a global load of 32 neighbours. Rows clamp
-- to 0..1, so only the column shift matters: in the left block columns
-- clamp(x-1) = 0,0,1..30 fill bytes 0..123 (4 sectors), x = 0..31 (4), x+1 =
-- 1..32 bytes 4..131 (5); the right block 31..62 (5), 32..63 (4), 33..63,63
-- (4): 13 sectors per row of taps, 39 per warp, 156 in all for 36 requests.
-- The store: 4 requests of 4 sectors.
local r = launch("conv2d", {variant = "naive", tile = 32, radius = 1, width = 64, height = 2})
t.is(counts(r), "ld 36/156 st 4/16 shld - shst - const 36/36", "conv2d naive 64x2 r1: hand count")
t.is(r.dram.read_bytes, 512, "conv2d naive 64x2: the image's 8 64-byte blocks read once")

-- conv2d tiled, tile 8, radius 1, an 8 x 8 image: one block of 64 threads
-- (2 warps: rows 0-3 and 4-7). The halo region is 10 x 10 = 100 floats,
-- copied in 2 rounds (thread t copies t and t + 64). An image row is 32
-- bytes, one sector, so a copy touches as many sectors as distinct clamped
-- rows: warp 0 round 0 takes region rows 0-3 = image rows 0,0,1,2 (3
-- sectors); warp 1 round 0 rows 3-6 = 2..5 (4); warp 0 round 1 rows 6-9 =
-- 5,6,7,7 (3); warp 1 round 1 only elements 96-99 (4 lanes), row 7 (1):
-- ld 4/11, and 4 shared stores of consecutive words, 1 wavefront each.
-- Each warp's 9 shared loads read 4 rows of 8 words, 10 words apart: runs
-- starting at banks b, b+10, b+20, b+30; the last run wraps onto banks
-- b-2..b+5 and meets the first on 6 banks: 2 wavefronts each, 36 for 18.
-- The stores: 2 requests of 4 one-sector rows.
r = launch("conv2d", {variant = "tiled", tile = 8, radius = 1, width = 8, height = 8})
t.is(counts(r), "ld 4/11 st 2/8 shld 18/36 shst 4/4 const 18/18", "conv2d tiled 8x8 tile 8 r1: hand count")
t.is(r.shared_load.bank_conflicts, 18, "... one extra wavefront per shared load from bank conflicts")

-- Edges: a 4 x 1 image in one 8 x 8 block. Naive: only lanes 0-3 of warp 0
-- work; every neighbour is in the image's one 16-byte row: 9 loads of one
-- sector, 1 store of one, and the store fills half a sector (write-allocate).
r = launch("conv2d", {variant = "naive", tile = 8, radius = 1, width = 4, height = 1})
t.is(counts(r), "ld 9/9 st 1/1 shld - shst - const 9/9", "conv2d naive 4x1: hand count")
t.is(r.dram.write_allocate_bytes, 32, "conv2d 4x1: the 16-byte store reads its sector first")
-- Tiled: all 64 threads still copy the 100-element region (4 requests, all
-- clamped into the one row: 1 sector each), but only lanes 0-3 compute.
r = launch("conv2d", {variant = "tiled", tile = 8, radius = 1, width = 4, height = 1})
t.is(counts(r), "ld 4/4 st 1/1 shld 9/9 shst 4/4 const 9/9", "conv2d tiled 4x1: hand count")

---------------------------------------------------------------------------
-- Every parameter value, with request counts made a second way: here,
-- warp by warp, from the kernel's loops and their conditions.
---------------------------------------------------------------------------

local each_warp, any = family.each_warp, family.any_lane

local function conv2d_requests(p)
  local T, r = p.tile, p.radius
  local taps, span = (2 * r + 1) ^ 2 // 1, T + 2 * r
  local rounds = (span * span + T * T - 1) // (T * T)
  local c = {ld = 0, st = 0, shld = 0, shst = 0, const = 0}
  each_warp(T, p.width, p.height, function(bx, by, lanes)
    local works = any(lanes, function(l) return bx * T + l[1] < p.width and by * T + l[2] < p.height end)
    if p.variant == "tiled" then
      for j = 0, rounds - 1 do
        if any(lanes, function(l) return l[3] + j * T * T < span * span end) then
          c.ld, c.shst = c.ld + 1, c.shst + 1
        end
      end
      if works then c.shld = c.shld + taps end
    elseif works then
      c.ld = c.ld + taps
    end
    if works then c.const, c.st = c.const + taps, c.st + 1 end
  end)
  return c
end

-- conv2d: both variants, every tile, every radius 1..8, and images that fill
-- their blocks, leave them part-empty, are one pixel, or are one row or
-- column at the largest width or height.
local conv_grid = {}
for _, variant in ipairs({"naive", "tiled"}) do
  for _, tile in ipairs({8, 16, 32}) do
    for radius = 1, 8 do
      conv_grid[#conv_grid + 1] = {variant = variant, tile = tile, radius = radius, width = 37, height = 19}
    end
    for _, size in ipairs({{1, 1}, {64, 64}, {16384, 1}, {1, 16384}, {100, 3}}) do
      conv_grid[#conv_grid + 1] = {variant = variant, tile = tile, radius = 2, width = size[1], height = size[2]}
    end
  end
end
family.requests_match("conv2d", conv_grid, conv2d_requests)

---------------------------------------------------------------------------
-- What the family teaches, in the numbers.
---------------------------------------------------------------------------

-- conv2d at 256 x 256, r = 2, tile 16: naive makes 25 load requests per warp;
-- tiled copies the 20 x 20 region in 13 warp-rounds per block of 8 warps.
local naive = launch("conv2d", {variant = "naive", tile = 16, width = 256, height = 256})
local tiled = launch("conv2d", {variant = "tiled", tile = 16, width = 256, height = 256})
t.is(naive.load.requests, 2048 * 25, "conv2d naive: 25 global loads per warp")
t.is(tiled.load.requests, 256 * 13, "conv2d tiled 16: 13 global loads per 8-warp block")
t.ok(naive.load.sectors > 10 * tiled.load.sectors,
     string.format("conv2d: tiling cuts global load sectors %.1fx (%d to %d)", naive.load.sectors / tiled.load.sectors,
                   naive.load.sectors, tiled.load.sectors))
t.is(naive.dram.read_bytes, tiled.dram.read_bytes, "conv2d: both read each image block from DRAM once (cold L2)")

-- The halo's price falls with the tile: (tile + 2r)^2 / tile^2 elements copied
-- per pixel, 2.25 at tile 8, 1.56 at 16, 1.27 at 32; and 8- and 16-wide tiles
-- put 4 or 2 rows of the region in one warp, which meet on some banks.
local sectors, conflicts = {}, {}
for _, tile in ipairs({8, 16, 32}) do
  local x = tile == 16 and tiled or launch("conv2d", {variant = "tiled", tile = tile, width = 256, height = 256})
  sectors[tile], conflicts[tile] = x.load.sectors, x.shared_load.bank_conflicts
  t.is(x.shared_load.bank_conflicts, tile < 32 and x.shared_load.requests or 0,
       "conv2d tiled " .. tile .. ", r 2: " .. (tile < 32 and "every shared load 2-way conflicted" or "no bank conflicts"))
end
t.ok(sectors[8] > sectors[16] and sectors[16] > sectors[32],
     string.format("conv2d tiled: global load sectors fall with the tile (%d, %d, %d)", sectors[8], sectors[16], sectors[32]))

-- Whole 32-byte sectors stored (rows of 8, 16 or 32 floats from aligned
-- columns): no write-allocate read, whatever the tile.
for _, tile in ipairs({8, 16, 32}) do
  local x = tile == 16 and naive or launch("conv2d", {variant = "naive", tile = tile, width = 256, height = 256})
  t.is(x.dram.write_allocate_bytes, 0, "conv2d tile " .. tile .. ": whole sectors stored, no write-allocate")
end

---------------------------------------------------------------------------
-- Defaults, docs, refusals.
---------------------------------------------------------------------------

local default = family.documented_default("conv2d")
t.is(default.footprint_bytes, 2 * 4 * 1024 * 1024, "conv2d default: two 1024 x 1024 float images")
t.ok(info("conv2d").source:find("__constant__", 1, true), "conv2d: the filter is in constant memory")

t.raises(function() launch("conv2d", {tile = 12}) end, {"'tile' must be 8, 16 or 32, got 12"}, "conv2d: tile 12 refused")
t.raises(function() launch("conv2d", {variant = "fast"}) end, {"'variant' must be \"naive\" or \"tiled\", got \"fast\""},
         "conv2d: an unknown variant refused")
t.raises(function() launch("conv2d", {radius = 0}) end, {"'radius' must be an integer from 1 to 8, got 0"}, "conv2d: radius 0 refused")
t.raises(function() launch("conv2d", {radius = 9}) end, {"'radius' must be an integer from 1 to 8, got 9"}, "conv2d: radius 9 refused")
t.raises(function() launch("conv2d", {width = 0}) end, {"'width' must be an integer from 1 to 16384, got 0"}, "conv2d: width 0 refused")
t.raises(function() launch("conv2d", {height = 16385}) end, {"'height' must be an integer from 1 to 16384"}, "conv2d: height 16385 refused")

family.done()
