-- matmul.lua: the matmul family, C = A B with a thread per element of C,
-- reading A and B from global memory (naive) or through shared tiles
-- (tiled). On the GPU, both variants with every tile, at the default size
-- and at one that fills no tile, and the largest k: output within the
-- family's tolerance of the CPU reference, the model's global requests and
-- sectors and shared wavefronts equal to the hardware counters (SKIP
-- without a GPU). On the access model: small cases equal counts worked out
-- by hand; over a grid of every parameter value the request counts equal a
-- second count made here, warp by warp, from the kernel's loops; the
-- teaching claims show in the numbers; bad values are refused with a
-- message that names them.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap
local counts = family.request_counts

family.gpu(function()
  local cases = {}
  for _, variant in ipairs({"naive", "tiled"}) do
    for _, tile in ipairs({8, 16, 32}) do
      cases[#cases + 1] = {"matmul", {variant = variant, tile = tile}, {show = true}}
      cases[#cases + 1] = {"matmul", {variant = variant, tile = tile, m = 100, n = 70, k = 45}, {show = true}}
    end
  end
  -- the largest k: the tolerance
  cases[#cases + 1] = {"matmul", {variant = "tiled", tile = 16, m = 64, n = 64, k = 2048}, {show = true}}
  family.gpu_grid(cases)
end)

---------------------------------------------------------------------------
-- Hand-worked cases. Notation: "ld R/S" is R global load requests touching
-- S sectors in all; "shld R/W" shared loads and their wavefronts; "const R/P"
-- constant loads and their passes.
---------------------------------------------------------------------------

-- matmul naive, tile 32, 32 x 32 x 32: 32 warps, warp w is row w of C. Per i,
-- A[w][i] is one address for all lanes (1 sector) and B[i][0..31] 128 bytes
-- (4 sectors): 32 warps x 32 x (1 + 4) = 5,120 sectors in 2,048 requests.
local r = launch("matmul", {variant = "naive", tile = 32, m = 32, n = 32, k = 32})
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
-- warp by warp, from the kernel's loops and their conditions.
---------------------------------------------------------------------------

local each_warp, any = family.each_warp, family.any_lane

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
family.requests_match("matmul", matmul_grid, matmul_requests)

---------------------------------------------------------------------------
-- What the family teaches, in the numbers.
---------------------------------------------------------------------------

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

local default = family.documented_default("matmul")
t.is(default.footprint_bytes, 3 * 4 * 256 * 256, "matmul default: three 256 x 256 float matrices")

t.raises(function() launch("matmul", {k = 4096}) end, {"'k' must be an integer from 1 to 2048, got 4096"}, "matmul: k 4096 refused")
t.raises(function() launch("matmul", {m = 0}) end, {"'m' must be an integer from 1 to 2048, got 0"}, "matmul: m 0 refused")
t.raises(function() launch("matmul", {tile = 64}) end, {"'tile' must be 8, 16 or 32, got 64"}, "matmul: tile 64 refused")
t.raises(function() launch("matmul", {variant = "shared"}) end, {"'variant' must be \"naive\" or \"tiled\""}, "matmul: variant shared refused")
t.raises(function() launch("matmul", {size = 4}) end, {"unknown parameter 'size' for 'matmul'"}, "matmul: an unknown parameter refused")

family.done()
