-- histogram.lua: the histogram family, counts of values in bins with
-- atomics in global memory or in a shared copy per block. On the GPU, every
-- variant and distribution over 1 to 1024 bins: output equal to the CPU
-- reference, the model's requests and sectors and its reductions (REDG)
-- equal to the hardware counters (SKIP without a GPU). On the access model:
-- every value launches, the shared bins' zeroing and reading counted by hand,
-- the distribution changing only the atomics, and bad values refused.
-- (tests/families/indirect checks the CPU reference on hand-made inputs.)
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  -- histogram's global atomics are reductions (REDG: atomicAdd's result is
  -- unused), compared with op_red's requests and sectors by
  -- tap.model_equals_counters, over bins and distributions; its shared
  -- atomics (ATOMS) have no counter the model is compared with.
  local cases = {}
  for _, variant in ipairs(family.choices("histogram", "variant")) do
    for _, distribution in ipairs(family.choices("histogram", "distribution")) do
      for _, bins in ipairs({1, 7, 256, 1024}) do
        cases[#cases + 1] = {"histogram", {variant = variant, distribution = distribution, bins = bins, n = 1 << 20},
                             {shared = false}}
      end
    end
  end
  family.gpu_grid(cases)
end)

for _, variant in ipairs({"global", "shared"}) do
  for _, distribution in ipairs({"uniform", "skewed"}) do
    for _, bins in ipairs({1, 33, 256, 1024}) do
      for _, block in ipairs({32, 256, 1024}) do
        local r = launch("histogram", {variant = variant, distribution = distribution, bins = bins, block = block, n = 3000})
        t.is(r.load.requests, 94, ("histogram %s %s bins=%d block=%d: one load request per warp with elements"):format(
             variant, distribution, bins, block))
      end
    end
  end
end

-- global, n = 1024: 32 warps, one coalesced load each; the atomics are not
-- stores (and not modelled): no store requests, no shared memory.
local r = launch("histogram", {variant = "global", n = 1024})
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

-- Bad values.
t.raises(function() launch("histogram", {bins = 0}) end, {"'bins' must be an integer from 1 to 1024, got 0"}, "histogram: no bins")
t.raises(function() launch("histogram", {distribution = "normal"}) end,
         {"'distribution' must be \"uniform\" or \"skewed\""}, "histogram: unknown distribution")
t.raises(function() launch("histogram", {variant = "local"}) end, {"'variant' must be \"global\" or \"shared\""},
         "histogram: unknown variant")

family.done()
