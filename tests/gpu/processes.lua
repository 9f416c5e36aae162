-- gpu_processes.lua: tests that need several warplab processes on the GPU,
-- one after another. This script itself runs with --sim and holds no CUDA
-- context, so the children can have the GPU even in exclusive-process mode.
--  * running out of device memory is one clear line, and the next launch works;
--  * warplab's counters equal Nsight Compute's for the same launches (requests
--    and sectors exactly, DRAM read bytes within 1%), where ncu is installed;
--  * under ncu, warplab's own counters give way with the reason.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local warplab = os.getenv("WARPLAB") or "./warplab"

local function run(command)
  local pipe = io.popen(command .. " 2>&1")
  local output = pipe:read("a")
  pipe:close()
  return output
end

local function child(code, environment)
  return run(string.format("%s %s -e %q", environment or "", warplab, code))
end

if not child("io.write(device().backend)"):find("gpu", 1, true) then
  if os.getenv("WARPLAB_REQUIRE_GPU") == "1" then
    t.ok(false, "a GPU is required here (WARPLAB_REQUIRE_GPU=1) but a child warplab has none")
    return t.done()
  end
  t.skip_all("no GPU")
end

-- Out of device memory: a child that leaves itself 3 GB free asks for 8.6 GB.
local hold = string.format("WARPLAB_TEST_LEAVE_FREE_BYTES=%d", 3 << 30)
-- (counters off: CUPTI's kernel replay would try to save the memory the child holds)
local output = child("print(pcall(launch, 'copy', {n = 1 << 30, counters = false}));" ..
                     " print('next', launch('copy', {n = 1024, counters = false}).correct)", hold)
t.ok(output:find("out of device memory: this launch needs 8.6 GB of buffers", 1, true) ~= nil,
     "running out of memory names the sizes")
t.ok(output:find("next\ttrue", 1, true) ~= nil, "... and the next launch works")
if not output:find("next\ttrue", 1, true) then print("# " .. output:gsub("\n", "\n# ")) end

-- Built without counters (--disable-counters), there is nothing of its own to
-- compare with Nsight Compute's: the rest of this file is about counters.
local core = debug.getregistry()["warplab.core"]
if not core.counters_built then
  t.skip("two shells at once, and the comparison with Nsight Compute", "this warplab was built without hardware counters")
  return t.done()
end

-- Two shells at once on one GPU: the lock takes turns, so both get hardware
-- counters for every launch, and neither's samples overlap the other's kernels.
local both = os.tmpname()
local each = "local got = 0; for i = 1, 6 do local r = launch('offset', {offset = i, n = 1 << 22});" ..
             " if r.counters then got = got + 1 else print('missing: ' .. tostring(r.counters_unavailable)) end end;" ..
             " print('counters ' .. got)"
run(string.format("%s -e %q > %s.a 2>&1 & %s -e %q > %s.b 2>&1; wait", warplab, each, both, warplab, each, both))
for _, side in ipairs({ "a", "b" }) do
  local file = io.open(both .. "." .. side)
  local text = file and file:read("a") or ""
  if file then file:close() end
  t.ok(text:find("counters 6", 1, true) ~= nil, "two shells at once: shell " .. side .. " got counters for all 6 launches")
  if not text:find("counters 6", 1, true) then print("# " .. text:gsub("\n", "\n# ")) end
  os.remove(both .. "." .. side)
end
os.remove(both)

-- Against Nsight Compute.
local ncu = run("command -v ncu || ls /usr/local/cuda/bin/ncu"):match("^(%S+)\n")
if not ncu or not ncu:find("ncu") then
  print(string.format("ok %d - # SKIP ncu not installed: no comparison with Nsight Compute", t.count + 1))
  t.count = t.count + 1
  return t.done()
end

local grid = {
  {"copy", "vec=1, n=4194304"}, {"copy", "vec=4, n=4194304"}, {"copy", "n=1000, block=96"},
  {"offset", "offset=0, n=262144"}, {"offset", "offset=1, n=262144"}, {"offset", "offset=8, n=262144"},
  {"offset", "offset=1, n=67108864"},
  {"strided", "stride=1, n=4194304"}, {"strided", "stride=2, n=4194304"}, {"strided", "stride=8, n=4194304"},
  {"strided", "stride=32, n=4194304"}, {"strided", "stride=3, n=4097"},
}
local keys = {"load_requests", "load_sectors", "store_requests", "store_sectors", "dram_read_bytes"}

-- warplab's own counters for the whole grid, in one child.
local lines = {}
for i, case in ipairs(grid) do
  lines[i] = string.format("r = launch(%q, {%s, min_samples = 3}); io.write(%d, ' ')" ..
    " for _, k in ipairs({'load_requests', 'load_sectors', 'store_requests', 'store_sectors', 'dram_read_bytes'})" ..
    " do io.write(string.format('%%s=%%s %%s ', k, string.format('%%.0f', r.counters[k].value), r.counters[k].metric)) end print()",
    case[1], case[2], i)
end
local ours = {}
output = child(table.concat(lines, "; "))
for line in output:gmatch("[^\n]+") do
  local index = tonumber(line:match("^(%d+) "))
  if index then
    ours[index] = {}
    for key, value, metric in line:gmatch("(%S+)=(%d+) (%S+)") do ours[index][key] = {value = tonumber(value), metric = metric} end
  end
end
if not t.ok(ours[1] and ours[1].load_requests, "warplab read its own counters for the grid") then
  print("# " .. output:gsub("\n", "\n# "))
  return t.done()
end
local metrics = {}
for _, key in ipairs(keys) do metrics[#metrics + 1] = ours[1][key].metric end

-- One launch under ncu: metric -> value, and what the child printed.
local function under_ncu(name, params, counters)
  local code = string.format("r = launch(%q, {%s, counters = %s}); print('unavailable:', r.counters_unavailable)",
                             name, params, counters)
  local out = run(string.format("%s --clock-control none --csv --metrics %s -k regex:'^%s$' --launch-count 1 %s -e %q",
                                ncu, table.concat(metrics, ","), name, warplab, code))
  local values = {}
  for line in out:gmatch("[^\n]+") do
    local metric, value = line:match('"([%w_%.]+)","[^"]*","([%d,%.]+)"$')
    if metric then values[metric] = tonumber((value:gsub(",", ""))) end
  end
  return values, out
end

print(string.format("# %-28s %8s %10s %8s %10s %12s %12s", "launch", "ld req", "ld sectors", "st req", "st sectors",
                    "DRAM read", "ncu DRAM"))
for i, case in ipairs(grid) do
  local values, out = under_ncu(case[1], case[2], "false")
  local mine, label = ours[i], case[1] .. " " .. case[2]
  local exact = true
  for _, key in ipairs(keys) do
    if key ~= "dram_read_bytes" then exact = exact and values[mine[key].metric] == mine[key].value end
  end
  local dram, dram_ncu = mine.dram_read_bytes.value, values[mine.dram_read_bytes.metric]
  t.ok(exact, label .. ": requests and sectors equal ncu's")
  -- Launches that read under 1 MB differ from ncu by a few kB of traffic that
  -- is neither's kernel: up to 4,352 bytes on the H200 (strided n=4097, 52 kB
  -- read, 2026-12-01), so 8 kB there; both sides are the hardware's counts.
  local tolerance = math.max(0.01 * (dram_ncu or 0), (dram_ncu or 0) < 1e6 and 8192 or 0)
  t.ok(dram_ncu and math.abs(dram - dram_ncu) <= tolerance,
       label .. string.format(": DRAM read %d, ncu %s: within 1%% (8 kB under 1 MB)", dram, tostring(dram_ncu)))
  if not exact or not dram_ncu then print("# " .. out:gsub("\n", "\n# ")) end
  print(string.format("# %-28s %8d %10d %8d %10d %12d %12s", label, mine.load_requests.value, mine.load_sectors.value,
                      mine.store_requests.value, mine.store_sectors.value, dram, tostring(dram_ncu)))
end

-- Under another profiler warplab's own counters give way, with the reason.
local _, out = under_ncu("copy", "n=4096", "true")
t.ok(out:find("unavailable:%s+another profiler") ~= nil, "under ncu, counters are unavailable and say why")
t.done()
