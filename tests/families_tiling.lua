-- families_tiling.lua: conv2d and matmul on the access model. Small cases
-- equal counts worked out by hand; over a grid of every parameter value the
-- request counts equal a second count made here, warp by warp, from the
-- kernels' loops; the teaching claims show in the numbers; bad values are
-- refused with a message that names them.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

-- Requests and sectors/wavefronts/passes of a result in one line, for comparing with hand counts.
local function counts(r)
  local function pair(x, key) return x and string.format("%d/%d", x.requests, x[key]) or "-" end
  return string.format("ld %s st %s shld %s shst %s const %s", pair(r.load, "sectors"), pair(r.store, "sectors"),
                       pair(r.shared_load, "wavefronts"), pair(r.shared_store, "wavefronts"), pair(r.constant, "passes"))
end

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

-- matmul naive, tile 32, 32 x 32 x 32: 32 warps, warp w is row w of C. Per i,
-- A[w][i] is one address for all lanes (1 sector) and B[i][0..31] 128 bytes
-- (4 sectors): 32 warps x 32 x (1 + 4) = 5,120 sectors in 2,048 requests.
r = launch("matmul", {variant = "naive", tile = 32, m = 32, n = 32, k = 32})
t.is(counts(r), "ld 2048/5120 st 32/128 shld - shst - const -", "matmul naive 32^3 tile 32: hand count")
-- Tiled: one step. Each warp loads a row of A and a row of B (4 sectors
-- each) and stores both into shared memory; then 32 loads of bs[i][0..31]
-- (consecutive words, 1 wavefront) and 8 16-byte loads of as[w][i..i+3],
-- the same address for every lane (2 wavefronts: a half warp per pass):
-- 32 x 40 = 1,280 requests, 32 x (32 + 16) = 1,536 wavefronts.
r = launch("matmul", {variant = "tiled", tile = 32, m = 32, n = 32, k = 32})
t.is(counts(r), "ld 64/256 st 32/128 shld 1280/1536 shst 64/64 const -", "matmul tiled 32^3 tile 32: hand count")

-- matmul 8 x 8 x 8 in one 16 x 16 block (8 warps of 2 rows each): only
-- warps 0-3 hold elements of C, 16 lanes each (columns 0-7 of 2 rows).
-- Naive: per i, A[r][i] and A[r+1][i] are 32 bytes apart (2 sectors) and
-- both rows read B[i][0..7] (1 sector): 4 warps x 8 x 2 = 64 requests,
-- 4 x 8 x 3 = 96 sectors; 4 stores of 2 rows of 32 bytes.
r = launch("matmul", {variant = "naive", tile = 16, m = 8, n = 8, k = 8})
t.is(counts(r), "ld 64/96 st 4/8 shld - shst - const -", "matmul naive 8^3 tile 16: hand count")
-- Tiled, one step: warps 0-3 load 2 rows of 8 floats of A and of B (2
-- sectors each); warps 4-7 are past the edge and load nothing, but all 8
-- warps store their zeros: 16 shared stores, 32 consecutive words each.
-- All 8 warps run the 16 products: 16 loads of bs (16 words twice, 1
-- wavefront) and 4 16-byte loads of as (one address per half warp, so 2
-- wavefronts): 8 x 20 = 160 requests, 8 x 24 = 192 wavefronts.
r = launch("matmul", {variant = "tiled", tile = 16, m = 8, n = 8, k = 8})
t.is(counts(r), "ld 8/16 st 4/8 shld 160/192 shst 16/16 const -", "matmul tiled 8^3 tile 16: hand count")

---------------------------------------------------------------------------
-- Every parameter value, with request counts made a second way: here,
-- warp by warp, from the kernels' loops and their conditions.
---------------------------------------------------------------------------

-- Each warp of a launch of tile x tile blocks over w x h threads: fn(bx, by, lanes)
-- with lanes[i] = {tx, ty, thread index in the block}.
local function each_warp(tile, w, h, fn)
  for by = 0, (h + tile - 1) // tile - 1 do
    for bx = 0, (w + tile - 1) // tile - 1 do
      for warp = 0, tile * tile // 32 - 1 do
        local lanes = {}
        for lane = 0, 31 do
          local thread = warp * 32 + lane
          lanes[#lanes + 1] = {thread % tile, thread // tile, thread}
        end
        fn(bx, by, lanes)
      end
    end
  end
end

local function any(lanes, pred)
  for _, l in ipairs(lanes) do if pred(l) then return true end end
  return false
end

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

local function matmul_requests(p)
  local T = p.tile
  local c = {ld = 0, st = 0, shld = 0, shst = 0, const = 0}
  each_warp(T, p.n, p.m, function(bx, by, lanes)
    local in_c = any(lanes, function(l) return by * T + l[2] < p.m and bx * T + l[1] < p.n end)
    if p.variant == "naive" then
      if in_c then c.ld = c.ld + 2 * p.k end
    else
      for step = 0, (p.k + T - 1) // T - 1 do
        if any(lanes, function(l) return by * T + l[2] < p.m and step * T + l[1] < p.k end) then c.ld = c.ld + 1 end
        if any(lanes, function(l) return step * T + l[2] < p.k and bx * T + l[1] < p.n end) then c.ld = c.ld + 1 end
        c.shst, c.shld = c.shst + 2, c.shld + T + T // 4   -- bs one by one, as four at a time
      end
    end
    if in_c then c.st = c.st + 1 end
  end)
  return c
end

local function requests_of(r)
  local function n(x) return x and x.requests or 0 end
  return {ld = n(r.load), st = n(r.store), shld = n(r.shared_load), shst = n(r.shared_store), const = n(r.constant)}
end

local function same(a, b)
  for _, k in ipairs({"ld", "st", "shld", "shst", "const"}) do
    if a[k] ~= b[k] then return false, string.format("%s: model %d, loops %d", k, a[k], b[k]) end
  end
  return true
end

local function check_grid(name, grid, expected_of)
  local matched, total, first_miss = 0, 0, nil
  for _, p in ipairs(grid) do
    local ok, why = same(requests_of(launch(name, p)), expected_of(p))
    total = total + 1
    if ok then matched = matched + 1
    elseif not first_miss then
      first_miss = t.label(name, p) .. ": " .. why
    end
  end
  t.ok(matched == total, string.format("%s: requests of every loop equal the loops' own count in %d of %d launches",
                                       name, matched, total) .. (first_miss and " (first miss: " .. first_miss .. ")" or ""))
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
check_grid("conv2d", conv_grid, conv2d_requests)

-- matmul: both variants, every tile, sizes that fill the tiles or not, one
-- element, and the largest m, n and k.
local matmul_grid = {}
for _, variant in ipairs({"naive", "tiled"}) do
  for _, tile in ipairs({8, 16, 32}) do
    for _, size in ipairs({{1, 1, 1}, {17, 33, 40}, {64, 64, 64}, {5, 70, 9}, {2048, 1, 1}, {1, 2048, 1}, {1, 1, 2048}}) do
      matmul_grid[#matmul_grid + 1] = {variant = variant, tile = tile, m = size[1], n = size[2], k = size[3]}
    end
  end
end
check_grid("matmul", matmul_grid, matmul_requests)

---------------------------------------------------------------------------
-- What the families teach, in the numbers.
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

-- matmul at 128^3: tiling divides global load requests by the tile exactly,
-- and the tiled products read shared memory without conflicts.
for _, tile in ipairs({8, 16, 32}) do
  local a = launch("matmul", {variant = "naive", tile = tile, m = 128, n = 128, k = 128})
  local b = launch("matmul", {variant = "tiled", tile = tile, m = 128, n = 128, k = 128})
  t.is(a.load.requests, b.load.requests * tile, "matmul tile " .. tile .. ": " .. tile .. "x fewer global loads")
  t.is(b.shared_load.bank_conflicts, 0, "matmul tiled " .. tile .. ": no bank conflicts")
end
-- How a naive warp's shape shows in sectors per request: tile 32 (one row
-- of C) reads A as a broadcast (1 sector) and B as 4; tile 16 two rows of A
-- (2) and B's 64 bytes (2); tile 8 four rows of A (4) and B's 32 bytes (1).
for tile, spr in pairs({[32] = 2.5, [16] = 2.0, [8] = 2.5}) do
  t.is(launch("matmul", {variant = "naive", tile = tile, m = 64, n = 64, k = 64}).load.sectors_per_request, spr,
       "matmul naive tile " .. tile .. ": " .. spr .. " sectors per request")
end

---------------------------------------------------------------------------
-- Defaults, docs, refusals.
---------------------------------------------------------------------------

local defaults = {}
for _, name in ipairs({"conv2d", "matmul"}) do
  local d = launch(name, {})
  defaults[name] = d
  t.ok(d.load.requests > 0 and d.store.requests > 0, name .. ": the default launch runs on the model")
  print(string.format("# %s defaults: %s, footprint %d bytes, sim %.0f ms", name, counts(d), d.footprint_bytes, d.wall_ms))
  local i = info(name)
  t.ok(#i.teaches > 20 and #i.teaches_zh > 5 and i.source:find("__global__", 1, true), name .. ": info has texts and source")
  for _, p in ipairs(i.params) do
    t.ok(p.doc and #p.doc > 5 and p.doc_zh and #p.doc_zh > 5, name .. "." .. p.name .. ": documented in English and Chinese")
  end
end
t.is(defaults.conv2d.footprint_bytes, 2 * 4 * 1024 * 1024, "conv2d default: two 1024 x 1024 float images")
t.is(defaults.matmul.footprint_bytes, 3 * 4 * 256 * 256, "matmul default: three 256 x 256 float matrices")
t.ok(info("conv2d").source:find("__constant__", 1, true), "conv2d: the filter is in constant memory")

t.raises(function() launch("conv2d", {tile = 12}) end, {"'tile' must be 8, 16 or 32, got 12"}, "conv2d: tile 12 refused")
t.raises(function() launch("conv2d", {variant = "fast"}) end, {"'variant' must be \"naive\" or \"tiled\", got \"fast\""},
         "conv2d: an unknown variant refused")
t.raises(function() launch("conv2d", {radius = 0}) end, {"'radius' must be an integer from 1 to 8, got 0"}, "conv2d: radius 0 refused")
t.raises(function() launch("conv2d", {radius = 9}) end, {"'radius' must be an integer from 1 to 8, got 9"}, "conv2d: radius 9 refused")
t.raises(function() launch("conv2d", {width = 0}) end, {"'width' must be an integer from 1 to 16384, got 0"}, "conv2d: width 0 refused")
t.raises(function() launch("conv2d", {height = 16385}) end, {"'height' must be an integer from 1 to 16384"}, "conv2d: height 16385 refused")
t.raises(function() launch("matmul", {k = 4096}) end, {"'k' must be an integer from 1 to 2048, got 4096"}, "matmul: k 4096 refused")
t.raises(function() launch("matmul", {m = 0}) end, {"'m' must be an integer from 1 to 2048, got 0"}, "matmul: m 0 refused")
t.raises(function() launch("matmul", {tile = 64}) end, {"'tile' must be 8, 16 or 32, got 64"}, "matmul: tile 64 refused")
t.raises(function() launch("matmul", {variant = "shared"}) end, {"'variant' must be \"naive\" or \"tiled\""}, "matmul: variant shared refused")
t.raises(function() launch("matmul", {size = 4}) end, {"unknown parameter 'size' for 'matmul'"}, "matmul: an unknown parameter refused")

t.done()
