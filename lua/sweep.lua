-- sweep.lua: sweeps over one or two parameters, results lists, and
-- compare(). A sweep launches every configuration (counters read together),
-- prints a table and a chart of one metric, and returns the results.
local core = require "warplab.core"
local u = require "warplab.text"
local registry = require "warplab.registry"
local result = require "warplab.result"
local families = require "warplab.families"
local device = require "warplab.device"
local fmt = u.fmt
local chart = require "warplab.chart"
local export = require "warplab.export"

local sweep = {}

local messages = {
  integer_expected = { en = "bad argument #%d to '%s' (integer expected, got %s)",
                       zh = "bad argument #%d to '%s' (需要整数，得到 %s)" },
  range_empty = { en = "bad argument #3 to 'range' (from %d to %d by %d gives no values or over 1024)",
                  zh = "bad argument #3 to 'range' (从 %d 到 %d、步长 %d 得不到值，或超过 1024 个)" },
  pow2_bad = { en = "bad argument #2 to 'pow2' (exponents from 0 to 62, first <= last; got %d, %d)",
               zh = "bad argument #2 to 'pow2' (指数从 0 到 62，且 first <= last；得到 %d, %d)" },
  bad_kernel = { en = "its 'kernel' is %s", zh = "其 'kernel' 是 %s" },
  bad_swept = { en = "its 'swept' is %s", zh = "其 'swept' 是 %s" },
  bad_swept_item = { en = "its 'swept[%d]' is %s", zh = "其 'swept[%d]' 是 %s" },
  bad_y = { en = "its 'y' is %s", zh = "其 'y' 是 %s" },
  bad_item = { en = "its [%d] %s", zh = "其第 [%d] 项：%s" },
  bad_self = { en = "calling '%s' on bad self (results of sweep() expected, %s)",
               zh = "calling '%s' on bad self (需要 sweep() 的结果，%s)" },
  column_name = { en = "bad argument #1 to 'column' (a parameter, metric or field name expected, got %s)",
                  zh = "bad argument #1 to 'column' (需要参数名、指标名或字段名，得到 %s)" },
  modelled_note = { en = "  ≈ modelled (%s)", zh = "  ≈ 模型估算（%s）" },
  the_model = { en = "the model", zh = "访问模型" },
  metric_expected = { en = "bad argument #1 to 'chart_text' (a metric expected: %s; got %s)",
                      zh = "bad argument #1 to 'chart_text' (需要一个指标：%s；得到 %s)" },
  dram_peak = { en = "DRAM peak", zh = "DRAM 峰值带宽" },
  copy_ceiling = { en = "copy ceiling", zh = "复制上限" },
  l2_break = { en = "L2 (%s)", zh = "L2（%s）" },
  chart_title = { en = "%s%s by %s — %s", zh = "%s%s随 %s 的变化 — %s" },
  modelled = { en = " (modelled)", zh = "（模型估算）" },
  kind_results = { en = "a results list", zh = "结果列表" },
  results = { en = "%d results of %s over %s%s (results:column(name), results[i], export(results, file))",
              zh = "%d 个 %s 的结果，扫描 %s%s（results:column(name)、results[i]、export(results, file)）" },
  swept_and = { en = " and ", zh = " 和 " },
  stopped = { en = ", stopped by Ctrl-C", zh = "，被 Ctrl-C 中止" },
  list_empty = { en = "the list for %s is empty", zh = "%s 的列表是空的" },
  list_hole = { en = "the list for %s has no value at [%d]", zh = "%s 的列表在 [%d] 处没有值" },
  bad_sweep = { en = "bad argument #%d to 'sweep' (%s)", zh = "bad argument #%d to 'sweep' (%s)" },
  params_expected = { en = "table of parameters expected, got %s", zh = "需要参数表，得到 %s" },
  string_names = { en = "parameter names must be strings, as in {offset = range(0, 32)}",
                   zh = "参数名必须是字符串，例如 {offset = range(0, 32)}" },
  one_or_two = { en = "one or two parameters must be lists, such as offset = range(0, 32); got %d",
                 zh = "必须有一个或两个参数是列表，例如 offset = range(0, 32)；得到 %d 个" },
  too_many = { en = "%d launches; a sweep makes at most 1024", zh = "%d 次启动；一次扫描最多 1024 次" },
  bad_y_option = { en = "y must be one of: %s; got %s", zh = "y 必须是其中之一：%s；得到 %s" },
  bad_x_option = { en = "x must be a swept parameter (%s); got %s", zh = "x 必须是被扫描的参数（%s）；得到 %s" },
  x_or = { en = " or ", zh = " 或 " },
  none_finished = { en = "no launches finished", zh = "没有完成的启动" },
  stopped_after = { en = "stopped by Ctrl-C after %d launches", zh = "Ctrl-C 已中止，完成了 %d 次启动" },
  -- compare()
  two_expected = { en = "bad argument #2 to 'compare' (at least two results expected)",
                   zh = "bad argument #2 to 'compare' (至少需要两个结果)" },
  metric = { en = "metric", zh = "指标" },
  verdict = { en = "verdict", zh = "结论" },
  row_time = { en = "time (ms)", zh = "时间（ms）" },
  row_bandwidth = { en = "bandwidth (GB/s)", zh = "带宽（GB/s）" },
  row_load_requests = { en = "load requests", zh = "读取请求数" },
  row_load_sectors = { en = "load sectors", zh = "读取扇区数" },
  row_store_sectors = { en = "store sectors", zh = "写入扇区数" },
  row_atomic_requests = { en = "atomic requests", zh = "原子操作请求数" },
  row_atomic_sectors = { en = "atomic sectors", zh = "原子操作扇区数" },
  row_atomic_hottest = { en = "busiest address ops", zh = "最忙地址的操作数" },
  row_ldgsts_sectors = { en = "cp.async sectors", zh = "cp.async 扇区数" },
  row_dram_read = { en = "DRAM read (MB)", zh = "DRAM 读取（MB）" },
  same = { en = "same", zh = "相同" },
  faster = { en = "faster", zh = "更快" },
  slower = { en = "slower", zh = "更慢" },
  times_modelled = { en = "(times modelled: no samples to judge their noise by)", zh = "（时间为模型估算：没有采样可用来判断噪声）" },
  model_limit = { en = " · model: limited by %s", zh = " · 模型：瓶颈是%s" },
  within_noise = { en = "same (within noise)", zh = "相同（在噪声范围内）" },
  more = { en = "more", zh = "更多" },
  fewer = { en = "fewer", zh = "更少" },
  less = { en = "less", zh = "更少" },
  higher = { en = "higher", zh = "更高" },
  lower = { en = "lower", zh = "更低" },
  kind_comparison = { en = "a compare() table", zh = "compare() 表" },
}
local say = u.messages("sweep", messages)

---------------------------------------------------------------------------
-- Value lists: range(), pow2()
---------------------------------------------------------------------------

local Values = { __name = "warplab.values" }
sweep.Values = Values

local function check_integer(value, arg, name)
  if math.type(value) ~= "integer" then
    error(say("integer_expected", arg, name, math.type(value) or type(value)), 3)
  end
end

-- range(first, last [, step]): first, first+step, ... up to last, inclusive.
function sweep.range(first, last, step)
  step = step or 1
  check_integer(first, 1, "range")
  check_integer(last, 2, "range")
  check_integer(step, 3, "range")
  if step == 0 or (last - first) // step < 0 or (last - first) // step > 1023 then
    error(say("range_empty", first, last, step), 2)
  end
  local list = {}
  for v = first, last, step do list[#list + 1] = v end
  return setmetatable(list, Values)
end

-- pow2(first, last): 2^first, 2^(first+1), ... 2^last.
function sweep.pow2(first, last)
  check_integer(first, 1, "pow2")
  check_integer(last, 2, "pow2")
  if first < 0 or last > 62 or last < first then
    error(say("pow2_bad", first, last), 2)
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
  { name = "bandwidth", label = "useful bandwidth", label_zh = "有用带宽", unit = "GB/s", short = "GB/s", format = "%.0f",
    get = function(r) return r.bandwidth_gbs end, model = function(r) return r.model.bandwidth_gbs end },
  { name = "time", label = "kernel time", label_zh = "核函数时间", unit = "ms", short = "time ms",
    short_zh = "时间 ms", format = "%.4f",
    get = function(r) return r.time_ms end, model = function(r) return r.model.time_ms end },
  { name = "sectors_per_request", label = "load sectors per request", label_zh = "每请求读取扇区数",
    unit = "sectors/request", unit_zh = "扇区/请求", short = "load sect/req", short_zh = "读取 扇区/请求", format = "%.2f",
    get = function(r) return r.load.source == "hardware" and r.load.sectors_per_request or nil end,
    model = function(r) return r.model.load.sectors_per_request end },
  { name = "store_sectors_per_request", label = "store sectors per request", label_zh = "每请求写入扇区数",
    unit = "sectors/request", unit_zh = "扇区/请求", short = "store sect/req", short_zh = "写入 扇区/请求", format = "%.2f",
    get = function(r) return r.store.source == "hardware" and r.store.sectors_per_request or nil end,
    model = function(r) return r.model.store.sectors_per_request end },
  { name = "dram_read", label = "DRAM read", label_zh = "DRAM 读取量", unit = "MB", short = "DRAM read MB",
    short_zh = "DRAM 读取 MB", format = "%.1f",
    get = function(r) return r.dram.source == "hardware" and r.dram.read_bytes / 1e6 or nil end,
    model = function(r) return r.model.dram.read_bytes and r.model.dram.read_bytes / 1e6 end },
  { name = "useful_fraction", label = "useful share of loaded bytes", label_zh = "读取字节中有用的比例", unit = "%",
    short = "useful %", short_zh = "有用 %",
    format = "%.0f",
    get = function(r) return nil end, model = function(r) return 100 * r.load.useful_fraction end },
  { name = "bank_conflicts", label = "shared-load bank conflicts", label_zh = "共享内存读取的存储体冲突", unit = "",
    short = "conflicts", short_zh = "存储体冲突",
    format = "%.0f",
    get = function(r) return r.shared_load and r.shared_load.source == "hardware" and r.shared_load.bank_conflicts or nil end,
    model = function(r) return r.shared_load and r.shared_load.bank_conflicts or 0 end },
}
local metric_by_name = {}
for _, m in ipairs(metrics) do metric_by_name[m.name] = m end
sweep.metrics = metric_by_name

local function metric_names()
  local names = {}
  for _, m in ipairs(metrics) do names[#names + 1] = m.name end
  return table.concat(names, ", ")
end
sweep.metric_names = metric_names

-- A metric's value for a result, and whether it is the model's.
local function metric_value(metric, r)
  local measured = metric.get(r)
  if measured ~= nil then return measured, false end
  return metric.model(r), true
end
sweep.metric_value = metric_value

---------------------------------------------------------------------------
-- Results lists
---------------------------------------------------------------------------

local Results = { __name = "warplab.results" }
local methods = {}   -- rs:column(name), rs:table_text(), rs:chart_text(y)
-- A function, not the table: lab code can read rs.column but never reach
-- (and so never change) what every later results list shares.
function Results.__index(_, key) return methods[key] end
sweep.Results = Results

-- nil when list is a results list as sweep() made it, else what is wrong, for messages.
local function results_problem(list)
  if getmetatable(list) ~= Results then return result.got(u.quote(list)) end
  local kernel, swept, y = rawget(list, "kernel"), rawget(list, "swept"), rawget(list, "y")
  if not registry.family_by_name[kernel] then return say("bad_kernel", u.quote(kernel, '"')) end
  if type(swept) ~= "table" or getmetatable(swept) or rawlen(swept) < 1 or rawlen(swept) > 2 then
    return say("bad_swept", u.quote(swept, '"'))
  end
  for i = 1, rawlen(swept) do
    if type(rawget(swept, i)) ~= "string" then return say("bad_swept_item", i, u.quote(rawget(swept, i), '"')) end
  end
  if y ~= nil and not metric_by_name[y] then return say("bad_y", u.quote(y, '"')) end
  for i = 1, rawlen(list) do
    local problem = result.result_problem(rawget(list, i))
    if problem then return say("bad_item", i, (problem:gsub("^got ", "is "))) end
  end
  return nil
end

sweep.results_problem = results_problem   -- for plot(), which takes a results list too

-- Raises Lua's "calling 'method' on bad self" unless list is a results list.
local function check_self(list, method)
  local problem = results_problem(list)
  if problem then error(say("bad_self", method, problem), 3) end
end

-- results:column(name): one value per result: a parameter, a metric, or a field path such as "load.sectors".
function methods:column(name)
  check_self(self, "column")
  if type(name) ~= "string" then
    error(say("column_name", u.quote(name)), 2)
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
  return registry.value_text(value)
end
sweep.value_text = value_text

-- The metrics' headers where the terminal is too narrow for the usual ones.
local TINY_HEADERS = { time = "ms", bandwidth = "GB/s", sectors_per_request = "ld s/r", store_sectors_per_request = "st s/r",
                       dram_read = "DRAM MB" }

-- The table of a sweep: swept parameters, then the metrics; modelled values marked ≈.
function methods:table_text()
  check_self(self, "table_text")
  local columns = { "time", "bandwidth", "sectors_per_request", "store_sectors_per_request", "dram_read" }
  if self.y and not metric_by_name[self.y].short:find("sect") and self.y ~= "time" and self.y ~= "bandwidth" and
     self.y ~= "dram_read" then
    columns[#columns + 1] = self.y
  end
  local header, tiny, rows, modelled_any = {}, {}, {}, false
  for _, p in ipairs(self.swept) do header[#header + 1], tiny[#tiny + 1] = p, p end
  for _, c in ipairs(columns) do
    header[#header + 1] = u.localized(metric_by_name[c], "short")
    tiny[#tiny + 1] = TINY_HEADERS[c] or header[#header]
  end
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
  local text = sweep.text_table(header, rows)
  local widest = 0
  for _, line in ipairs(u.text_lines(text)) do widest = math.max(widest, u.display_width(line)) end
  if widest > core.columns() then text = sweep.text_table(tiny, rows) end   -- a narrow terminal: the headers' short forms
  if modelled_any then
    text = text .. "\n" .. say("modelled_note", self[1].model.device and device.device_name(self[1].model.device, true) or say("the_model"))
  end
  return text
end

-- The chart of one metric against the first swept parameter (a series per value of the second).
function methods:chart_text(y)
  check_self(self, "chart_text")
  local metric = metric_by_name[y or self.y or "sectors_per_request"]
  if not metric then
    error(say("metric_expected", metric_names(), u.quote(y, '"')), 2)
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
  local d = core.globals.device()
  local marks, breaks = {}, {}
  if metric.name == "bandwidth" then
    marks[#marks + 1] = { at = d.peak_gbs, label = say("dram_peak") }
    if d.copy_gbs then marks[#marks + 1] = { at = d.copy_gbs, label = say("copy_ceiling") } end
  end
  if x_param == "bytes" then
    for i, r in ipairs(self) do
      if r.params.bytes > d.l2_bytes and (i == 1 or self[i - 1].params.bytes <= d.l2_bytes) then
        breaks[#breaks + 1] = { before = x_index[value_text(r.params.bytes, "bytes")], label = say("l2_break", u.bytes(d.l2_bytes)) }
        break
      end
    end
  end
  return chart.bars{
    title = say("chart_title", u.localized(metric, "label"), modelled_any and say("modelled") or "", x_param, self.kernel),
    x_label = x_param, x = xs, series = series, unit = u.localized(metric, "unit"), marks = marks, breaks = breaks,
  }
end

Results.__tostring = result.guarded(messages.kind_results, function(list)
  return say("results", #list, list.kernel, table.concat(list.swept, say("swept_and")),
             list.interrupted and say("stopped") or "")
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
  if count == 0 then return nil, say("list_empty", u.quote(name)) end
  for i = 1, count do
    values[i] = rawget(list, i)
    if values[i] == nil then return nil, say("list_hole", u.quote(name), i) end
  end
  return values
end

-- sweep(name, params): params holds one or two lists (range(), pow2() or plain lists) and may name
-- the chart's metric with y= (bandwidth, time, sectors_per_request, ...) and its axis with x= (else
-- the list with more values; the other list gives one series per value). Prints a table and a chart;
-- returns the results list. Ctrl-C stops after the current launch and keeps what was measured.
function sweep.sweep(name, params)
  local function bad(arg, key, ...) error(say("bad_sweep", arg, say(key, ...)), 3) end
  local function bad_because(arg, why) error(say("bad_sweep", arg, why), 3) end
  local problem = families.kernel_problem(name)
  if problem then bad_because(1, problem) end
  local family = registry.family_by_name[name]
  if type(params) ~= "table" then bad(2, "params_expected", u.quote(params)) end
  local fixed, swept, lists, launches = {}, {}, {}, 1
  local y, x = rawget(params, "y"), rawget(params, "x")
  for k, v in next, params do
    if type(k) ~= "string" then bad(2, "string_names") end
    if k == "y" or k == "x" then
    elseif is_sweep(family, k, v) then
      local values, why = list_values(k, v)
      if not values then bad_because(2, why) end
      swept[#swept + 1], lists[k], launches = k, values, launches * #values
    else
      fixed[k] = v
    end
  end
  if #swept == 0 or #swept > 2 then
    bad(2, "one_or_two", #swept)
  end
  if launches > 1024 then bad(2, "too_many", launches) end
  if y ~= nil and not metric_by_name[y] then bad(2, "bad_y_option", metric_names(), u.quote(y, '"')) end
  if x ~= nil and not lists[x] then
    bad(2, "bad_x_option", table.concat(swept, say("x_or")), u.quote(x, '"'))
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
    if why then bad_because(2, why) end
    error(results, 0)
  end
  results.kernel, results.swept, results.interrupted = name, swept, interrupted or nil
  local measured = results[1] and results[1].backend == "gpu"
  results.y = y or (measured and "bandwidth" or "sectors_per_request")
  setmetatable(results, Results)
  sweep.print_results(results)
  return results
end

-- Prints a sweep in the session's output format (a table and a chart, or CSV or JSON).
function sweep.print_results(results)
  if export.format_results(results) then return end
  if #results == 0 then return print(say("none_finished")) end
  print(results:table_text())
  print()
  print(results:chart_text())
  if results.interrupted then print(say("stopped_after", #results)) end
end

---------------------------------------------------------------------------
-- compare()
---------------------------------------------------------------------------

-- Measured when there is a measurement, the model's otherwise.
local function time_of(r) return r.time_ms or r.model.time_ms end
local function bandwidth_of(r) return r.bandwidth_gbs or r.model.bandwidth_gbs end
sweep.time_of, sweep.bandwidth_of = time_of, bandwidth_of

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

-- Two values the table would print alike (their ratio 1.00): the same, not "1.00 slower".
local function alike(va, vb) return va == vb or (va ~= 0 and math.abs(vb / va - 1) < 0.005) end

-- The time's verdict, and whether it is the model's (then compare says so once, not in every cell).
local function time_verdict(a, b)
  if not (a.samples and b.samples and #a.samples >= 3 and #b.samples >= 3) then
    local va, vb = time_of(a), time_of(b)
    if alike(va, vb) then return say("same"), true end
    return vb < va and u.paint("good", say("faster")) or u.paint("bad", say("slower")), true
  end
  local a1, a3 = quartiles(a.samples)
  local b1, b3 = quartiles(b.samples)
  if b3 < a1 then return u.paint("good", say("faster")) end
  if b1 > a3 then return u.paint("bad", say("slower")) end
  return say("within_noise")
end

local function count_verdict(va, vb, more, fewer)
  if va == vb then return say("same") end
  return say(vb > va and more or fewer)
end

-- A result's global atomics and reductions together: field's sum (0: none).
local function atomics_of(r, field)
  return (r.atomic and r.atomic[field] or 0) + (r.reduction and r.reduction[field] or 0)
end
local function hottest_of(r)
  return math.max(r.atomic and r.atomic.hottest_operations or 0, r.reduction and r.reduction.hottest_operations or 0)
end
local function any_atomics(list)
  for _, r in ipairs(list) do
    if r.atomic or r.reduction then return true end
  end
  return false
end
local function ldgsts_sectors(r) return r.ldgsts and r.ldgsts.sectors or 0 end
local function any_ldgsts(list)
  for _, r in ipairs(list) do
    if r.ldgsts then return true end
  end
  return false
end

-- A row with `when` is shown only where when(results) holds (atomics, cp.async: when any result has some).
local compare_rows = {
  { label = "row_time", value = time_of, verdict = time_verdict },
  { label = "row_bandwidth", value = bandwidth_of },
  { label = "row_load_requests", value = function(r) return r.load.requests end,
    verdict = function(a, b) return count_verdict(a.load.requests, b.load.requests, "more", "fewer") end },
  { label = "row_load_sectors", value = function(r) return r.load.sectors end,
    verdict = function(a, b) return count_verdict(a.load.sectors, b.load.sectors, "more", "fewer") end },
  { label = "row_store_sectors", value = function(r) return r.store.sectors end,
    verdict = function(a, b) return count_verdict(a.store.sectors, b.store.sectors, "more", "fewer") end },
  { label = "row_atomic_requests", when = any_atomics, value = function(r) return atomics_of(r, "requests") end,
    verdict = function(a, b) return count_verdict(atomics_of(a, "requests"), atomics_of(b, "requests"), "more", "fewer") end },
  { label = "row_atomic_sectors", when = any_atomics, value = function(r) return atomics_of(r, "sectors") end,
    verdict = function(a, b) return count_verdict(atomics_of(a, "sectors"), atomics_of(b, "sectors"), "more", "fewer") end },
  { label = "row_atomic_hottest", when = any_atomics, value = hottest_of,
    verdict = function(a, b) return count_verdict(hottest_of(a), hottest_of(b), "more", "fewer") end },
  { label = "row_ldgsts_sectors", when = any_ldgsts, value = ldgsts_sectors,
    verdict = function(a, b) return count_verdict(ldgsts_sectors(a), ldgsts_sectors(b), "more", "fewer") end },
  { label = "row_dram_read", value = function(r) return r.dram.read_bytes and r.dram.read_bytes / 1e6 end,
    verdict = function(a, b) return count_verdict(a.dram.read_bytes, b.dram.read_bytes, "more", "less") end },
}

-- The cells of a row of compare: the values with few digits, and, for a
-- count (exact), with more where two that differ would print alike (537 and
-- 537 MB that differ by 64 bytes: 536.87091 and 536.87094), so that a
-- verdict of more is seen. Times and bandwidths keep few: their verdict
-- comes from the noise of the samples.
local function value_cells(values, count, exact)
  local function texts(decimals)
    local cells = {}
    for i = 1, count do
      local v = values[i]
      cells[i] = v == nil and "-" or decimals and fmt("%." .. decimals .. "f", v)
                 or math.abs(v) >= 100 and fmt("%.0f", v) or fmt("%.4g", v)
    end
    return cells
  end
  local function alike_but_different(cells)
    for i = 1, count do
      for j = i + 1, count do
        if values[i] and values[j] and values[i] ~= values[j] and cells[i] == cells[j] then return true end
      end
    end
    return false
  end
  local cells = texts(nil)
  for decimals = 1, exact and 6 or 0 do
    if not alike_but_different(cells) then break end
    cells = texts(decimals)
  end
  return cells
end

local Comparison = { __name = "warplab.comparison" }

-- The results named above the table (a: offset offset=0 ...), so that its columns are only letters wide.
Comparison.__tostring = result.guarded(messages.kind_comparison, function(c)
  return u.wrap(table.concat(c.legend, "\n"), nil, "   ") .. "\n" .. sweep.text_table(c.header, c.rows)
end)

local function describe(r)
  return r.kernel .. " " .. registry.params_text(r.kernel, r.params):gsub("n=[%d,]+ block=%d+ ?", "")
end

-- compare(a, b, ...): results side by side; for each metric the ratio to the first and a verdict
-- (time: from the samples' spreads, not the two medians alone).
function sweep.compare(...)
  local list = { n = select("#", ...), ... }
  if list.n < 2 then error(say("two_expected"), 2) end
  for i = 1, list.n do result.check_result(list[i], i, "compare") end
  list.n = nil
  local header, legend = { say("metric") }, {}
  for i, r in ipairs(list) do
    header[#header + 1] = string.char(96 + i)
    legend[i] = fmt("%s: %s", string.char(96 + i), describe(r))
    if r.model and r.model.limit then legend[i] = legend[i] .. say("model_limit", u.limit_text(r.model)) end
  end
  for i = 2, #list do header[#header + 1] = fmt("%s/a", string.char(96 + i)) end
  header[#header + 1] = say("verdict")
  local rows, modelled = {}, false
  for _, spec in ipairs(compare_rows) do
    if spec.when and not spec.when(list) then goto next_row end
    local row, base, values = { say(spec.label) }, spec.value(list[1]), {}
    for i, r in ipairs(list) do values[i] = spec.value(r) end
    for _, cell in ipairs(value_cells(values, #list, spec.verdict ~= nil and spec.label ~= "row_time")) do
      row[#row + 1] = cell
    end
    local verdicts = {}
    for i = 2, #list do
      local v = spec.value(list[i])
      row[#row + 1] = (v and base and base ~= 0) and fmt("%.2f", v / base) or "-"
      local verdict, of_model = nil, false
      if spec.verdict then verdict, of_model = spec.verdict(list[1], list[i]) end
      modelled = modelled or of_model
      verdicts[#verdicts + 1] = verdict or (v and base and say(alike(base, v) and "same" or v > base and "higher" or "lower")) or "-"
    end
    row[#row + 1] = table.concat(verdicts, ", ")
    rows[#rows + 1] = row
    ::next_row::
  end
  if modelled then legend[#legend + 1] = say("times_modelled") end
  return setmetatable({ header = header, legend = legend, rows = rows, results = list }, Comparison)
end

---------------------------------------------------------------------------
-- Plain text tables
---------------------------------------------------------------------------

-- Columns padded to their widest cell; numbers right-aligned.
function sweep.text_table(header, rows)
  local widths = {}
  for i, h in ipairs(header) do widths[i] = u.display_width(h) end
  for _, row in ipairs(rows) do
    for i, cell in ipairs(row) do widths[i] = math.max(widths[i] or 0, u.display_width(cell)) end
  end
  local function line(cells)
    local parts = {}
    for i, cell in ipairs(cells) do
      local pad = (" "):rep(widths[i] - u.display_width(cell))
      parts[i] = cell:match("^[≈%-]?[%d.,]+") and pad .. cell or cell .. pad
    end
    return (("  " .. table.concat(parts, "  ")):gsub("%s+$", ""))   -- no blanks after the last column
  end
  local lines, widest = { line(header) }, 0
  for _, row in ipairs(rows) do lines[#lines + 1] = line(row) end
  for _, text in ipairs(lines) do widest = math.max(widest, u.display_width(text)) end
  if widest > core.columns() then   -- a narrow terminal: the margin goes first
    for i, text in ipairs(lines) do lines[i] = text:sub(3) end
  end
  return table.concat(lines, "\n")
end

return sweep
