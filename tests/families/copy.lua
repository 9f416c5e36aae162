-- copy.lua: the copy family, the coalesced stream every other pattern is
-- measured against. On the GPU, as a student's launch: output equal to the
-- CPU reference, sane samples and bandwidth, the model's numbers beside (SKIP
-- without a GPU). On the access model: every vector width launches, a
-- partial warp counted by hand, bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function(device)
  family.gpu_measured(device, {
    {"copy", {}}, {"copy", {vec = 2}}, {"copy", {vec = 4}}, {"copy", {n = 1000, block = 96}},
  })
end)

for _, vec in ipairs({1, 2, 4}) do
  for _, block in ipairs({32, 96, 1024}) do
    local r = launch("copy", {vec = vec, block = block, n = 4096})
    t.ok(r.load.requests == 128 and r.store.requests == 128,
         ("copy vec=%d, block %d: launches, 128 load and 128 store requests"):format(vec, block))
  end
end

-- n = 1000 with blocks of 96: 32 warps with active lanes, the last with 8
-- (threads 992-999). A full warp's 32 * 4 * vec bytes start aligned: 4 * vec
-- sectors; the last warp's 8 * 4 * vec bytes start at 992 * 4 * vec, a
-- multiple of 32: vec sectors.
for _, vec in ipairs({1, 2, 4}) do
  local r = launch("copy", {vec = vec, n = 1000, block = 96})
  t.is(r.load.requests, 32, ("copy vec=%d n=1000 block=96: 32 load requests"):format(vec))
  t.is(r.load.sectors, 31 * 4 * vec + vec, ("copy vec=%d n=1000 block=96: %d load sectors"):format(vec, 31 * 4 * vec + vec))
  t.is(r.store.sectors, r.load.sectors, ("copy vec=%d n=1000 block=96: as many store sectors"):format(vec))
  t.is(r.useful_bytes, 2 * 1000 * 4 * vec, ("copy vec=%d: useful bytes, each element read and written once"):format(vec))
end

t.ok(launch("copy", {}).footprint_bytes > 120e6, "copy defaults: footprint over twice a 60 MB L2")
t.raises(function() launch("copy", {vec = 3}) end, {"bad argument #2 to 'launch'", "'vec' must be 1, 2 or 4, got 3"},
         "copy: vec 3 is refused, naming 1, 2 and 4")

family.done()
