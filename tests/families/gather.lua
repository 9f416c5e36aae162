-- gather.lua: the gather family, out[i] = in[idx[i]] with indices drawn at
-- random, sorted within a warp, or from a window. On the GPU, every pattern:
-- output equal to the CPU reference, the model's requests and sectors equal
-- to the hardware counters (SKIP without a GPU). On the access model: every
-- value launches, small cases counted by hand, random gather's sectors
-- counted again in Lua from the same hash, sectors falling with the window,
-- and bad values refused. (tests/families/indirect checks that fill_inputs
-- writes the indices the model uses, and the CPU references on hand-made
-- inputs.)
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {}
  for _, pattern in ipairs(family.choices("gather", "pattern")) do
    cases[#cases + 1] = {"gather", {pattern = pattern, n = 1 << 20}}
  end
  family.gpu_grid(cases)
end)

-- Sectors of the loads through the index only: all loads less idx[]'s,
-- which are coalesced (4 sectors per full warp).
local function gathered_sectors(r, n)
  return r.load.sectors - math.ceil(n / 8)
end

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

-- Bad values.
t.raises(function() launch("gather", {pattern = "zigzag"}) end,
         {"'pattern' must be \"random\", \"sorted\" or \"window\", got \"zigzag\""}, "gather: unknown pattern")
t.raises(function() launch("gather", {window = 0}) end, {"'window' must be an integer from 1"}, "gather: window 0")
t.raises(function() launch("gather", {seed = -1}) end, {"'seed' must be an integer from 0"}, "gather: negative seed")

family.done()
