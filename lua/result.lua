-- result.lua (warplab.result): what a result of launch() is, as Lua checks
-- it: its fields and their types (docs/results.md), whether a value is a
-- result as launch() made it (result_problem, check_result), and the guard
-- that keeps a printed value's __tostring from failing when its fields were
-- changed (guarded), which each of warplab's printed tables uses.
local core = require "warplab.core"
local text = require "warplab.text"
local registry = require "warplab.registry"

local text_in, quote = text.text_in, text.quote
local family_by_name = registry.family_by_name

local messages = {
  -- what a result, a device ... that cannot be shown prints
  cannot_show = { en = "%s, so it cannot be shown", zh = "%s，所以无法显示" },
  fields_changed = { en = "%s whose fields were changed, so it cannot be shown", zh = "%s的字段被改过，所以无法显示" },
  -- what is wrong with a value that should be a result
  got = { en = "got %s", zh = "得到 %s" },
  result_field = { en = "got a result whose '%s' is %s", zh = "得到的结果中 '%s' 是%s" },
  missing = { en = "missing", zh = "缺失的" },
  a_type = { en = "a %s", zh = " %s" },
  no_such_kernel = { en = "got a result of kernel %s, which is none", zh = "得到核函数 %s 的结果，但没有这个核函数" },
  result_param = { en = "got a result whose 'params.%s' is %s", zh = "得到的结果中 'params.%s' 是 %s" },
  result_expected = { en = "bad argument #%d to '%s' (result of launch() expected, %s)",
                      zh = "bad argument #%d to '%s' (需要 launch() 的结果，%s)" },
}
local say = text.messages("result", messages)

local Result = core.Result
Result.__name = "warplab.result"

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
  { "atomic", "table?" }, { "reduction", "table?" }, { "shared_atomic", "table?" }, { "ldgsts", "table?" },
  { "checked_elements", "number?" }, { "output_elements", "number?" }, { "unchecked", "string?" },
  { "tolerance", "table?" }, { "printf", "string?" }, { "printf_not_shown", "number?" },
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
  if getmetatable(v) ~= Result then return say("got", quote(v)) end
  for _, field in ipairs(result_fields) do
    local path, wanted = field[1], field[2]
    local value, optional = field_of(v, path), wanted:sub(-1) == "?"
    if not (value == nil and optional) and type(value) ~= wanted:gsub("%?$", "") then
      return say("result_field", path, value == nil and say("missing") or say("a_type", type(value)))
    end
  end
  local family = family_by_name[v.kernel]
  if not family then return say("no_such_kernel", quote(v.kernel)) end
  for _, p in ipairs(family.params) do
    local value = rawget(v.params, p.name)
    local ok = math.type(value) == parameter_types[p.type] or type(value) == parameter_types[p.type]
    if ok and p.type == "block shape" then ok = math.type(value[1]) == "integer" and math.type(value[2]) == "integer" end
    if not ok then return say("result_param", p.name, quote(value, '"')) end
  end
  return nil
end

-- Raises "bad argument #arg to 'name' (result of launch() expected, got ...)" unless v is a result.
local function check_result(v, arg, name)
  local problem = result_problem(v)
  if problem then error(say("result_expected", arg, name, problem), 3) end
end

-- A __tostring that cannot fail on a value whose fields were changed: what
-- `show` makes of it, or a line saying why it cannot be shown. kind is {en=, zh=}.
local function guarded(kind, show, problem_of)
  return function(v)
    local problem = problem_of and problem_of(v)
    local ok, text = true, nil
    if not problem then ok, text = pcall(show, v) end
    if ok and type(text) == "string" then return text end
    if not ok and tostring(text):find("interrupted!", 1, true) then error(text, 0) end
    if problem then return say("cannot_show", (problem:gsub("^" .. say("got", ""), ""))) end
    return say("fields_changed", text_in(kind))
  end
end


-- "got 5": how a message names what it was given instead of what it wanted
-- (result_problem's words, which other modules' checks share).
local function got(what)
  return say("got", what)
end

return { result_problem = result_problem, check_result = check_result, guarded = guarded, got = got }
