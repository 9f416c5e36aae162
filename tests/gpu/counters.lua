-- gpu_counters.lua: hardware counters inside the shell. The model and the
-- hardware agree exactly on requests and sectors for every family over a
-- grid of parameters, and the H200's known values come out. (The comparison
-- with Nsight Compute is in gpu_processes.lua.) SKIP without a GPU; with
-- WARPLAB_REQUIRE_GPU=1 a missing GPU fails.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local d = t.require_gpu()

local first = launch("copy", {n = 1 << 20})
if not debug.getregistry()["warplab.core"].counters_built then   -- --disable-counters
  t.ok(first.counters == nil and tostring(first.counters_unavailable):find("without hardware counters", 1, true) ~= nil,
       "built without counters: a launch has none, and says why (" .. tostring(first.counters_unavailable) .. ")")
  return t.done()
end
if not t.ok(first.counters ~= nil, "counters are read on this GPU" ..
            (first.counters_unavailable and ": " .. first.counters_unavailable or "")) then
  return t.done()
end
t.is(first.counters.dram_read_bytes.metric, "dram__bytes_read.sum", "each counter carries its ncu metric name")
t.is(first.load.source, "hardware", "load comes from the hardware")

-- The grid: every family, parameters that change the access pattern.
local grid = {
  {"copy", {vec = 1, n = 1 << 22}}, {"copy", {vec = 2, n = 1 << 22}}, {"copy", {vec = 4, n = 1 << 22}},
  {"copy", {n = 1000, block = 96}},
  {"strided", {stride = 3, n = 4097}}, {"offset", {offset = 5, n = 1001, block = 64}},
}
for offset = 0, 8 do grid[#grid + 1] = {"offset", {offset = offset, n = 262144}} end
for _, stride in ipairs({1, 2, 4, 8, 16, 32}) do grid[#grid + 1] = {"strided", {stride = stride, n = 4194304}} end

local label = t.label

local measured = {}   -- by label, for the known values below
for _, case in ipairs(grid) do
  local name, params = case[1], case[2]
  params.min_samples = 3
  local r = launch(name, params)
  measured[label(name, params)] = r
  t.model_equals_counters(label(name, params), r, {shared = false, dram = r.footprint_bytes > 2 * d.l2_bytes})
end

-- Launched together, in one counter batch (a range pushed around each
-- kernel, every pass replayed by warplab), counters equal those of single
-- launches: requests, sectors and shared wavefronts exactly, DRAM within 1%.
-- transpose has shared memory; gather sends its indices again before each pass.
local function same_counters(a, b)
  local exact = {"load_requests", "load_sectors", "store_requests", "store_sectors",
                 "shared_load_wavefronts", "shared_store_wavefronts"}
  if not (a and b) then return false end
  for _, key in ipairs(exact) do
    if a[key].value ~= b[key].value then return false end
  end
  return math.abs(a.dram_read_bytes.value - b.dram_read_bytes.value) <= 0.01 * b.dram_read_bytes.value
end
local batches = {
  {"strided", {{stride = 1, n = 1 << 20}, {stride = 8, n = 1 << 20}, {stride = 32, n = 1 << 20}}},
  {"transpose", {{variant = "shared", rows = 1024, cols = 1024}, {variant = "padded", rows = 1024, cols = 1024}}},
  {"gather", {{pattern = "random", n = 1 << 20}, {pattern = "sorted", n = 1 << 20}}},
}
for _, batch in ipairs(batches) do
  local name, configs = batch[1], batch[2]
  for _, params in ipairs(configs) do params.min_samples = 3 end
  local together = launch(name, configs)
  for i, params in ipairs(configs) do
    local alone = launch(name, params)
    t.ok(same_counters(together[i].counters, alone.counters),
         label(name, params) .. ": counters of a batched launch equal a single launch's" ..
         (together[i].counters_unavailable and " (" .. together[i].counters_unavailable .. ")" or ""))
    t.model_equals_counters(label(name, params) .. " in a batch", together[i])
  end
end

-- The H200's known values.
local function spr(name, params) return measured[label(name, params)].load.sectors_per_request end
t.is(spr("offset", {offset = 0, n = 262144}), 4.0, "offset 0: 4.00 sectors per request")
for offset = 1, 7 do t.is(spr("offset", {offset = offset, n = 262144}), 5.0, "offset " .. offset .. ": 5.00") end
t.is(spr("offset", {offset = 8, n = 262144}), 4.0, "offset 8: 4.00")
for stride, expected in pairs({[1] = 4, [2] = 8, [4] = 16, [8] = 32, [16] = 32, [32] = 32}) do
  t.is(spr("strided", {stride = stride, n = 4194304}), expected, "strided " .. stride .. ": " .. expected)
end

-- config{counters=false} turns the counted run off.
t.is(launch("copy", {n = 4096, counters = false}).counters, nil, "counters = false: no counters")

t.done()
