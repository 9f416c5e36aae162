-- gpu_families.lua: the families that have no GPU test file of their own
-- (gather, spmv, histogram) on the GPU over a grid of their parameters:
-- output matches the CPU reference, and the model's global requests and
-- sectors and shared-memory wavefronts equal the hardware counters; at
-- streaming launches over twice the L2, the DRAM read estimate is within 5%
-- of dram__bytes_read. SKIP without a GPU; with WARPLAB_REQUIRE_GPU=1 a
-- missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

t.require_gpu()

local small = 1 << 20
-- Every allowed value of a parameter, as the family declares them.
local function choices(kernel, param)
  for _, p in ipairs(info(kernel).params) do
    if p.name == param then return assert(p.choices, kernel .. "." .. param .. " has no choices") end
  end
  error(kernel .. " has no param " .. param)
end
local grid = {}
local function add(name, params, options)
  grid[#grid + 1] = {name, params, options or {}}
end

for _, pattern in ipairs(choices("gather", "pattern")) do add("gather", {pattern = pattern, n = small}) end
for _, variant in ipairs(choices("spmv", "variant")) do add("spmv", {variant = variant, n = 1 << 16}) end
-- histogram's global atomics are reductions (REDG: atomicAdd's result is
-- unused), compared with op_red's requests and sectors by
-- tap.model_equals_counters, over bins and distributions; its shared
-- atomics (ATOMS) have no counter the model is compared with.
for _, variant in ipairs(choices("histogram", "variant")) do
  for _, distribution in ipairs(choices("histogram", "distribution")) do
    for _, bins in ipairs({1, 7, 256, 1024}) do
      add("histogram", {variant = variant, distribution = distribution, bins = bins, n = small}, {shared = false})
    end
  end
end

local label = t.label

for _, case in ipairs(grid) do
  local name, params, options = case[1], case[2], case[3]
  params.min_samples = 3
  local what = label(name, params)
  local ok, r = pcall(launch, name, params)
  if not ok then
    t.ok(false, what .. ": launches (" .. tostring(r) .. ")")
  else
    t.ok(r.correct == true, what .. ": output matches the CPU reference" .. (r.mismatch and " (" .. r.mismatch .. ")" or ""))
    if options.counts ~= false then t.model_equals_counters(what, r, options) end
  end
end
t.done()
