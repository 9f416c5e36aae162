-- spmv.lua: the spmv family, a CSR matrix times a vector with a thread
-- (scalar) or a warp (vector) per row. On the GPU, both variants: output
-- equal to the CPU reference, the model's requests and sectors equal to the
-- hardware counters (SKIP without a GPU). On the access model: every value
-- launches, a 32x32 matrix counted by hand for both variants, scalar reading
-- over twice the sectors of vector at the defaults, and bad values refused.
-- (tests/families/indirect checks the matrix fill_inputs writes and the CPU
-- reference on hand-made inputs.)
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {}
  for _, variant in ipairs(family.choices("spmv", "variant")) do
    cases[#cases + 1] = {"spmv", {variant = variant, n = 1 << 16}}
  end
  family.gpu_grid(cases)
end)

for _, variant in ipairs({"scalar", "vector"}) do
  for _, nnz in ipairs({1, 2, 16, 31, 32, 33, 64}) do
    local r = launch("spmv", {variant = variant, nnz_per_row = nnz, n = 1000})
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
local r = launch("spmv", {variant = "vector", n = 32, nnz_per_row = 8})
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

-- Bad values.
t.raises(function() launch("spmv", {variant = "csr"}) end, {"'variant' must be \"scalar\" or \"vector\""}, "spmv: unknown variant")
t.raises(function() launch("spmv", {nnz_per_row = 65}) end, {"'nnz_per_row' must be an integer from 1 to 64, got 65"},
         "spmv: more non-zeros per row than a warp's instruction list holds")
t.raises(function() launch("spmv", {n = (1 << 24) + 1}) end, {"'n' must be an integer from 1 to 16777216"},
         "spmv: more rows than 32-bit CSR offsets allow")

family.done()
