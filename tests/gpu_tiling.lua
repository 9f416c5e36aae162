-- gpu_tiling.lua: conv2d and matmul on the GPU over a grid of their
-- parameters: output within the family's tolerance of the CPU reference,
-- and the model's global requests and sectors and shared-memory wavefronts
-- equal to the hardware counters. SKIP without a GPU; with
-- WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

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
  t.model_equals_counters(what, r)
  print("# " .. tostring(r):gsub("\n", "\n# "))
end
t.done()
