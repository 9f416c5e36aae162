-- layouts.lua: the files warplab writes, against their layouts in
-- docs/results.md ("Files: CSV, JSON and session records"): a CSV's header
-- and column order, its cells, lists joined by ';'; a JSON export's members,
-- lists, units and sorted keys; a session record's fields; and numbers that
-- read back as the very values the results held.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local json = require("warplab.json")
local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)

local rs = sweep("strided", { stride = pow2(0, 3), n = 4096, block = { 128, 256 } })

-- CSV
export(rs, dir .. "/s.csv")
local text = io.open(dir .. "/s.csv"):read("a")
local rows, header = require("warplab.export").parse_csv(text)
t.ok(header[1] == "kernel" and header[2] == "backend", "CSV: kernel and backend come first")
local params, rest, ordered = {}, {}, true
for i = 3, #header do
  if header[i]:find("^params%.") then
    ordered = ordered and #rest == 0
    params[#params + 1] = header[i]
  else
    rest[#rest + 1] = header[i]
  end
end
local function sorted(list) for i = 2, #list do if list[i - 1] > list[i] then return false end end return true end
t.ok(ordered and #params == #info("strided").params and sorted(params) and sorted(rest), "CSV: then the params, then the rest, each sorted by name")
t.is(#rows, #rs, "CSV: a line per result")
local width_ok = true
for line in text:gmatch("[^\n]+") do
  local _, commas = line:gsub(",", ",")
  width_ok = width_ok and (commas == #header - 1 or line:find('"', 1, true))
end
t.ok(width_ok, "CSV: every line has a cell per column")
local same = true
for i, row in ipairs(rows) do
  same = same and tonumber(row["model.time_ms"]) == rs[i].model.time_ms and tonumber(row["params.stride"]) == rs[i].params.stride
         and tonumber(row["device.peak_gbs"]) == device().peak_gbs and row["kernel"] == "strided"
end
t.ok(same, "CSV: numbers read back as the very values (model.time_ms, params.stride, device.peak_gbs)")
local with_warning
for i, r in ipairs(rs) do if #r.warnings > 1 then with_warning = i end end
if with_warning then
  t.is(rows[with_warning].warnings, table.concat(rs[with_warning].warnings, ";"), "CSV: a list is one cell, ';' between its items")
else
  t.ok(rows[1].warnings ~= nil, "CSV: a list is one cell (warnings)")
end

-- JSON
export(rs, dir .. "/s.json")
local raw = io.open(dir .. "/s.json"):read("a")
local data = json.decode(raw)
local members = {}
for k in pairs(data) do members[#members + 1] = k end
table.sort(members)
t.is(table.concat(members, ","), "results,units", "JSON: results and units, nothing else")
t.is(#data.results, #rs, "JSON: a result per result")
local r1 = data.results[1]
t.ok(r1.kernel == "strided" and r1.params.stride == 1 and r1.load.sectors == rs[1].load.sectors and
     r1.model.time_ms == rs[1].model.time_ms and r1.device.name == device().name, "JSON: the fields, nested, and the device")
t.ok(getmetatable(r1.warnings) == json.list_meta, "JSON: warnings is a list")
t.ok(data.units["model.time_ms"] == "ms" and data.units["load.sectors"] == "32-byte sectors" and data.units["params.stride"] == nil,
     "JSON: units by dotted path; params have none")
local first_result = raw:match('"results": %[%s*(%b{})')
local keys = {}
for key in first_result:gmatch('\n      "([%w_]+)":') do keys[#keys + 1] = key end
t.ok(#keys > 5 and sorted(keys), "JSON: an object's members sorted by name (" .. table.concat(keys, " ") .. ")")

-- A session record
local path = dir .. "/session.json"
core.capture(true)
record(path)
local r = launch("copy", { n = 1024 })
core.after_chunk('r = launch("copy", {n = 1024})', r)
core.chunk_done('r = launch("copy", {n = 1024})', "a card\n")
core.command_done(":where", "no lab is open\n")
record()
core.capture(false)
local session = json.decode(io.open(path):read("a"))
t.ok(session.path == path and session.version == core.version and session.device.name == device().name and
     session.started:match("^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%dZ$") and session.stopped:match("Z$"),
     "record: path, started and stopped (ISO 8601, UTC), version and device")
local first, second = session.commands[1], session.commands[2]
t.ok(#session.commands == 2 and first.code == 'r = launch("copy", {n = 1024})' and first.printed == "a card\n" and
     first.at:match("Z$") and first.values[1].results[1].kernel == "copy", "record: an input's code, when, what it printed and returned")
t.ok(second.command == ":where" and second.printed == "no lab is open\n", "record: a colon command")
os.execute("rm -rf " .. dir)
t.done()
