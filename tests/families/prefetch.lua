-- prefetch.lua: the prefetch family, chunks loaded plainly, one ahead in
-- registers, or copied ahead into shared memory with cp.async. On the GPU,
-- every variant: output equal to the CPU reference, the model's requests,
-- sectors, shared wavefronts and LDGSTS copies equal to the hardware
-- counters, the DRAM read estimate within 5% at the default size (SKIP
-- without a GPU). On the access model: every variant launches, a partial
-- chunk counted by hand, cp_async's copies counted as LDGSTS, bad values
-- refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  -- cp_async's copies are LDGSTS, which Nsight Compute counts under op_ldgsts
  -- (and neither as loads nor as shared-store wavefronts): the model's ldgsts
  -- requests and sectors must equal those counters (tap.model_equals_counters).
  local cases = {}
  for _, variant in ipairs(family.choices("prefetch", "variant")) do
    cases[#cases + 1] = {"prefetch", {variant = variant, n = 1 << 20}}
  end
  cases[#cases + 1] = {"prefetch", {variant = "none"}, {dram = true}}
  family.gpu_grid(cases)
end)

local list = {}
for _, variant in ipairs({"none", "register", "cp_async"}) do
  for _, n in ipairs({1, 1000, 1024, 5000}) do
    for _, block in ipairs({32, 256, 1024}) do list[#list + 1] = {n = n, block = block, variant = variant} end
  end
end
family.all_launch("prefetch", list, "variant")
-- n=1000, block=256: one block takes 4 chunks of 256. Chunks 0-2 are full:
-- 8 warps x 4 sectors. Chunk 3 holds elements 768..999: warps 0-6 full,
-- warp 7 has 992..999, 8 floats in 1 sector. 32 requests, 3*32 + 28 + 1 sectors.
-- cp_async's copies are LDGSTS: the same requests and sectors, counted as
-- ldgsts, neither as loads nor as shared stores (as the H200 counts them).
local counts = {}
for _, variant in ipairs({"none", "register", "cp_async"}) do
  local r = launch("prefetch", {n = 1000, variant = variant})
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


-- Bad values.
t.raises(function() launch("prefetch", {variant = "async"}) end, {"'variant' must be \"none\", \"register\" or \"cp_async\", got \"async\""}, "prefetch: unknown variant")

-- The family describes itself in both languages.
family.described("prefetch")

family.done()
