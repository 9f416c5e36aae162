-- reuse.lua: the reuse family, each thread summing `reuse` neighbours read
-- from a shared tile or again from global memory. On the GPU, both variants
-- at 1, 10 and 13 uses: output equal to the CPU reference, the model's
-- requests, sectors and shared wavefronts equal to the hardware counters
-- (SKIP without a GPU). On the access model: every value launches, small
-- launches counted by hand, the lesson in the numbers (global memory asked
-- reuse times as often, DRAM reading each block once), bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {}
  for _, variant in ipairs(family.choices("reuse", "variant")) do
    for _, reuse in ipairs({1, 10, 13}) do cases[#cases + 1] = {"reuse", {variant = variant, reuse = reuse, n = 1 << 20}} end
  end
  family.gpu_grid(cases)
end)

local list = {}
for reuse = 1, 13 do
  for _, variant in ipairs({"shared", "global"}) do
    for _, block in ipairs({32, 96, 1024}) do
      list[#list + 1] = {n = 1000, block = block, reuse = reuse, variant = variant}
    end
  end
end
family.all_launch("reuse", list, "reuse 1..13 with both variants")

-- One block of 256 (8 warps), reuse=3. shared: each warp loads its 32 floats
-- (4 sectors), stores them to the tile (1 wavefront), reads the tile 3 times
-- (consecutive words, 1 wavefront each, also in warp 7 whose lanes wrap to
-- words 0..k-1 of other banks) and stores 32 floats (4 sectors).
local r = launch("reuse", {n = 256, reuse = 3, variant = "shared"})
t.is(r.load.requests, 8, "reuse shared: one load request per warp")
t.is(r.load.sectors, 32, "reuse shared: 4 sectors each")
t.is(r.shared_store.requests, 8, "reuse shared: one tile store per warp")
t.is(r.shared_store.wavefronts, 8, "reuse shared: conflict-free tile store")
t.is(r.shared_load.requests, 24, "reuse shared: 3 tile reads per warp")
t.is(r.shared_load.wavefronts, 24, "reuse shared: each one wavefront, also where warp 7 wraps")
t.is(r.store.sectors, 32, "reuse shared: 4 store sectors per warp")
-- global: 3 loads per warp. k=0 is aligned: 8 x 4 sectors. For k=1 and 2 a
-- warp's 32 floats start 4 or 8 bytes into a sector: 5 sectors for warps 0-6;
-- warp 7 reads elements 225..255 or 226..255 (sectors 28-31) and wraps to
-- 0 or 0..1 (sector 0): 5 too. 32 + 2 * 40 = 112.
local g = launch("reuse", {n = 256, reuse = 3, variant = "global"})
t.is(g.load.requests, 24, "reuse global: a load request for every use")
t.is(g.load.sectors, 112, "reuse global: 112 sectors (hand count)")
t.is(g.shared_load, nil, "reuse global: no shared memory")
-- The lesson: global memory is asked reuse times as often; DRAM still sees each block once.
local s10, g10 = launch("reuse", {n = 1 << 16}), launch("reuse", {n = 1 << 16, variant = "global"})
t.is(g10.load.requests, 10 * s10.load.requests, "reuse=10: global makes 10x the load requests of shared")
t.ok(g10.load.sectors > 10 * s10.load.sectors, "... and over 10x the sectors (the shifted reads straddle sectors)")
t.is(s10.shared_load.requests, 10 * s10.load.requests, "... which shared serves from the tile instead")
t.is(g10.model.dram.read_bytes, s10.model.dram.read_bytes, "... while DRAM reads each block once either way")
-- A partial last block: n=40, block=32. Warp 0 is a whole block: its lanes
-- wrap within their own 128 bytes, 4 sectors for every use. Block 1 holds 8
-- elements, so its lanes read elements 32 + (t+k) % 8: one sector.
local p = launch("reuse", {n = 40, block = 32, reuse = 13, variant = "global"})
t.is(p.load.requests, 26, "reuse n=40: 13 uses in each of 2 warps")
t.is(p.load.sectors, 13 * 4 + 13 * 1, "reuse n=40: 4 sectors a use in warp 0, 1 in warp 1 (hand count)")


-- Bad values.
t.raises(function() launch("reuse", {reuse = 14}) end, {"'reuse' must be an integer from 1 to 13, got 14"}, "reuse: too many uses")
t.raises(function() launch("reuse", {reuse = 0}) end, {"'reuse' must be an integer from 1 to 13, got 0"}, "reuse: no use")
t.raises(function() launch("reuse", {variant = "texture"}) end, {"'variant' must be \"shared\" or \"global\""}, "reuse: unknown variant")

-- The family describes itself in both languages.
family.described("reuse")

family.done()
