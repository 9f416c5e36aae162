-- sweep.lua: sweeps over one or two parameters, results lists, and
-- compare(). A sweep launches every configuration (counters read together),
-- prints a table and a chart of one metric, and returns the results.
local core = ...
local u = core.util
local fmt = u.fmt

---------------------------------------------------------------------------
-- Value lists: range(), pow2()
---------------------------------------------------------------------------

local Values = { __name = "warplab.values" }
core.Values = Values

local function check_integer(value, arg, name)
  if math.type(value) ~= "integer" then
    error(fmt("bad argument #%d to '%s' (integer expected, got %s)", arg, name,
              math.type(value) or type(value)), 3)
  end
end

-- range(first, last [, step]): first, first+step, ... up to last, inclusive.
function range(first, last, step)
  step = step or 1
  check_integer(first, 1, "range")
  check_integer(last, 2, "range")
  check_integer(step, 3, "range")
  if step == 0 or (last - first) // step < 0 or (last - first) // step > 1023 then
    error(fmt("bad argument #3 to 'range' (from %d to %d by %d gives no values or over 1024)", first, last, step), 2)
  end
  local list = {}
  for v = first, last, step do list[#list + 1] = v end
  return setmetatable(list, Values)
end

-- pow2(first, last): 2^first, 2^(first+1), ... 2^last.
function pow2(first, last)
  check_integer(first, 1, "pow2")
  check_integer(last, 2, "pow2")
  if first < 0 or last > 62 or last < first then
    error(fmt("bad argument #2 to 'pow2' (exponents from 0 to 62, first <= last; got %d, %d)", first, last), 2)
  end
  local list = {}
  for e = first, last do list[#list + 1] = 1 << e end
  return setmetatable(list, Values)
end

---------------------------------------------------------------------------
-- Metrics a sweep can chart: one declaration each
---------------------------------------------------------------------------

-- get: the measured value (nil when not measured); model: the model's value.
local metrics = {
  { name = "bandwidth", label = "useful bandwidth", unit = "GB/s", short = "GB/s", format = "%.0f",
    get = function(r) return r.bandwidth_gbs end, model = function(r) return r.model.bandwidth_gbs end },
  { name = "time", label = "kernel time", unit = "ms", short = "time ms", format = "%.4f",
    get = function(r) return r.time_ms end, model = function(r) return r.model.time_ms end },
  { name = "sectors_per_request", label = "load sectors per request", unit = "sectors/request",
    short = "load sect/req", format = "%.2f",
    get = function(r) return r.load.source == "hardware" and r.load.sectors_per_request or nil end,
    model = function(r) return r.model.load.sectors_per_request end },
  { name = "store_sectors_per_request", label = "store sectors per request", unit = "sectors/request",
    short = "store sect/req", format = "%.2f",
    get = function(r) return r.store.source == "hardware" and r.store.sectors_per_request or nil end,
    model = function(r) return r.model.store.sectors_per_request end },
  { name = "dram_read", label = "DRAM read", unit = "MB", short = "DRAM read MB", format = "%.1f",
    get = function(r) return r.dram.source == "hardware" and r.dram.read_bytes / 1e6 or nil end,
    model = function(r) return r.model.dram.read_bytes and r.model.dram.read_bytes / 1e6 end },
  { name = "useful_fraction", label = "useful share of loaded bytes", unit = "%", short = "useful %",
    format = "%.0f",
    get = function(r) return nil end, model = function(r) return 100 * r.load.useful_fraction end },
  { name = "bank_conflicts", label = "shared-load bank conflicts", unit = "", short = "conflicts",
    format = "%.0f",
    get = function(r) return r.shared_load and r.shared_load.source == "hardware" and r.shared_load.bank_conflicts or nil end,
    model = function(r) return r.shared_load and r.shared_load.bank_conflicts or 0 end },
}
local metric_by_name = {}
for _, m in ipairs(metrics) do metric_by_name[m.name] = m end
core.metrics = metric_by_name

local function metric_names()
  local names = {}
  for _, m in ipairs(metrics) do names[#names + 1] = m.name end
  return table.concat(names, ", ")
end

-- A metric's value for a result, and whether it is the model's.
local function metric_value(metric, r)
  local measured = metric.get(r)
  if measured ~= nil then return measured, false end
  return metric.model(r), true
end
core.metric_value = metric_value

---------------------------------------------------------------------------
-- Results lists
---------------------------------------------------------------------------

local Results = { __name = "warplab.results" }
local methods = {}   -- rs:column(name), rs:table_text(), rs:chart_text(y)
-- A function, not the table: lab code can read rs.column but never reach
-- (and so never change) what every later results list shares.
function Results.__index(_, key) return methods[key] end
core.Results = Results

-- nil when list is a results list as sweep() made it, else what is wrong, for messages.
local function results_problem(list)
  if getmetatable(list) ~= Results then return "got " .. u.quote(list) end
  local kernel, swept, y = rawget(list, "kernel"), rawget(list, "swept"), rawget(list, "y")
  if not u.family_by_name[kernel] then return "its 'kernel' is " .. u.quote(kernel, '"') end
  if type(swept) ~= "table" or getmetatable(swept) or rawlen(swept) < 1 or rawlen(swept) > 2 then
    return "its 'swept' is " .. u.quote(swept, '"')
  end
  for i = 1, rawlen(swept) do
    if type(rawget(swept, i)) ~= "string" then return fmt("its 'swept[%d]' is %s", i, u.quote(rawget(swept, i), '"')) end
  end
  if y ~= nil and not metric_by_name[y] then return "its 'y' is " .. u.quote(y, '"') end
  for i = 1, rawlen(list) do
    local problem = u.result_problem(rawget(list, i))
    if problem then return fmt("its [%d] %s", i, (problem:gsub("^got ", "is "))) end
  end
  return nil
end

-- Raises Lua's "calling 'method' on bad self" unless list is a results list.
local function check_self(list, method)
  local problem = results_problem(list)
  if problem then error(fmt("calling '%s' on bad self (results of sweep() expected, %s)", method, problem), 3) end
end

-- results:column(name): one value per result: a parameter, a metric, or a field path such as "load.sectors".
function methods:column(name)
  check_self(self, "column")
  if type(name) ~= "string" then
    error(fmt("bad argument #1 to 'column' (a parameter, metric or field name expected, got %s)", u.quote(name)), 2)
  end
  local metric = metric_by_name[name]
  local column = {}
  for i, r in ipairs(self) do
    if metric then
      column[i] = (metric_value(metric, r))
    elseif r.params[name] ~= nil then
      column[i] = r.params[name]
    else
      local value = r
      for part in name:gmatch("[^.]+") do value = type(value) == "table" and rawget(value, part) or nil end
      column[i] = value
    end
  end
  return column
end

-- A swept value as the table and chart show it: bytes in KiB, MiB ... for `bytes`.
local function value_text(value, param)
  if param == "bytes" and math.type(value) == "integer" then return u.bytes(value) end
  return u.value_text(value)
end
core.value_text = value_text

-- The table of a sweep: swept parameters, then the metrics; modelled values marked ≈.
function methods:table_text()
  check_self(self, "table_text")
  local columns = { "time", "bandwidth", "sectors_per_request", "store_sectors_per_request", "dram_read" }
  if self.y and not metric_by_name[self.y].short:find("sect") and self.y ~= "time" and self.y ~= "bandwidth" and
     self.y ~= "dram_read" then
    columns[#columns + 1] = self.y
  end
  local header, rows, modelled_any = {}, {}, false
  for _, p in ipairs(self.swept) do header[#header + 1] = p end
  for _, c in ipairs(columns) do header[#header + 1] = metric_by_name[c].short end
  for i, r in ipairs(self) do
    local row = {}
    for _, p in ipairs(self.swept) do row[#row + 1] = value_text(r.params[p], p) end
    for _, c in ipairs(columns) do
      local m = metric_by_name[c]
      local value, modelled = metric_value(m, r)
      modelled_any = modelled_any or modelled
      row[#row + 1] = value == nil and "-" or (modelled and "≈" or "") .. fmt(m.format, value)
    end
    rows[i] = row
  end
  local text = core.text_table(header, rows)
  if modelled_any then text = text .. "\n  ≈ modelled (" .. (self[1].model.device or "the model") .. ")" end
  return text
end

-- The chart of one metric against the first swept parameter (a series per value of the second).
function methods:chart_text(y)
  check_self(self, "chart_text")
  local metric = metric_by_name[y or self.y or "sectors_per_request"]
  if not metric then
    error(fmt("bad argument #1 to 'chart_text' (a metric expected: %s; got %s)", metric_names(), u.quote(y, '"')), 2)
  end
  local x_param, series_param = self.swept[1], self.swept[2]
  local xs, x_index, series, series_index = {}, {}, {}, {}
  local modelled_any = false
  for _, r in ipairs(self) do
    local x = value_text(r.params[x_param], x_param)
    if not x_index[x] then xs[#xs + 1] = x; x_index[x] = #xs end
    local key = series_param and series_param .. "=" .. value_text(r.params[series_param], series_param) or ""
    if not series_index[key] then
      series[#series + 1] = { name = key, values = {} }
      series_index[key] = series[#series]
    end
    local value, modelled = metric_value(metric, r)
    series_index[key].values[x_index[x]] = value
    modelled_any = modelled_any or modelled
  end
  local d = device()
  local marks, breaks = {}, {}
  if metric.name == "bandwidth" then
    marks[#marks + 1] = { at = d.peak_gbs, label = "DRAM peak" }
    if d.copy_gbs then marks[#marks + 1] = { at = d.copy_gbs, label = "copy ceiling" } end
  end
  if x_param == "bytes" then
    for i, r in ipairs(self) do
      if r.params.bytes > d.l2_bytes and (i == 1 or self[i - 1].params.bytes <= d.l2_bytes) then
        breaks[#breaks + 1] = { before = x_index[value_text(r.params.bytes, "bytes")], label = "L2 (" .. u.bytes(d.l2_bytes) .. ")" }
        break
      end
    end
  end
  return core.chart.bars{
    title = fmt("%s%s by %s — %s", metric.label, modelled_any and " (modelled)" or "", x_param, self.kernel),
    x_label = x_param, x = xs, series = series, unit = metric.unit, marks = marks, breaks = breaks,
  }
end

Results.__tostring = u.guarded("a results list", function(list)
  return fmt("%d results of %s over %s%s (results:column(name), results[i], export(results, file))", #list,
             list.kernel, table.concat(list.swept, " and "), list.interrupted and ", stopped by Ctrl-C" or "")
end, results_problem)

---------------------------------------------------------------------------
-- sweep()
---------------------------------------------------------------------------

-- Whether a param value is a list to sweep (a block shape {x, y} is one value unless given as a list of shapes).
local function is_sweep(family, name, value)
  if type(value) ~= "table" then return false end
  if getmetatable(value) == Values then return true end
  for _, p in ipairs(family.params) do
    if p.name == name and p.type == "block shape" then return type(rawget(value, 1)) == "table" end
  end
  return true
end

-- Every combination, the first swept parameter varying fastest.
local function configurations(fixed, swept, lists)
  local configs = {}
  local function fill(level, current)
    if level == 0 then
      local config = {}
      for k, v in pairs(fixed) do config[k] = v end
      for k, v in pairs(current) do config[k] = v end
      configs[#configs + 1] = config
      return
    end
    for _, v in ipairs(lists[swept[level]]) do
      current[swept[level]] = v
      fill(level - 1, current)
    end
  end
  fill(#swept, {})
  return configs
end

-- The values of a list to sweep, read raw; or nil and what is wrong with it.
local function list_values(name, list)
  local values, count = {}, rawlen(list)
  if count == 0 then return nil, fmt("the list for %s is empty", u.quote(name)) end
  for i = 1, count do
    values[i] = rawget(list, i)
    if values[i] == nil then return nil, fmt("the list for %s has no value at [%d]", u.quote(name), i) end
  end
  return values
end

-- sweep(name, params): params holds one or two lists (range(), pow2() or plain lists) and may name
-- the chart's metric with y= (bandwidth, time, sectors_per_request, ...) and its axis with x= (else
-- the list with more values; the other list gives one series per value). Prints a table and a chart;
-- returns the results list. Ctrl-C stops after the current launch and keeps what was measured.
function sweep(name, params)
  local function bad(arg, format, ...) error(fmt("bad argument #%d to 'sweep' (" .. format .. ")", arg, ...), 3) end
  local problem = type(name) ~= "string" and "kernel name expected, got " .. u.quote(name) or core.kernel_problem(name)
  if problem then bad(1, "%s", problem) end
  local family = u.family_by_name[name]
  if type(params) ~= "table" then bad(2, "table of parameters expected, got %s", u.quote(params)) end
  local fixed, swept, lists, launches = {}, {}, {}, 1
  local y, x = rawget(params, "y"), rawget(params, "x")
  for k, v in next, params do
    if type(k) ~= "string" then bad(2, "parameter names must be strings, as in {offset = range(0, 32)}") end
    if k == "y" or k == "x" then
    elseif is_sweep(family, k, v) then
      local values, why = list_values(k, v)
      if not values then bad(2, "%s", why) end
      swept[#swept + 1], lists[k], launches = k, values, launches * #values
    else
      fixed[k] = v
    end
  end
  if #swept == 0 or #swept > 2 then
    bad(2, "one or two parameters must be lists, such as offset = range(0, 32); got %d", #swept)
  end
  if launches > 1024 then bad(2, "%d launches; a sweep makes at most 1024", launches) end
  if y ~= nil and not metric_by_name[y] then bad(2, "y must be one of: %s; got %s", metric_names(), u.quote(y, '"')) end
  if x ~= nil and not lists[x] then
    bad(2, "x must be a swept parameter (%s); got %s", table.concat(swept, " or "), u.quote(x, '"'))
  end
  -- the axis: x= when given, else the list with more values; the other gives one series per value
  table.sort(swept, function(a, b)
    if a == x or b == x then return a == x end
    if #lists[a] ~= #lists[b] then return #lists[a] > #lists[b] end
    return a < b
  end)
  local ok, results, interrupted = pcall(core.launch_many, name, configurations(fixed, swept, lists), true)
  if not ok then   -- a parameter's error is sweep's argument #2, as the caller wrote it
    local why = tostring(results):match("^bad argument #%d to '[^']*' %((.*)%)$")
    if why then bad(2, "%s", why) end
    error(results, 0)
  end
  results.kernel, results.swept, results.interrupted = name, swept, interrupted or nil
  local measured = results[1] and results[1].backend == "gpu"
  results.y = y or (measured and "bandwidth" or "sectors_per_request")
  setmetatable(results, Results)
  core.print_results(results)
  return results
end

-- Prints a sweep in the session's output format (a table and a chart, or CSV or JSON).
function core.print_results(results)
  if core.format_results(results) then return end
  if #results == 0 then return print("no launches finished") end
  print(results:table_text())
  print()
  print(results:chart_text())
  if results.interrupted then print(fmt("stopped by Ctrl-C after %d launches", #results)) end
end

---------------------------------------------------------------------------
-- compare()
---------------------------------------------------------------------------

-- Measured when there is a measurement, the model's otherwise.
local function time_of(r) return r.time_ms or r.model.time_ms end
local function bandwidth_of(r) return r.bandwidth_gbs or r.model.bandwidth_gbs end
core.time_of, core.bandwidth_of = time_of, bandwidth_of

-- Whether time samples of a and b overlap in their interquartile ranges.
local function quartiles(samples)
  local sorted = {}
  for i, v in ipairs(samples) do sorted[i] = v end
  table.sort(sorted)
  local function at(q)
    local pos = q * (#sorted - 1) + 1
    local lo = math.floor(pos)
    local hi = math.min(lo + 1, #sorted)
    return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo])
  end
  return at(0.25), at(0.75)
end

local function time_verdict(a, b)
  if not (a.samples and b.samples and #a.samples >= 3 and #b.samples >= 3) then
    local va, vb = time_of(a), time_of(b)
    return va == vb and "same (modelled)" or vb < va and "faster (modelled)" or "slower (modelled)"
  end
  local a1, a3 = quartiles(a.samples)
  local b1, b3 = quartiles(b.samples)
  if b3 < a1 then return "faster" end
  if b1 > a3 then return "slower" end
  return "within noise"
end

local function count_verdict(va, vb, more, fewer)
  if va == vb then return "same" end
  return vb > va and more or fewer
end

local compare_rows = {
  { label = "time (ms)", value = time_of, verdict = time_verdict },
  { label = "bandwidth (GB/s)", value = bandwidth_of },
  { label = "load requests", value = function(r) return r.load.requests end,
    verdict = function(a, b) return count_verdict(a.load.requests, b.load.requests, "more", "fewer") end },
  { label = "load sectors", value = function(r) return r.load.sectors end,
    verdict = function(a, b) return count_verdict(a.load.sectors, b.load.sectors, "more", "fewer") end },
  { label = "store sectors", value = function(r) return r.store.sectors end,
    verdict = function(a, b) return count_verdict(a.store.sectors, b.store.sectors, "more", "fewer") end },
  { label = "DRAM read (MB)", value = function(r) return r.dram.read_bytes and r.dram.read_bytes / 1e6 end,
    verdict = function(a, b) return count_verdict(a.dram.read_bytes, b.dram.read_bytes, "more", "less") end },
}

local Comparison = { __name = "warplab.comparison" }

Comparison.__tostring = u.guarded("a compare() table", function(c) return core.text_table(c.header, c.rows) end)

local function describe(r)
  return r.kernel .. " " .. u.params_text(r.kernel, r.params):gsub("n=[%d,]+ block=%d+ ?", "")
end

-- compare(a, b, ...): results side by side; for each metric the ratio to the first and a verdict
-- (time: from the samples' spreads, not the two medians alone).
function compare(...)
  local list = { n = select("#", ...), ... }
  if list.n < 2 then error("bad argument #2 to 'compare' (at least two results expected)", 2) end
  for i = 1, list.n do u.check_result(list[i], i, "compare") end
  list.n = nil
  local header = { "metric" }
  for i, r in ipairs(list) do header[#header + 1] = fmt("%s: %s", string.char(96 + i), describe(r)) end
  for i = 2, #list do header[#header + 1] = fmt("%s/a", string.char(96 + i)) end
  header[#header + 1] = "verdict"
  local rows = {}
  for _, spec in ipairs(compare_rows) do
    local row, base = { spec.label }, spec.value(list[1])
    for _, r in ipairs(list) do
      local v = spec.value(r)
      row[#row + 1] = v == nil and "-" or math.abs(v) >= 100 and fmt("%.0f", v) or fmt("%.4g", v)
    end
    local verdicts = {}
    for i = 2, #list do
      local v = spec.value(list[i])
      row[#row + 1] = (v and base and base ~= 0) and fmt("%.2f", v / base) or "-"
      verdicts[#verdicts + 1] = spec.verdict and spec.verdict(list[1], list[i]) or
                                (v and base and (v == base and "same" or v > base and "higher" or "lower")) or "-"
    end
    row[#row + 1] = table.concat(verdicts, ", ")
    rows[#rows + 1] = row
  end
  return setmetatable({ header = header, rows = rows, results = list }, Comparison)
end

---------------------------------------------------------------------------
-- Plain text tables
---------------------------------------------------------------------------

-- Columns padded to their widest cell; numbers right-aligned.
function core.text_table(header, rows)
  local widths = {}
  for i, h in ipairs(header) do widths[i] = utf8.len(h) end
  for _, row in ipairs(rows) do
    for i, cell in ipairs(row) do widths[i] = math.max(widths[i] or 0, utf8.len(cell)) end
  end
  local function line(cells)
    local parts = {}
    for i, cell in ipairs(cells) do
      local pad = (" "):rep(widths[i] - utf8.len(cell))
      parts[i] = cell:match("^[≈%-]?[%d.,]+") and pad .. cell or cell .. pad
    end
    return "  " .. table.concat(parts, "  ")
  end
  local lines = { line(header) }
  for _, row in ipairs(rows) do lines[#lines + 1] = line(row) end
  return table.concat(lines, "\n")
end
