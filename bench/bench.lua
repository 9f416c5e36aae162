-- bench.lua: warplab's half of bench/run, in one process and one run.
-- Prints "key value" lines that bench/run puts beside the harness's figures.
local d = device()
if d.backend ~= "gpu" then error("bench needs a GPU: " .. (d.notice or "sim backend"), 0) end
print("device", d.name)
print("peak_gbs", d.peak_gbs)

-- copy float4 against cudaMemcpy on the same bytes (1 GiB each way).
local copy = launch("copy", {vec = 4, n = 1 << 26})
local memcpy_gbs = measure_copy()
print("copy_vec4_gbs", copy.bandwidth_gbs)
print("memcpy_gbs", memcpy_gbs)
print("copy_vs_memcpy", copy.bandwidth_gbs / memcpy_gbs)

-- The configurations the harness times too (bench/run passes the same sizes).
for _, case in ipairs({ {"offset", "offset", 1}, {"offset", "offset", 0}, {"strided", "stride", 4},
                        {"strided", "stride", 32} }) do
  local kernel, name, value = case[1], case[2], case[3]
  local r = launch(kernel, {[name] = value})
  print(string.format("%s_%d_ms", kernel, value), r.time_ms)
  print(string.format("%s_%d_n", kernel, value), r.params.n)
end

-- Repeatability: five launches of one configuration, spread of their medians.
for _, case in ipairs({ {"offset", {offset = 1}}, {"strided", {stride = 4}}, {"copy", {vec = 4}} }) do
  local medians = {}
  for i = 1, 5 do medians[i] = launch(case[1], case[2]).time_ms end
  table.sort(medians)
  print(case[1] .. "_repeat_spread", (medians[5] - medians[1]) / medians[3])
  print(case[1] .. "_repeat_median_ms", medians[3])
end

dofile("bench/counters.lua")
