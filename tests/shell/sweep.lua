-- sweep.lua: range(), pow2(), sweep() with its table, results lists,
-- compare(), export() to CSV and JSON read back, and plot()'s SVG.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

t.is(table.concat(range(0, 4), ","), "0,1,2,3,4", "range is inclusive")
t.is(table.concat(range(0, 32, 8), ","), "0,8,16,24,32", "range with a step")
t.is(table.concat(pow2(0, 6), ","), "1,2,4,8,16,32,64", "pow2 gives powers of two")
t.raises(function() range(0, 1.5) end, {"bad argument #2 to 'range'", "integer expected"}, "range needs integers")
t.raises(function() pow2(3, 1) end, {"bad argument #2 to 'pow2'"}, "pow2 needs first <= last")

-- The done-when sweep: 0, 8, 16, 24, 32 at 4 sectors per request, the rest at 5.
local r = sweep("offset", {offset = range(0, 32), n = 1 << 16})
t.is(#r, 33, "33 configurations")
local ok = true
for i, v in ipairs(r:column("sectors_per_request")) do
  local offset = r[i].params.offset
  ok = ok and v == (offset % 8 == 0 and 4.0 or 5.0)
end
t.ok(ok, "multiples of 8 give 4.00 sectors per request, the rest 5.00")
t.is(r:column("offset")[9], 8, "column() gives parameters")
t.is(r:column("load.requests")[1], r[1].load.requests, "column() follows field paths")
t.ok(tostring(r):find("33 results of offset", 1, true), "a results list prints a summary")
t.is(r.y, "sectors_per_request", "on the sim backend the chart shows sectors per request")
t.ok(r:table_text():find("load sect/req", 1, true), "the table names its columns")
t.ok(r:chart_text():find("sectors/request", 1, true), "the chart's axis has units")

-- Two swept parameters: one series per value of the second.
local grid = sweep("copy", {vec = {1, 2, 4}, block = {128, 256}, n = 1 << 16})
t.is(#grid, 6, "two lists sweep every combination")
t.ok(grid:chart_text():find("block=256", 1, true), "the chart has a series per value of the second parameter")

t.raises(function() sweep("offset", {offset = 1}) end, {"one or two parameters must be lists"}, "a sweep needs a list")
t.raises(function() sweep("offset", {offset = range(0, 1), y = "speed"}) end, {"y must be one of"}, "an unknown metric")

-- compare(): ratios and verdicts.
local c = compare(r[1], r[2])
local text = tostring(c)
t.ok(text:find("load sectors", 1, true) and text:find("more", 1, true), "compare says which reads more sectors")
t.ok(text:find("same", 1, true), "... and what stayed the same")
t.raises(function() compare(r[1]) end, {"at least two results"}, "compare needs two")
-- Two launches alike: every verdict "same", never "1.00 slower".
local twin = compare(launch("copy", { n = 1 << 16 }), launch("copy", { n = 1 << 16 }))
local verdicts = {}
for _, row in ipairs(twin.rows) do verdicts[#verdicts + 1] = row[#row] end
local all_same = true
for _, v in ipairs(verdicts) do all_same = all_same and (v:find("^same") ~= nil or v == "-") end
t.ok(all_same, "two launches alike: every verdict is same (" .. table.concat(verdicts, "; ") .. ")")
-- Counts that differ a little print with the digits that show it: offset 1
-- reads 64 DRAM bytes more than offset 0 of 537 MB, and says "more".
local dram_row
for _, row in ipairs(compare(launch("offset", { offset = 0 }), launch("offset", { offset = 1 })).rows) do
  if row[#row] == "more" and row[2]:find("%.") then dram_row = row end
end
t.ok(dram_row and dram_row[2] ~= dram_row[3], "a count a little more prints with the digits that show it (" ..
     (dram_row and dram_row[2] .. " and " .. dram_row[3] or "no such row") .. ")")
-- A modelled time a hair apart prints as 1.00 and is the same.
local a_result, b_result = launch("copy", { n = 1 << 20 }), launch("copy", { n = (1 << 20) + 32 })
local near = compare(a_result, b_result)
t.is(near.rows[1][#near.rows[1]], "same", "a modelled time whose ratio prints as 1.00 is the same")
t.ok(tostring(near):find("(times modelled: no samples to judge their noise by)", 1, true), "... and compare says once that the times are modelled")

-- export(): CSV and JSON, read back.
local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)
export(r, dir .. "/sweep.csv")
local csv_text = io.open(dir .. "/sweep.csv"):read("a")
local rows, header
local parse_csv = require("warplab.export").parse_csv
rows, header = parse_csv(csv_text)
t.is(#rows, 33, "the CSV has a row per result")
t.is(tonumber(rows[2]["params.offset"]), 1, "... with the parameters")
t.is(tonumber(rows[2]["load.sectors"]), r[2].load.sectors, "... and the counts")
t.ok(rows[1]["device.name"] ~= nil and rows[1]["device.peak_gbs"] ~= nil, "... and the device")
-- Numbers as the fewest digits that read back the same: 4814.304, never
-- 4814.3040000000001 or 4.9699999999999998. Each number with a fraction is
-- checked: one digit fewer would not read back as the same value. (A long
-- one can be right: a measured 0.6756999999997 is that double's shortest.)
local longer
for cell in csv_text:gmatch("[^,\n]+") do
  local digits = cell:match("^%-?(%d+%.%d*[1-9])$")   -- "9.0" is a string (compute_capability)
  local value = digits and tonumber(cell)
  local significant = digits and #digits:gsub("%.", ""):gsub("^0+", "")
  if value and significant > 1 and tonumber(string.format("%." .. (significant - 1) .. "g", value)) == value then
    longer = longer or cell
  end
end
t.ok(longer == nil, "the CSV's numbers are the shortest that read back the same (" .. tostring(longer) .. ")")
local same_back = true
for i, row in ipairs(rows) do
  same_back = same_back and tonumber(row["load.sectors_per_request"]) == r[i].load.sectors_per_request and
              tonumber(row["model.time_ms"]) == r[i].model.time_ms
end
t.ok(same_back, "... and each reads back as the very number it was (sectors per request, modelled times)")
export(r[3], dir .. "/one.json")
local json = require("warplab.json")
local data = json.decode(io.open(dir .. "/one.json"):read("a"))
t.is(data.results[1].params.offset, 2, "the JSON has the parameters")
t.is(data.results[1].load.sectors, r[3].load.sectors, "... the counts")
t.is(data.units.time_ms, nil, "... and the units: no time of a modelled launch, so no unit for it")
t.is(data.units["model.time_ms"], "ms", "... the modelled time's unit")
-- Every numeric field of a result has its unit but the params and the device's ordinal.
export(launch("transpose", { variant = "shared", rows = 256, cols = 256 }), dir .. "/shared.json")
local shared = json.decode(io.open(dir .. "/shared.json"):read("a"))
local without = {}
local function walk(value, prefix)
  for key, v in pairs(value) do
    local name = prefix .. key
    if type(v) == "table" and key ~= "params" then walk(v, name .. ".")
    elseif math.type(v) and name ~= "device.ordinal" and not shared.units[name] then without[#without + 1] = name end
  end
end
walk(shared.results[1], "")
table.sort(without)
t.ok(#without == 0, "every numeric field has a unit in the JSON (without: " .. table.concat(without, ", ") .. ")")
t.is(shared.units["shared_load.bank_conflicts"], "shared-memory wavefronts", "... bank conflicts in wavefronts")
-- The decoder takes JSON as RFC 8259 writes it, and nothing else.
for _, case in ipairs({
  { "[1,2] garbage", "text after the value" }, { "01", "bad number" }, { "[1.]", "bad number" }, { "1e", "bad number" },
  { "-", "bad number" }, { '"a\tb"', "a control character in a string" }, { '"\\ud83d"', "bad \\u escape" },
  { '"\\ude00\\ud83d"', "bad \\u escape" }, { '"\\u12"', "bad \\u escape" },
}) do
  local value, why = json.decode(case[1])
  t.ok(value == nil and tostring(why):find(case[2], 1, true), string.format("json.decode refuses %q: %s", case[1], tostring(why)))
end
t.is(json.decode('"\\ud83d\\ude00"'), "\u{1F600}", "a surrogate pair is one character, in UTF-8")
t.is(json.decode("-0.5e+2"), -50.0, "a number with a sign, a fraction and an exponent")
t.is(json.encode(json.decode('{"a": [], "b": {}}')), '{"a":[],"b":{}}', "an empty list stays [] and an empty object {}")
export(launch("copy", { n = 1 << 24 }), dir .. "/quiet.json")
t.ok(io.open(dir .. "/quiet.json"):read("a"):find('"warnings": []', 1, true), "a result with no warnings has warnings: []")
t.is(json.decode(json.encode("tab\tand\1")), "tab\tand\1", "control characters go out as escapes and come back")
t.raises(function() export(r, dir .. "/x.txt") end, {"ending in .csv or .json"}, "export wants a known format")

-- plot(): a self-contained SVG with axes, labels and a series.
local svg_file = plot(sweep("strided", {stride = pow2(0, 5), n = 1 << 16}), {file = dir .. "/plot.svg"})
local svg = io.open(svg_file):read("a")
t.ok(svg:find("<svg", 1, true) and svg:find('class="series"', 1, true), "the SVG has a series")
t.ok(svg:find("load sectors per request (sectors/request)", 1, true) and svg:find(">stride<", 1, true),
     "... and both axis labels")
t.raises(function() plot(r, {file = dir .. "/p.gif"}) end, {"must end in .svg or .png"}, "plot wants .svg or .png")
t.ok(svg:find("(modelled for NVIDIA H200)", 1, true) and not svg:find("H200 (modelled))", 1, true),
     "the title names the modelled device once, not \"(modelled for NVIDIA H200 (modelled))\"")
-- The x axis ends where the data does: offsets 0 to 32 have ticks up to 30, none at 35 or 40.
local offsets = sweep("offset", { offset = range(0, 32), n = 4096 })
local offset_svg = io.open(plot(offsets, { file = dir .. "/offsets.svg" })):read("a")
local last_tick = 0
for label in offset_svg:gmatch('y="419" text%-anchor="middle">(%d+)<') do last_tick = math.max(last_tick, tonumber(label)) end
t.ok(last_tick == 30, "the x ticks stop where the data does (the last is " .. last_tick .. ", not 40)")
-- A peak far above the data is named, not drawn to scale: the bars are not flattened against the axis.
local small = sweep("copy", { n = pow2(10, 14), y = "bandwidth" })
local small_svg = io.open(plot(small, { file = dir .. "/small.svg" })):read("a")
t.ok(small_svg:find("peak 4814 GB/s, above", 1, true) and not small_svg:find('class="mark"><line', 1, true),
     "a peak over 3 times the data is named at the top, not drawn as a line")
t.ok(small:chart_text():find("off the scale", 1, true), "... and the text chart says so too, below its bars")
local large_svg = io.open(plot(sweep("copy", { n = pow2(20, 22), y = "bandwidth" }), { file = dir .. "/large.svg" })):read("a")
t.ok(large_svg:find('class="mark"><line', 1, true), "a peak within reach of the data is drawn as a line")
-- y = any numeric field of the results.
local field_svg = io.open(plot(offsets, { file = dir .. "/field.svg", y = "load.requests" })):read("a")
t.ok(field_svg:find("load.requests (warp requests", 1, true), "y = a field of the results, labelled with its unit")
t.raises(function() plot(offsets, { file = dir .. "/none.svg", y = "load.nothing" }) end,
         { "y = a metric (bandwidth", "or a numeric field of the results", "got 'load.nothing'" }, "y = a field no result has: one line")
os.execute("rm -rf " .. dir)
t.done()
