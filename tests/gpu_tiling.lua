-- gpu_tiling.lua: conv2d and matmul on the GPU over a grid of their
-- parameters: output within the family's tolerance of the CPU reference,
-- and the model's global requests and sectors and shared-memory wavefronts
-- equal to the hardware counters. SKIP without a GPU; with
-- WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")

t.require_gpu()

local grid = {}
for _, variant in ipairs({"naive", "tiled"}) do
  for _, tile in ipairs({8, 16, 32}) do
    grid[#grid + 1] = {"conv2d", {variant = variant, tile = tile}}
    grid[#grid + 1] = {"conv2d", {variant = variant, tile = tile, radius = 1, width = 517, height = 301}}
    grid[#grid + 1] = {"conv2d", {variant = variant, tile = tile, radius = 8, width = 200, height = 64}}
    grid[#grid + 1] = {"matmul", {variant = variant, tile = tile}}
    grid[#grid + 1] = {"matmul", {variant = variant, tile = tile, m = 100, n = 70, k = 45}}
  end
end
grid[#grid + 1] = {"matmul", {variant = "tiled", tile = 16, m = 64, n = 64, k = 2048}}   -- the largest k: the tolerance

local label = t.label

for _, case in ipairs(grid) do
  local name, params = case[1], case[2]
  params.min_samples = 3
  local r = launch(name, params)
  local what = label(name, params)
  t.ok(r.correct == true, what .. ": output matches the CPU reference" .. (r.mismatch and " (" .. r.mismatch .. ")" or ""))
  local c = r.counters
  if c then
    t.ok(c.load_requests.value == r.model.load.requests and c.load_sectors.value == r.model.load.sectors and
         c.store_requests.value == r.model.store.requests and c.store_sectors.value == r.model.store.sectors,
         what .. string.format(": global requests and sectors, hardware %d/%d %d/%d, model %d/%d %d/%d",
           c.load_requests.value, c.load_sectors.value, c.store_requests.value, c.store_sectors.value,
           r.model.load.requests, r.model.load.sectors, r.model.store.requests, r.model.store.sectors))
    local model_ld = r.shared_load and r.shared_load.model_wavefronts or 0
    local model_st = r.shared_store and r.shared_store.model_wavefronts or 0
    t.ok(c.shared_load_wavefronts.value == model_ld and c.shared_store_wavefronts.value == model_st,
         what .. string.format(": shared wavefronts, hardware %d load %d store, model %d %d",
           c.shared_load_wavefronts.value, c.shared_store_wavefronts.value, model_ld, model_st))
  else
    t.ok(false, what .. ": counters were read" .. (r.counters_unavailable and " (" .. r.counters_unavailable .. ")" or ""))
  end
  print("# " .. tostring(r):gsub("\n", "\n# "))
end
t.done()
