-- prelude.lua: the part of warplab's Lua API written in Lua. It is loaded
-- into every session before anything else, with the C core table as its
-- argument, and defines how results, devices and kernels look on screen.
local core = ...

local fmt = string.format

---------------------------------------------------------------------------
-- Number formatting
---------------------------------------------------------------------------

-- 81918 -> "81,918"
local function commas(n)
  local text = fmt("%d", n)
  local sign, digits = text:match("^(-?)(%d+)$")
  digits = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
  return sign .. digits
end

-- 536870912 -> "536.9 MB" (decimal units, as bandwidth is quoted)
local function bytes(n)
  local units = { "B", "kB", "MB", "GB", "TB" }
  local value, unit = n, 1
  while value >= 1000 and unit < #units do
    value, unit = value / 1000, unit + 1
  end
  return unit == 1 and fmt("%d B", n) or fmt("%.1f %s", value, units[unit])
end

-- 62914560 -> "60 MiB" for sizes that are powers of two in spirit
local function mebibytes(n)
  return fmt("%g MiB", n / (1 << 20))
end

local function percent(x)
  return fmt("%d%%", math.floor(100 * x + 0.5))
end

-- A bar of `width` cells, `fraction` of them full.
local function bar(fraction, width)
  local full = math.floor(fraction * width + 0.5)
  local on, off = "#", "."
  if core.fancy() then on, off = "█", "░" end
  return on:rep(full) .. off:rep(width - full)
end

---------------------------------------------------------------------------
-- The registry as Lua sees it
---------------------------------------------------------------------------

local families = core.families()
local family_by_name = {}
for _, family in ipairs(families) do family_by_name[family.name] = family end

-- A parameter's value as the user writes it: 262,144, {32,8}, "cg" as cg.
local function value_text(value)
  if type(value) == "table" then return fmt("{%d,%d}", value[1], value[2]) end
  return math.type(value) == "integer" and commas(value) or tostring(value)
end

-- "n=262,144 block=256 offset=1", in declaration order
local function params_text(kernel, params)
  local parts = {}
  for _, p in ipairs(family_by_name[kernel].params) do
    parts[#parts + 1] = p.name .. "=" .. value_text(params[p.name])
  end
  return table.concat(parts, " ")
end

---------------------------------------------------------------------------
-- Results
---------------------------------------------------------------------------

local Result = core.Result
Result.__name = "warplab.result"

-- A value as a message shows it: strings quoted, escaped and cut short; other values by their type.
local quote = core.quote

-- What every result has (docs/results.md), with its type; "?" marks a field
-- that may be missing. The parameters are checked against the family.
local result_fields = {
  { "kernel", "string" }, { "params", "table" }, { "backend", "string" }, { "useful_bytes", "number" },
  { "footprint_bytes", "number" }, { "warnings", "table" }, { "load", "table" }, { "store", "table" },
  { "dram", "table" }, { "model", "table" }, { "model.load", "table" }, { "model.store", "table" },
  { "model.dram", "table" }, { "model.time_ms", "number" }, { "model.bandwidth_gbs", "number" },
  { "model.device", "string" }, { "model.limit", "string?" }, { "time_ms", "number?" }, { "samples", "table?" },
  { "bandwidth_gbs", "number?" }, { "cache", "string?" }, { "counters", "table?" }, { "correct", "boolean?" },
  { "mismatch", "string?" }, { "shared_load", "table?" }, { "shared_store", "table?" }, { "constant", "table?" },
}
for _, traffic in ipairs({ "load", "store", "model.load", "model.store" }) do
  for _, field in ipairs({ "requests", "sectors", "lines", "sectors_per_request", "ideal", "useful_fraction" }) do
    result_fields[#result_fields + 1] = { traffic .. "." .. field, "number" }
  end
  result_fields[#result_fields + 1] = { traffic .. ".source", "string" }
end

local function field_of(value, path)
  for part in path:gmatch("[^.]+") do
    if type(value) ~= "table" then return nil end
    value = rawget(value, part)
  end
  return value
end

local parameter_types = { integer = "integer", string = "string", ["block shape"] = "table" }

-- nil when v is a result as launch() made it, else what is wrong with it, for messages.
local function result_problem(v)
  if getmetatable(v) ~= Result then return "got " .. quote(v) end
  for _, field in ipairs(result_fields) do
    local path, wanted = field[1], field[2]
    local value, optional = field_of(v, path), wanted:sub(-1) == "?"
    if not (value == nil and optional) and type(value) ~= wanted:gsub("%?$", "") then
      return fmt("got a result whose '%s' is %s", path, value == nil and "missing" or "a " .. type(value))
    end
  end
  local family = family_by_name[v.kernel]
  if not family then return fmt("got a result of kernel %s, which is none", quote(v.kernel)) end
  for _, p in ipairs(family.params) do
    local value = rawget(v.params, p.name)
    local ok = math.type(value) == parameter_types[p.type] or type(value) == parameter_types[p.type]
    if ok and p.type == "block shape" then ok = math.type(value[1]) == "integer" and math.type(value[2]) == "integer" end
    if not ok then return fmt("got a result whose 'params.%s' is %s", p.name, quote(value, '"')) end
  end
  return nil
end

-- Raises "bad argument #arg to 'name' (result of launch() expected, got ...)" unless v is a result.
local function check_result(v, arg, name)
  local problem = result_problem(v)
  if problem then error(fmt("bad argument #%d to '%s' (result of launch() expected, %s)", arg, name, problem), 3) end
end

-- A __tostring that cannot fail on a value whose fields were changed: what
-- `show` makes of it, or a line saying why it cannot be shown.
local function guarded(kind, show, problem_of)
  return function(v)
    local problem = problem_of and problem_of(v)
    local ok, text = true, nil
    if not problem then ok, text = pcall(show, v) end
    if ok and type(text) == "string" then return text end
    if not ok and tostring(text):find("interrupted!", 1, true) then error(text, 0) end
    if problem then return (problem:gsub("^got ", "")) .. ", so it cannot be shown" end
    return kind .. " whose fields were changed, so it cannot be shown"
  end
end


-- "5.00 sectors/request   model 5.00   ideal 4.00   bar", then the counts;
-- a disagreement between the hardware and the model is marked with "!=".
local function traffic_lines(label, t, model, measured_backend)
  local tag = t.source == "model" and measured_backend and " (model)" or ""
  local beside = t.source == "hardware" and fmt("   model %.2f", model.sectors_per_request) or ""
  local counts = fmt("%s requests · %s sectors · %s lines", commas(t.requests), commas(t.sectors),
                     commas(t.lines))
  if t.source == "hardware" then
    local same = t.requests == model.requests and t.sectors == model.sectors
    counts = fmt("%s requests · %s sectors (hardware)%s", commas(t.requests), commas(t.sectors),
                 same and " = model" or fmt("  != model %s requests · %s sectors",
                                             commas(model.requests), commas(model.sectors)))
  end
  return table.concat({
    fmt("  %-10s %.2f sectors/request%s%s   ideal %.2f   %s %s useful", label, t.sectors_per_request,
        tag, beside, t.ideal, bar(t.useful_fraction, 10), percent(t.useful_fraction)),
    fmt("  %-10s %s", "", counts),
  }, "\n")
end

-- The model's DRAM estimate, for a cold L2.
local function model_dram_text(dram)
  if not dram.read_bytes then return "not estimated: " .. dram.note end
  return fmt("%s read · at most %s written", bytes(dram.read_bytes), bytes(dram.write_bytes))
end

-- DRAM, cache and shared-memory lines from the hardware counters (or the model's DRAM estimate).
local function counter_lines(r)
  local c = r.counters
  if not c then
    local lines = { fmt("  DRAM       %s (modelled, cold L2)", model_dram_text(r.model.dram)) }
    if r.counters_unavailable then lines[2] = "  counters   unavailable: " .. r.counters_unavailable end
    return lines
  end
  local lines = {
    fmt("  DRAM       %s read · %s written (hardware)   model %s", bytes(c.dram_read_bytes.value),
        bytes(c.dram_write_bytes.value), model_dram_text(r.model.dram)),
    fmt("  caches     L1 hit %.1f%% · L2 hit %.1f%% · L2 served %s sectors to L1, took %s from it",
        c.l1_hit_rate.value, c.l2_hit_rate.value, commas(c.l2_read_sectors.value),
        commas(c.l2_write_sectors.value)),
  }
  local wavefronts = c.shared_load_wavefronts.value + c.shared_store_wavefronts.value
  if wavefronts > 0 then
    lines[#lines + 1] = fmt("  shared     %s load / %s store wavefronts · %s / %s bank conflicts",
      commas(c.shared_load_wavefronts.value), commas(c.shared_store_wavefronts.value),
      commas(c.shared_load_conflicts.value), commas(c.shared_store_conflicts.value))
  end
  return lines
end

local function header_line(r)
  local left = r.kernel .. "  " .. params_text(r.kernel, r.params)
  local right
  if r.backend == "gpu" then
    right = fmt("gpu · %s L2 · %d samples", r.cache, #r.samples)
  else
    right = "sim · modelled, not measured"
  end
  local gap = math.max(2, 78 - utf8.len(left) - utf8.len(right))
  return left .. (" "):rep(gap) .. right
end

local function time_lines(r)
  local m = r.model
  if not r.time_ms then
    return table.concat({
      fmt("  time       ≈ %.4f ms (modelled for %s, limited by %s)", m.time_ms, m.device, m.limit),
      fmt("  bandwidth  ≈ %.0f GB/s useful (modelled)", m.bandwidth_gbs),
    }, "\n")
  end
  local d = device()
  local clock = r.sm_clock_mhz and fmt(" · SM %.0f MHz", r.sm_clock_mhz) or ""
  local copy = r.copy_fraction and fmt(" · %s of copy %.0f GB/s", percent(r.copy_fraction), d.copy_gbs) or ""
  local lines = {
    fmt("  time       %.4f ms  (IQR ±%.1f%%, min %.4f, max %.4f)%s   model %.4f", r.time_ms,
        50 * r.time_iqr, r.time_min_ms, r.time_max_ms, clock, m.time_ms),
    fmt("  bandwidth  %.0f GB/s useful · %s of peak %.0f GB/s%s", r.bandwidth_gbs,
        percent(r.peak_fraction), d.peak_gbs, copy),
  }
  return table.concat(lines, "\n")
end

local function check_line(r)
  if r.correct == nil then return nil end
  if r.correct then return "  check      output matches the CPU reference" end
  return "  check      WRONG: " .. r.mismatch
end

local function result_text(r)
  local measured = r.backend == "gpu"
  local lines = {
    header_line(r),
    time_lines(r),
    traffic_lines("loads", r.load, r.model.load, measured),
    traffic_lines("stores", r.store, r.model.store, measured),
  }
  for _, kind in ipairs({ "shared_load", "shared_store" }) do
    local sh = r[kind]
    if sh then
      lines[#lines + 1] = fmt("  %-10s %s requests · %s wavefronts (ideal %s) · %s bank conflicts%s",
                              kind == "shared_load" and "shared ld" or "shared st", commas(sh.requests),
                              commas(sh.wavefronts), commas(sh.ideal_wavefronts), commas(sh.bank_conflicts),
                              sh.source == "hardware" and fmt(" (hardware; model %s)", commas(sh.model_wavefronts))
                              or (r.backend == "gpu" and " (model)" or ""))
    end
  end
  if r.constant then
    lines[#lines + 1] = fmt("  constant   %s requests · %s passes (%.2f a request: the constant cache serves one address a pass, model)",
                            commas(r.constant.requests), commas(r.constant.passes), r.constant.passes / r.constant.requests)
  end
  for _, line in ipairs(counter_lines(r)) do lines[#lines + 1] = line end
  lines[#lines + 1] = fmt("  footprint  %s in buffers · %s useful bytes moved", bytes(r.footprint_bytes),
                          bytes(r.useful_bytes))
  lines[#lines + 1] = check_line(r)
  for _, warning in ipairs(r.warnings) do lines[#lines + 1] = "  note       " .. tostring(warning) end
  return table.concat(lines, "\n")
end
Result.__tostring = guarded("a result", result_text, result_problem)

---------------------------------------------------------------------------
-- Warp maps: one warp's accesses, line by line, sector by sector
---------------------------------------------------------------------------

-- "0-30", "31", "0, 4, 8-11": sorted lane numbers as ranges.
local function lane_ranges(lanes)
  table.sort(lanes)
  local parts, first = {}, 1
  for i = 1, #lanes do
    if i == #lanes or lanes[i + 1] ~= lanes[i] + 1 then
      parts[#parts + 1] = first == i and tostring(lanes[i]) or lanes[first] .. "-" .. lanes[i]
      first = i + 1
    end
  end
  return table.concat(parts, ", ")
end

-- Marks, for one access, the bytes used per 128-byte line and the lanes in each line.
local function lines_of(access)
  local lines = {}
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      for byte = offset, offset + access.bytes - 1 do
        local line = byte // 128
        local entry = lines[line] or { used = {}, lanes = {}, seen = {} }
        lines[line] = entry
        entry.used[byte % 128] = true
        if not entry.seen[lane] then entry.seen[lane] = true; entry.lanes[#entry.lanes + 1] = lane end
      end
    end
  end
  return lines
end

-- One line as 4 sectors of 8 four-byte cells: used, fetched but unused, not fetched.
local function line_row(entry, marks)
  local sectors, fetched, used = {}, 0, 0
  for sector = 0, 3 do
    local cells, any = {}, false
    for cell = 0, 7 do
      local hit = false
      for byte = 0, 3 do
        if entry.used[sector * 32 + cell * 4 + byte] then hit = true; used = used + 1 end
      end
      cells[cell + 1] = hit
      any = any or hit
    end
    local text = {}
    for cell = 1, 8 do text[cell] = not any and marks.none or cells[cell] and marks.used or marks.unused end
    sectors[#sectors + 1] = table.concat(text)
    if any then fetched = fetched + 1 end
  end
  return table.concat(sectors, " "), fetched, used
end

local function draw_access(access, marks)
  local lines = lines_of(access)
  local order = {}
  for line in pairs(lines) do order[#order + 1] = line end
  table.sort(order)
  local rows, sectors, used, lanes = {}, 0, 0, 0
  for _ in pairs(access.lanes) do lanes = lanes + 1 end
  for _, line in ipairs(order) do
    local row, fetched, bytes_used = line_row(lines[line], marks)
    sectors, used = sectors + fetched, used + bytes_used
    rows[#rows + 1] = fmt("  +%-9d %s   lane%s %s", line * 128, row, #lines[line].lanes > 1 and "s" or "",
                          lane_ranges(lines[line].lanes))
  end
  local ideal = (lanes * access.bytes + 31) // 32
  table.insert(rows, 1, fmt("%s %s[] · %d-byte elements · %d lanes · %d sector%s (ideal %d) · %d of %d fetched bytes used (%s)",
    access.kind, access.buffer or "?", access.bytes, lanes, sectors, sectors == 1 and "" or "s", ideal, used,
    32 * sectors, percent(sectors > 0 and used / (32 * sectors) or 1)))
  return table.concat(rows, "\n"), sectors, used
end

-- A shared-memory access: for each of the 32 banks, how many distinct words the lanes hit in it.
local function draw_shared(access)
  local words, lanes = {}, 0
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      lanes = lanes + 1
      for word = offset // 4, (offset + access.bytes - 1) // 4 do words[word] = true end
    end
  end
  local per_bank, header, counts = {}, {}, {}
  for word in pairs(words) do per_bank[word % 32] = (per_bank[word % 32] or 0) + 1 end
  for bank = 0, 31 do
    header[#header + 1] = fmt("%2d", bank)
    counts[#counts + 1] = fmt("%2s", per_bank[bank] and tostring(per_bank[bank]) or "-")
  end
  local ideal = (lanes * access.bytes + 127) // 128
  return table.concat({
    fmt("%s · %d-byte elements · %d lanes · %d wavefront%s (ideal %d)%s", access.kind, access.bytes, lanes,
        access.wavefronts, access.wavefronts == 1 and "" or "s", ideal,
        access.wavefronts > ideal and fmt(" · %d extra from bank conflicts", access.wavefronts - ideal) or ""),
    "  bank  " .. table.concat(header, " "),
    "  words " .. table.concat(counts, " "),
  }, "\n"), 0, 0
end

-- A constant-memory load: one pass per distinct address.
local function draw_constant(access)
  local seen, passes, lanes = {}, 0, 0
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      lanes = lanes + 1
      if not seen[offset] then seen[offset] = true; passes = passes + 1 end
    end
  end
  return fmt("constant load · %d-byte elements · %d lanes · %d distinct address%s: %d pass%s of the constant cache",
             access.bytes, lanes, passes, passes == 1 and "" or "es", passes, passes == 1 and "" or "es"), 0, 0
end

-- The map of one warp of a launch: every memory instruction, then the totals.
local function warp_map(kernel, params, warp)
  warp = warp or 0
  local marks = core.fancy() and { used = "█", unused = "░", none = "·" } or { used = "#", unused = ".", none = "-" }
  local accesses = core.warp(kernel, params, warp)
  local parts = { fmt("warp %d of %s  %s · lanes 0-31 are threads %d-%d · one cell = 4 bytes, %s used, %s fetched and unused, %s not fetched",
                      warp, kernel, params_text(kernel, params), warp * 32, warp * 32 + 31, marks.used, marks.unused, marks.none) }
  local requests, sectors, used = 0, 0, 0
  for _, access in ipairs(accesses) do
    if next(access.lanes) then
      local text, s, u
      local global = access.kind == "load" or access.kind == "store"
      if access.kind == "constant load" then text, s, u = draw_constant(access)
      elseif not global then text, s, u = draw_shared(access)
      else text, s, u = draw_access(access, marks) end
      parts[#parts + 1] = text
      if global then requests = requests + 1 end
      sectors, used = sectors + s, used + u
    end
  end
  parts[#parts + 1] = fmt("warp %d: %d global requests · %d sectors · %d of %d fetched bytes used (%s)", warp, requests,
                          sectors, used, 32 * sectors, percent(sectors > 0 and used / (32 * sectors) or 1))
  return table.concat(parts, "\n")
end

-- result.map: the warp map of warp 0, drawn when it is first read.
function Result.__index(r, key)
  if key == "map" then
    local map = warp_map(rawget(r, "kernel"), rawget(r, "params"), 0)
    rawset(r, "map", map)
    return map
  end
end

-- show(result [, warp]): draws the warp map of one warp of a launch (warp 0 by default).
function show(result, warp)
  check_result(result, 1, "show")
  if warp ~= nil and math.type(warp) ~= "integer" then
    error(fmt("bad argument #2 to 'show' (warp number expected, got %s)", quote(warp, '"')), 2)
  end
  local ok, map = pcall(warp_map, rawget(result, "kernel"), rawget(result, "params"), warp)
  if not ok then   -- core.warp's argument #3 is show's #2, the rest come from the result (#1)
    local arg, problem = tostring(map):match("bad argument #(%d) to '[^']*' %((.*)%)$")
    if not arg then error(map, 0) end
    error(fmt("bad argument #%d to 'show' (%s)", arg == "3" and 2 or 1, problem), 2)
  end
  print(map)
end

---------------------------------------------------------------------------
-- Device
---------------------------------------------------------------------------

local Device = core.Device
Device.__name = "warplab.device"

local function device_text(d)
  local lines = {
    fmt("%s · sm_%s · %d SMs · L2 %s · %s memory", d.name, d.compute_capability:gsub("%.", ""),
        d.sm_count, mebibytes(d.l2_bytes), bytes(d.memory_bytes)),
    fmt("memory bus %d bits at %.0f MHz · peak %.0f GB/s (2 × clock × bus width / 8)",
        d.bus_width_bits, d.memory_clock_mhz, d.peak_gbs),
    d.copy_gbs and fmt("measured copy ceiling %.0f GB/s (cudaMemcpy device to device, read + written)",
                       d.copy_gbs) or "copy ceiling: not measured (no GPU)",
    "backend " .. d.backend .. (d.backend == "sim" and ": numbers are the access model's" or ": CUDA"),
  }
  if d.notice then lines[#lines + 1] = d.notice end
  return table.concat(lines, "\n")
end
Device.__tostring = guarded("a device() table", device_text)

---------------------------------------------------------------------------
-- kernels() and info()
---------------------------------------------------------------------------

local KernelList = { __name = "warplab.kernels" }

KernelList.__tostring = guarded("a kernels() list", function(list)
  local lines = {}
  for _, k in ipairs(list) do lines[#lines + 1] = fmt("  %-13s %s", k.name, k.summary) end
  return table.concat(lines, "\n")
end)

-- A family's text in the session's language (--lang, else LANG).
local function localized(t, field)
  return core.lang() == "zh" and t[field .. "_zh"] or t[field]
end

-- A module's message in the session's language: messages[key] is {en=, zh=}, formatted with the rest.
local function message(messages, key, ...)
  local m = messages[key]
  return fmt(m[core.lang()] or m.en, ...)
end

-- kernels(): the kernel families, each {name=, summary=, teaches=}, in the session's language.
function kernels()
  local list = {}
  for i, f in ipairs(families) do
    list[i] = { name = f.name, summary = localized(f, "summary"), teaches = localized(f, "teaches") }
  end
  return setmetatable(list, KernelList)
end

local Info = { __name = "warplab.info" }

local function info_text(f)
  local zh = core.lang() == "zh"
  local lines = {
    f.name .. " — " .. localized(f, "summary"),
    (zh and "教学要点：" or "teaches: ") .. localized(f, "teaches"),
    zh and "参数：" or "parameters:",
  }
  for _, p in ipairs(f.params) do
    local default = type(p.default) == "table" and value_text(p.default) or tostring(p.default)
    lines[#lines + 1] = fmt("  %-8s %-8s default %-12s %s", p.name, p.type, default, p.allowed)
    lines[#lines + 1] = fmt("  %-8s %s", "", localized(p, "doc"))
  end
  lines[#lines + 1] = "kernel source (as compiled):"
  lines[#lines + 1] = f.source
  return table.concat(lines, "\n")
end
Info.__tostring = guarded("an info() table", info_text)

local function copy_table(t)
  local copy = {}
  for k, v in pairs(t) do copy[k] = type(v) == "table" and copy_table(v) or v end
  return copy
end

-- info(name): a family's declaration: summary, parameters, what it teaches, source.
function info(name)
  local problem = type(name) ~= "string" and "kernel name expected, got " .. quote(name) or core.kernel_problem(name)
  if problem then error(fmt("bad argument #1 to 'info' (%s)", problem), 2) end
  return setmetatable(copy_table(family_by_name[name]), Info)
end

---------------------------------------------------------------------------
-- alloc_alignment(): addresses and the power of two each is aligned to
---------------------------------------------------------------------------

local Allocations = core.Allocations

Allocations.__tostring = guarded("an alloc_alignment() list", function(list)
  local lines = {}
  for i, a in ipairs(list) do
    local power = math.floor(math.log(a.alignment, 2) + 0.5)
    lines[i] = fmt("  %2d  %-18s aligned to 2^%d = %s bytes%s", i, a.address, power, commas(a.alignment),
                   a.alignment >= 256 and "" or "  (under 256!)")
  end
  lines[#lines + 1] = list.modelled and "  (modelled: the sim backend has no cudaMalloc to ask)"
                      or "  (from cudaMalloc on this GPU)"
  return table.concat(lines, "\n")
end)

---------------------------------------------------------------------------
-- help()
---------------------------------------------------------------------------

local topics = {
  launch = [[
launch(name, params) runs one kernel and returns a result table.
  launch("offset", {offset=1})       params you leave out take their defaults
  launch("strided", <stride=4>)      the same as {stride=4}
  r = launch("copy"); r.load.sectors_per_request
  launch("offset", {{offset=0}, {offset=1}})   several at once: a list of results
On a GPU it measures time, checks the output against a CPU reference and
reads hardware counters; without one (or with --sim) the access model
gives the traffic.]],
  result = [[
A result table has: kernel, params, backend ("gpu" or "sim"), useful_bytes,
footprint_bytes, load and store (requests, sectors, lines, bytes,
sectors_per_request, ideal, useful_fraction, source), model (the access
model's load and store), and on a GPU time_ms, time_min_ms, time_max_ms,
time_iqr, samples, bandwidth_gbs, cache, correct (and mismatch when wrong).
docs/results.md describes each field.]],
  kernels = [[
kernels() lists the kernel families; info(name) shows one: its parameters
with type, default and allowed values, what it teaches, and its CUDA source.]],
  device = [[
device() describes the GPU (or, in sim mode, the modelled one): name,
compute_capability, sm_count, l2_bytes, memory_bytes, bus_width_bits,
memory_clock_mhz, peak_gbs, sm_clock_mhz, and on a GPU copy_gbs: the
measured copy ceiling (measure_copy() measures it again).]],
  show = [[
show(r [, warp]) draws one warp of a launch (warp 0 by default): each memory
instruction, each 128-byte line it touches as four 32-byte sectors of eight
4-byte cells, marking the bytes the lanes used, the bytes fetched with them
and the sectors not fetched, with the lanes in each line and the totals.
r.map holds the same drawing of warp 0 as text.]],
  counters = [[
On a GPU each launch also reads hardware counters in one profiled run after
the timed samples: result.counters holds each value with its Nsight Compute
metric name, and load/store take their requests and sectors from the
hardware. explain("sectors_per_request") (or any counter's name) says what a
number means. config{counters=false} turns them off.]],
  config = [[
config{cache="warm"|"cold", min_samples=10, budget_ms=500, check=true, counters=true}
changes how launches measure for the rest of the session and returns the
settings; the same keys in one launch's params change that launch only:
  launch("copy", {n=2^16, cache="warm"})]],
  commands = [[
Colon commands at the prompt: :help, :kernels, :quit, and for labs :labs,
:lab NAME, :next, :back, :hint, :answer VALUE, :run, :where, :reset (unique
prefixes work, so :q quits). Ctrl-C stops what is running; Ctrl-D leaves.]],
}

local overview = [[
warplab shows how GPU memory access patterns become memory traffic.
  launch("offset", {offset=1})   run a kernel; the result prints itself
  kernels()                      the kernel families; info("strided") for one
  device()                       the GPU, or the modelled one
  explain("sectors_per_request") what a number means, and its Nsight Compute metric
  show(r)                        the warp map of warp 0 of a result r (show(r, 5) for warp 5)
  sweep("offset", {offset = range(0, 32)})   a table and a chart over a parameter
  compare(a, b), plot(rs, {file="out.svg"}), export(rs, "out.csv"), record("session.json")
  :labs, :lab tour               the labs: lessons whose questions are checked against your runs
  help("launch")                 more on a topic: launch, result, show, kernels, device, counters, config, commands
Tab completes names, including kernel names inside launch(".]]

-- help([topic]): an overview, or one topic.
function help(topic)
  if topic == nil then return print(overview) end
  if type(topic) ~= "string" then error(fmt("bad argument #1 to 'help' (topic name expected, got %s)", quote(topic)), 2) end
  local text = topics[topic]
  if not text then
    local names = {}
    for name in pairs(topics) do names[#names + 1] = name end
    table.sort(names)
    error(fmt("bad argument #1 to 'help' (unknown topic %s; topics: %s)", quote(topic), table.concat(names, ", ")), 2)
  end
  print(text)
end

---------------------------------------------------------------------------
-- What the REPL prints for values
---------------------------------------------------------------------------

-- A plain table on one line when short, nested one level.
local function show_table(t, depth)
  if depth > 2 then return "{...}" end
  local parts, count = {}, 0
  for k, v in pairs(t) do
    count = count + 1
    if count > 12 then parts[#parts + 1] = "..."; break end
    local value = type(v) == "table" and not getmetatable(v) and show_table(v, depth + 1)
                  or type(v) == "string" and fmt("%q", v) or tostring(v)
    if math.type(k) == "integer" and k == count then
      parts[#parts + 1] = value
    else
      parts[#parts + 1] = tostring(k) .. " = " .. value
    end
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

local function show_value(v)
  local meta = getmetatable(v)
  if type(v) == "table" and not (meta and meta.__tostring) then return show_table(v, 1) end
  if type(v) == "string" then return fmt("%q", v) end
  return tostring(v)
end

-- core.show(...): prints the values an expression typed at the prompt produced.
function core.show(...)
  local n = select("#", ...)
  for i = 1, n do print(show_value((select(i, ...)))) end
end

-- core.banner(): the first line of an interactive session.
function core.banner()
  local d = device()
  local where = fmt("%s (sm_%s, %d SMs, L2 %s) · peak %.2f TB/s", d.name,
                    d.compute_capability:gsub("%.", ""), d.sm_count, mebibytes(d.l2_bytes),
                    d.peak_gbs / 1000)
  if d.copy_gbs then where = where .. fmt(" · copy %.2f TB/s", d.copy_gbs / 1000) end
  return fmt("warplab %s · %s\nNew here? :lab tour.  :help for help, or launch(\"offset\", {offset=1}).  Tab completes.",
             core.version, where)
end

-- The time now, UTC, as ISO 8601: what recordings and lab progress are stamped with.
local function utc_now() return os.date("!%Y-%m-%dT%H:%M:%SZ") end

-- What the other modules (chart, export, plot, sweep) share with this one.
core.util = {
  fmt = fmt, commas = commas, bytes = bytes, percent = percent, bar = bar,
  value_text = value_text, params_text = params_text, families = families, family_by_name = family_by_name,
  localized = localized, show_value = show_value, utc_now = utc_now,
  quote = quote, result_problem = result_problem, check_result = check_result, guarded = guarded,
  copy_table = copy_table, message = message,
}
