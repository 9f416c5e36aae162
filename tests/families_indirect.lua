-- families_indirect.lua: gather, spmv and histogram on the access model.
-- Every parameter value launches; small cases give the requests, sectors and
-- shared wavefronts worked out by hand below; the teaching claim of each
-- family shows in the numbers; bad values are refused. (tests/families/indirect
-- checks that fill_inputs writes the indices the model uses, and the CPU
-- references on hand-made inputs.)
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

-- Sectors of the loads through the index only: all loads less idx[]'s,
-- which are coalesced (4 sectors per full warp).
local function gathered_sectors(r, n)
  return r.load.sectors - math.ceil(n / 8)
end

---------------------------------------------------------------- gather
for _, pattern in ipairs({"random", "sorted", "window"}) do
  for _, window in ipairs({1, 8, 1000, 1 << 30}) do
    local r = launch("gather", {pattern = pattern, window = window, n = 5000, seed = 3})
    t.is(r.load.requests, 2 * 157, ("gather %s window=%d: two loads per warp (157 warps)"):format(pattern, window))
  end
end
for _, block in ipairs({32, 96, 1024}) do
  t.is(launch("gather", {n = 5000, block = block}).store.sectors, 625, "gather block " .. block .. ": 5000 floats stored in 625 sectors")
end
t.is(launch("gather", {n = 1}).load.sectors, 2, "gather n=1: one sector of idx, one of in")

-- window=1: every slice is one element, so idx[i] = i and the gather is a
-- copy. n = 1000: 31 full warps (4 sectors per float load) and one of 8
-- lanes (one sector): 125 sectors for idx, 125 for in, 125 stored.
local r = launch("gather", {pattern = "window", window = 1, n = 1000})
t.is(r.load.requests, 64, "gather window=1, n=1000: 64 load requests (idx and in, 32 warps)")
t.is(r.load.sectors, 250, "gather window=1, n=1000: 250 load sectors, as a copy")
t.is(r.store.sectors, 125, "gather window=1, n=1000: 125 store sectors")
t.is(r.useful_bytes, 12000, "gather: 12 useful bytes per element")

-- window=8: a slice is 32 bytes, one aligned sector, shared by lanes 8k..8k+7:
-- 4 sectors per warp for in[] whatever the hash says. n = 4096: 128 warps.
t.is(gathered_sectors(launch("gather", {pattern = "window", window = 8, n = 4096}), 4096), 512,
     "gather window=8: exactly 4 sectors per warp through idx")

-- The same hash in Lua (splitmix64's finaliser; high half of hash * bound),
-- to count random gather's sectors independently of the C model.
local function mix(z)
  z = z + 0x9e3779b97f4a7c15
  z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
  z = (z ~ (z >> 27)) * 0x94d049bb133111eb
  return z ~ (z >> 31)
end
local function below(hash, bound)   -- bound < 2^32
  local hi, lo = hash >> 32, hash & 0xffffffff
  return (hi * bound + ((lo * bound) >> 32)) >> 32
end
local function random_gather_sectors(n, seed)
  local key, total = mix(seed), 0
  for first = 0, n - 1, 32 do
    local seen, count = {}, 0
    for i = first, math.min(first + 31, n - 1) do
      local sector = below(mix(key ~ i), n) * 4 // 32
      if not seen[sector] then seen[sector], count = true, count + 1 end
    end
    total = total + count
  end
  return total
end
local expected = random_gather_sectors(65536, 5)
t.is(gathered_sectors(launch("gather", {pattern = "random", n = 65536, seed = 5}), 65536), expected,
     ("gather random, n=65536, seed=5: %d sectors through idx, as counted in Lua"):format(expected))
t.ok(expected > 31.5 * 2048, "... nearly one sector per lane (over 31.5 per warp)")
t.is(launch("gather", {pattern = "window", window = 65536, n = 65536, seed = 5}).load.sectors,
     launch("gather", {pattern = "random", n = 65536, seed = 5}).load.sectors, "gather: a window of n is random")
t.ok(launch("gather", {n = 65536, seed = 6}).load.sectors ~= launch("gather", {n = 65536, seed = 5}).load.sectors,
     "gather: another seed, other indices")

-- The teaching claim: the narrower the range of a warp's indices, the fewer
-- sectors; order within the warp does not matter: sorted draws the same 32
-- elements per warp as window=32, only in ascending order, so its sectors
-- are exactly window=32's.
local n = 1 << 20
local per_warp = {}
for _, case in ipairs({{"random"}, {"window", 4096}, {"window", 256}, {"window", 64}, {"window", 32}, {"sorted"}}) do
  local name = case[1] .. (case[2] and " " .. case[2] or "")
  per_warp[name] = gathered_sectors(launch("gather", {pattern = case[1], window = case[2], n = n}), n) / (n / 32)
end
t.ok(per_warp["random"] > 31.9, ("gather random: %.2f sectors per warp through idx (32 lanes, 32 sectors)"):format(per_warp["random"]))
t.ok(per_warp["random"] > per_warp["window 4096"] and per_warp["window 4096"] > per_warp["window 256"] and
     per_warp["window 256"] > per_warp["window 64"] and per_warp["window 64"] > per_warp["window 32"],
     ("gather: sectors per warp fall with the window: random %.2f, 4096 %.2f, 256 %.2f, 64 %.2f, 32 %.2f"):format(
       per_warp["random"], per_warp["window 4096"], per_warp["window 256"], per_warp["window 64"], per_warp["window 32"]))
t.is(per_warp["sorted"], per_warp["window 32"], "gather sorted: exactly window=32's sectors (lane order does not count)")
t.ok(per_warp["sorted"] <= 4, ("gather sorted: %.3f sectors per warp, a coalesced load's 4 at most"):format(per_warp["sorted"]))
local default = launch("gather", {})
t.ok(default.footprint_bytes > 120e6, "gather defaults: buffers over twice a 60 MB L2")

---------------------------------------------------------------- spmv
for _, variant in ipairs({"scalar", "vector"}) do
  for _, nnz in ipairs({1, 2, 16, 31, 32, 33, 64}) do
    r = launch("spmv", {variant = variant, nnz_per_row = nnz, n = 1000})
    local rounds = variant == "vector" and math.ceil(nnz / 32) or nnz
    local warps = variant == "vector" and 1000 or 32
    t.is(r.load.requests, warps * (2 + 3 * rounds),
         ("spmv %s nnz_per_row=%d: row_ptr twice and 3 loads per round (%d per warp)"):format(variant, nnz, 2 + 3 * rounds))
  end
  for _, block in ipairs({32, 128, 1024}) do
    t.is(launch("spmv", {variant = variant, block = block, n = 1000}).store.requests, variant == "vector" and 1000 or 32,
         ("spmv %s block=%d: one store request per %s"):format(variant, block, variant == "vector" and "row" or "warp"))
  end
  t.ok(launch("spmv", {variant = variant, n = 1000, seed = 9}).load.sectors > 0, "spmv " .. variant .. " seed=9 launches")
end

-- A 32x32 matrix with 8 non-zeros per row. The columns split into 8 strips
-- of 4 (16 bytes of x each): non-zero j of every row is in strip j, and
-- strips 2m and 2m+1 share sector m of x.
-- vector, one warp per row (32 warps): row_ptr[r] and row_ptr[r+1] are one
-- address each (1 sector each); col and val: 8 lanes, 32 aligned bytes
-- (1 sector each); x: 8 lanes in strips 0..7, sectors 0..3 (4 sectors);
-- lane 0 stores y (1 sector). 5 loads and 8 sectors per warp.
r = launch("spmv", {variant = "vector", n = 32, nnz_per_row = 8})
t.is(r.load.requests, 160, "spmv vector 32x32, 8 per row: 160 load requests")
t.is(r.load.sectors, 256, "spmv vector 32x32, 8 per row: 256 load sectors")
t.is(r.store.requests, 32, "spmv vector 32x32, 8 per row: 32 store requests (lane 0 of each warp)")
t.is(r.store.sectors, 32, "spmv vector 32x32, 8 per row: 32 store sectors")
-- scalar, one thread per row (one warp): row_ptr[r] 4 sectors, row_ptr[r+1]
-- 4 bytes on, 5 sectors; col and val in each of 8 rounds: lanes a row (32
-- bytes) apart, 32 sectors; x in round j: all lanes in strip j, 1 sector.
-- 2 + 3 * 8 = 26 loads; 9 + 8 * (32 + 32 + 1) = 529 sectors; y: 4 sectors.
r = launch("spmv", {variant = "scalar", n = 32, nnz_per_row = 8})
t.is(r.load.requests, 26, "spmv scalar 32x32, 8 per row: 26 load requests")
t.is(r.load.sectors, 529, "spmv scalar 32x32, 8 per row: 529 load sectors")
-- ideal counts each byte once: row_ptr, col and val 4 sectors a request (18 of them), x a
-- sector (8 rounds, lanes sharing a strip's few columns): (18 * 4 + 8) / 26 = 3.08
t.is(r.load.ideal, 3.08, "spmv scalar: ideally 3.08 sectors per request (x's lanes share columns)")
t.is(r.store.sectors, 4, "spmv scalar 32x32, 8 per row: 4 store sectors")
t.ok(r.load.sectors > 2 * 256, "the same matrix: a thread per row reads over twice the sectors of a warp per row")

-- The teaching claim at the defaults: scalar reads col[] and val[] a row
-- apart (a sector per lane), vector reads them coalesced.
local scalar, vector = launch("spmv", {variant = "scalar"}), launch("spmv", {variant = "vector"})
t.ok(scalar.load.sectors > 2 * vector.load.sectors,
     ("spmv defaults: scalar %d load sectors, vector %d"):format(scalar.load.sectors, vector.load.sectors))
t.ok(scalar.load.sectors_per_request > 30, ("spmv scalar: %.2f sectors per request"):format(scalar.load.sectors_per_request))
t.ok(scalar.footprint_bytes > 120e6, "spmv defaults: buffers over twice a 60 MB L2")
t.is(scalar.footprint_bytes, vector.footprint_bytes, "spmv: both variants hold the same matrix")

---------------------------------------------------------------- histogram
for _, variant in ipairs({"global", "shared"}) do
  for _, distribution in ipairs({"uniform", "skewed"}) do
    for _, bins in ipairs({1, 33, 256, 1024}) do
      for _, block in ipairs({32, 256, 1024}) do
        r = launch("histogram", {variant = variant, distribution = distribution, bins = bins, block = block, n = 3000})
        t.is(r.load.requests, 94, ("histogram %s %s bins=%d block=%d: one load request per warp with elements"):format(
             variant, distribution, bins, block))
      end
    end
  end
end

-- global, n = 1024: 32 warps, one coalesced load each; the atomics are not
-- stores (and not modelled): no store requests, no shared memory.
r = launch("histogram", {variant = "global", n = 1024})
t.is(r.load.sectors, 128, "histogram global n=1024: 128 load sectors")
t.is(r.store.requests, 0, "histogram global: atomics are not store requests")
t.is(r.shared_store, nil, "histogram global: no shared memory")
-- shared, n = 1024, bins = 256, blocks of 256: warp k of a block zeroes bins
-- 32k..32k+31 (one conflict-free store) and reads them back (one load).
r = launch("histogram", {variant = "shared", n = 1024})
t.is(r.shared_store.requests, 32, "histogram shared 256 bins: 32 shared stores (one per warp)")
t.is(r.shared_store.wavefronts, 32, "... one wavefront each")
t.is(r.shared_load.requests, 32, "... and 32 shared loads reading the bins back")
t.is(r.shared_load.bank_conflicts, 0, "... without bank conflicts")
t.is(r.load.sectors, 128, "histogram shared n=1024: the same 128 global load sectors as global")
-- n = 300 with blocks of 256: 2 blocks (16 warps); 10 warps have elements
-- (the tenth 12 lanes: 2 sectors), but all 16 zero and read back the bins.
r = launch("histogram", {variant = "shared", n = 300})
t.is(r.load.requests, 10, "histogram shared n=300: 10 load requests")
t.is(r.load.sectors, 38, "histogram shared n=300: 9 * 4 + 2 = 38 load sectors")
t.is(r.shared_store.requests, 16, "histogram shared n=300: every warp of both blocks zeroes its bins")
-- bins = 100, blocks of 256: warps 0..3 of a block hold bins (the fourth 4
-- lanes: 96..99), the other four none. 4 blocks: 16 stores, 16 loads.
r = launch("histogram", {variant = "shared", n = 1024, bins = 100})
t.is(r.shared_store.requests, 16, "histogram shared 100 bins: 16 shared stores")
t.is(r.shared_load.wavefronts, 16, "histogram shared 100 bins: 16 wavefronts of shared loads")
-- bins = 1024, blocks of 32: each warp zeroes and reads 32 rounds of bins.
r = launch("histogram", {variant = "shared", n = 64, bins = 1024, block = 32})
t.is(r.shared_store.requests, 64, "histogram shared 1024 bins, blocks of 32: 2 warps * 32 rounds")
-- What the model does not see: which bins the atomics hit.
t.is(launch("histogram", {distribution = "skewed", n = 4096}).load.sectors,
     launch("histogram", {distribution = "uniform", n = 4096}).load.sectors,
     "histogram: the distribution changes only the atomics, which the model does not count")
r = launch("histogram", {})
t.ok(r.footprint_bytes > 120e6, "histogram defaults: buffers over twice a 60 MB L2")
t.is(r.useful_bytes, 4 * ((1 << 25) + 256), "histogram: in[] read once, the counts written once")

---------------------------------------------------------------- bad values
t.raises(function() launch("gather", {pattern = "zigzag"}) end,
         {"'pattern' must be \"random\", \"sorted\" or \"window\", got \"zigzag\""}, "gather: unknown pattern")
t.raises(function() launch("gather", {window = 0}) end, {"'window' must be an integer from 1"}, "gather: window 0")
t.raises(function() launch("gather", {seed = -1}) end, {"'seed' must be an integer from 0"}, "gather: negative seed")
t.raises(function() launch("spmv", {variant = "csr"}) end, {"'variant' must be \"scalar\" or \"vector\""}, "spmv: unknown variant")
t.raises(function() launch("spmv", {nnz_per_row = 65}) end, {"'nnz_per_row' must be an integer from 1 to 64, got 65"},
         "spmv: more non-zeros per row than a warp's instruction list holds")
t.raises(function() launch("spmv", {n = (1 << 24) + 1}) end, {"'n' must be an integer from 1 to 16777216"},
         "spmv: more rows than 32-bit CSR offsets allow")
t.raises(function() launch("histogram", {bins = 0}) end, {"'bins' must be an integer from 1 to 1024, got 0"}, "histogram: no bins")
t.raises(function() launch("histogram", {distribution = "normal"}) end,
         {"'distribution' must be \"uniform\" or \"skewed\""}, "histogram: unknown distribution")
t.raises(function() launch("histogram", {variant = "local"}) end, {"'variant' must be \"global\" or \"shared\""},
         "histogram: unknown variant")

t.done()
