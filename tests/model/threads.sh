#!/bin/sh
# model_threads.sh — the access model counts the same with one thread and with
# several (they share the DRAM bitmaps and sum their own counts), for every
# family at its defaults and at a few shapes with partial warps and edges.
warplab=${WARPLAB:-./warplab}
code='
local function line(r)
  local parts = {r.kernel}
  for _, field in ipairs({"load", "store", "shared_load", "shared_store", "constant", "dram"}) do
    local t = r.model[field] or r[field]
    if t then
      local keys = {}
      for k, v in pairs(t) do if type(v) == "number" then keys[#keys + 1] = k end end
      table.sort(keys)
      for _, k in ipairs(keys) do parts[#parts + 1] = field .. "." .. k .. "=" .. string.format("%.17g", t[k]) end
    end
  end
  return table.concat(parts, " ")
end
for _, k in ipairs(kernels()) do print(line(launch(k.name, {}))) end
print(line(launch("conv2d", {variant = "tiled", tile = 16, width = 517, height = 301, radius = 3})))
print(line(launch("matmul", {variant = "tiled", tile = 8, m = 100, n = 70, k = 45})))
print(line(launch("transpose", {variant = "shared", tile = 16, rows = 1000, cols = 777})))
print(line(launch("offset", {offset = 3, n = 1000003})))'
one=$(WARPLAB_MODEL_THREADS=1 "$warplab" --sim -e "$code" 2>&1)
three=$(WARPLAB_MODEL_THREADS=3 "$warplab" --sim -e "$code" 2>&1)
lines=$(printf '%s\n' "$one" | wc -l)
if [ "$one" = "$three" ] && [ "$lines" -ge 24 ]; then
  echo "ok 1 - one thread and three count the same, in all $lines launches"
else
  echo "not ok 1 - one thread and three differ"
  printf '%s\n' "$one" > one.txt; printf '%s\n' "$three" > three.txt
  diff one.txt three.txt | head -20 | sed 's/^/# /'; rm -f one.txt three.txt
fi
echo "1..1"
