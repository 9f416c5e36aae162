-- export.lua (warplab.export): results as plain data, CSV and JSON (export()
-- to files, --format on stdout).
local core = require "warplab.core"
local u = require "warplab.text"
require "warplab.card"   -- the result card, which results print as under --format table (below)
local result = require "warplab.result"
local json = require "warplab.json"
local number_text = json.number_text
local fmt = u.fmt

local export = {}

local messages = {
  -- export()
  got_empty = { en = "got an empty table", zh = "得到空表" },
  item_table = { en = "item %d is a table, not a result", zh = "第 %d 项是表，不是结果" },
  item_type = { en = "item %d is a %s", zh = "第 %d 项是 %s" },
  results_expected = { en = "bad argument #1 to 'export' (a result or a list of results expected; %s)",
                       zh = "bad argument #1 to 'export' (需要一个结果或结果列表；%s)" },
  export_nul = { en = "bad argument #2 to 'export' (a file name without NUL bytes expected)",
                 zh = "bad argument #2 to 'export' (需要不含 NUL 字节的文件名)" },
  export_kind = { en = "bad argument #2 to 'export' (a file name ending in .csv or .json expected)",
                  zh = "bad argument #2 to 'export' (需要以 .csv 或 .json 结尾的文件名)" },
  export_failed = { en = "export: cannot write %s", zh = "export()：无法写入 %s" },
}
local say = u.messages("export", messages)

---------------------------------------------------------------------------
-- Results as plain data: every field, the device, the units
---------------------------------------------------------------------------

-- Each numeric field's unit, by the last part of its name (time_ms, load.sectors,
-- model.dram.read_bytes, device.sm_count): a field whose name ends so has it,
-- whatever holds it. Params, ordinals and counts of things have none.
local UNIT_BY_NAME = {
  { "_ms$", "ms" }, { "^samples$", "ms" }, { "_gbs$", "GB/s (10^9 bytes per second)" }, { "_mhz$", "MHz" },
  { "bytes$", "bytes" }, { "_bytes_per_", "bytes" }, { "^sectors$", "32-byte sectors" }, { "^lines$", "128-byte lines" },
  { "^l2_sectors$", "32-byte sectors" }, { "^l2_lines$", "128-byte lines" },
  { "^requests$", "warp requests (memory instructions of a warp)" },
  { "^sectors_per_request$", "32-byte sectors per warp request" }, { "^ideal$", "32-byte sectors per warp request" },
  { "^useful_fraction$", "fraction of the fetched bytes used (0 to 1)" },
  { "wavefronts$", "shared-memory wavefronts" }, { "^bank_conflicts$", "shared-memory wavefronts" },
  { "^passes$", "constant-cache passes" }, { "_bits$", "bits" }, { "^sm_count$", "SMs" },
  { "^max_threads_per_sm$", "threads" }, { "^max_blocks_per_sm$", "blocks" }, { "^lane_instructions$", "lane-instructions" },
  { "^read_lines$", "128-byte lines" }, { "^resident_warps$", "warps an SM holds at once" }, { "^warps$", "warps" },
  { "^waves$", "waves (times the SMs fill with resident warps)" },
  { "^instructions$", "warp-instructions (instructions of a warp, of every kind)" },
}

local function unit_of(name)
  for _, rule in ipairs(UNIT_BY_NAME) do if name:match(rule[1]) then return rule[2] end end
end

-- The units of the numeric fields in data (results as plain tables), by their dotted names.
local function units_of(data, prefix, units)
  for key, value in pairs(data) do
    local name = prefix .. tostring(key)
    if type(value) == "table" and key ~= "params" and math.type(key) == nil then
      units_of(value, name .. ".", units)
    elseif type(value) == "number" and math.type(key) == nil then
      units[name] = prefix:match("terms%.$") and "ms" or unit_of(tostring(key))   -- model.terms: each term's time
    end
  end
  return units
end
export.unit_of = unit_of

-- A result as plain nested tables (no metatables), with the device it ran on.
local function plain(value)
  if type(value) ~= "table" then return value end
  local copy = {}
  for k, v in pairs(value) do
    if k ~= "map" then copy[k] = plain(v) end
  end
  return copy
end

local function device_facts()
  local d = plain(core.globals.device())
  d.notice = nil
  return d
end
export.device_facts = device_facts

local function result_data(r)
  local data = plain(r)
  data.device = device_facts()
  data.warnings = json.list(data.warnings)   -- a list, [] when there are none
  if data.samples then data.samples = json.list(data.samples) end
  return data
end
export.result_data = result_data

-- The results in a value: one result, a results list, or a list of results
-- (sweep.lua, which requires this module, makes the lists).
local function result_list(value)
  if getmetatable(value) == core.Result then return { value } end
  if type(value) == "table" and (getmetatable(value) == require("warplab.sweep").Results or getmetatable(value[1]) == core.Result) then
    return value
  end
  return nil
end

---------------------------------------------------------------------------
-- CSV: one row per result, one column per field ("params.offset", "load.sectors", ...)
---------------------------------------------------------------------------

local function flatten(value, prefix, out)
  for k, v in pairs(value) do
    local key = prefix and prefix .. "." .. k or tostring(k)
    if type(v) == "table" and not (#v > 0 and type(v[1]) ~= "table") then
      flatten(v, key, out)
    elseif type(v) == "table" then
      local parts = {}
      for i, x in ipairs(v) do parts[i] = tostring(x) end
      out[key] = table.concat(parts, ";")   -- samples and block shapes: one cell, ';' between values
    else
      out[key] = v
    end
  end
  return out
end

local function csv_cell(v)
  if v == nil then return "" end
  if type(v) == "number" then return number_text(v) end
  local s = tostring(v)
  if s:find('[,"\n]') then s = '"' .. s:gsub('"', '""') .. '"' end
  return s
end

export.csv_cell = csv_cell

local leading = { kernel = 1, backend = 2 }

-- CSV text for a list of results: a header line, then one line per result.
function export.csv(results)
  local rows, keys, seen = {}, {}, {}
  for i, r in ipairs(results) do
    rows[i] = flatten(result_data(r), nil, {})
    for k in pairs(rows[i]) do
      if not seen[k] then seen[k] = true; keys[#keys + 1] = k end
    end
  end
  table.sort(keys, function(a, b)
    local pa, pb = leading[a] or (a:find("^params%.") and 3) or 9, leading[b] or (b:find("^params%.") and 3) or 9
    if pa ~= pb then return pa < pb end
    return a < b
  end)
  local lines = { table.concat(keys, ",") }
  for _, row in ipairs(rows) do
    local cells = {}
    for i, k in ipairs(keys) do cells[i] = csv_cell(row[k]) end
    lines[#lines + 1] = table.concat(cells, ",")
  end
  return table.concat(lines, "\n") .. "\n"
end

-- Reads CSV text back: a list of rows, each {column = text}.
function export.parse_csv(text)
  local records, fields, field, quoted, i = {}, {}, {}, false, 1
  local function end_field() fields[#fields + 1] = table.concat(field); field = {} end
  while i <= #text do
    local c = text:sub(i, i)
    if quoted then
      if c == '"' and text:sub(i + 1, i + 1) == '"' then field[#field + 1] = '"'; i = i + 1
      elseif c == '"' then quoted = false
      else field[#field + 1] = c end
    elseif c == '"' then quoted = true
    elseif c == "," then end_field()
    elseif c == "\n" then end_field(); records[#records + 1] = fields; fields = {}
    else field[#field + 1] = c end
    i = i + 1
  end
  local header, rows = records[1] or {}, {}
  for r = 2, #records do
    local row = {}
    for k, name in ipairs(header) do row[name] = records[r][k] end
    rows[#rows + 1] = row
  end
  return rows, header
end

-- JSON text for a list of results, with the units of the fields.
function export.json_results(results)
  local list = {}
  local units = {}
  for i, r in ipairs(results) do
    list[i] = result_data(r)
    units_of(list[i], "", units)
  end
  return json.encode({ results = list, units = units }, 2) .. "\n"
end

---------------------------------------------------------------------------
-- export(), --format
---------------------------------------------------------------------------

local writers = {
  csv = export.csv,
  json = export.json_results,
}

-- Why value is not a result or a list of results, or nil when it is one.
local function not_results(value)
  if getmetatable(value) == core.Result then return nil end
  if type(value) ~= "table" then return result.got(type(value)) end
  if value[1] == nil then return say("got_empty") end
  for i, v in ipairs(value) do
    if getmetatable(v) ~= core.Result then
      return type(v) == "table" and say("item_table", i) or say("item_type", i, type(v))
    end
  end
end

-- export(results, "file.csv" | "file.json"): writes every field of every result.
function export.export(value, path)
  local problem = not_results(value)
  if problem then error(say("results_expected", problem), 2) end
  if type(path) == "string" and path:find("%z") then error(say("export_nul"), 2) end
  local kind = type(path) == "string" and path:match("%.(%w+)$")
  if not writers[kind] then error(say("export_kind"), 2) end
  local ok, why = core.write_file(path, writers[kind](result_list(value)))
  if not ok then error(say("export_failed", why), 2) end
  return path
end

-- Under --format csv|json, results print as data instead of text: true when it printed them.
function export.format_results(results)
  local writer = writers[core.format()]
  if not writer then return false end
  core.write(writer(results))
  return true
end

local text_tostring = core.Result.__tostring
core.Result.__tostring = function(r)
  local writer = writers[core.format()]
  if writer then return (writer({ r }):gsub("\n$", "")) end
  return text_tostring(r)
end

-- What record() keeps of a result and of what a chunk returned.
export.plain, export.result_list = plain, result_list

return export
