-- export.lua: results as CSV and JSON (files, --format on stdout), and
-- record(), which keeps what a student typed and got, to hand in.
local core = ...
local u = core.util
local fmt = u.fmt

local messages = {
  -- json.decode's reasons (a damaged progress file's warning shows them)
  json_error = { en = "JSON: %s at character %d", zh = "JSON：%s（第 %d 个字符）" },
  unfinished_string = { en = "unfinished string", zh = "字符串没有结束" },
  bad_escape = { en = "bad escape", zh = "错误的转义" },
  control_in_string = { en = "a control character in a string (write it as an escape)", zh = "字符串中有控制字符（应写成转义）" },
  bad_unicode = { en = "bad \\u escape (four hex digits; a surrogate only in a pair)", zh = "错误的 \\u 转义（四位十六进制数；代理码元只能成对出现）" },
  bad_number = { en = "bad number (no leading zeros, digits after a point or an exponent)", zh = "错误的数（不能有前导零，小数点和指数后要有数字）" },
  key_expected = { en = "key expected", zh = "缺少键" },
  colon_expected = { en = "':' expected", zh = "缺少 ':'" },
  brace_expected = { en = "'}' expected", zh = "缺少 '}'" },
  bracket_expected = { en = "']' expected", zh = "缺少 ']'" },
  value_expected = { en = "value expected", zh = "缺少值" },
  text_after = { en = "text after the value", zh = "值后面还有文字" },
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
  -- record() and the session's journal
  where = { en = "This session is kept as it goes in %s", zh = "本次会话会随时记录在 %s" },
  failed = { en = "warning: this session's record cannot be kept (%s); record(\"file.json\") still works",
             zh = "警告：无法保存本次会话的记录（%s）；record(\"file.json\") 仍然可用" },
  wrote = { en = "record: wrote %d inputs and %d answers to %s", zh = "record()：已把 %d 条输入和 %d 个答案写入 %s" },
  started = { en = "record: keeping every input from now on; record() writes them to %s",
              zh = "record()：从现在起记录每一条输入；record() 把它们写入 %s" },
  record_nul = { en = "bad argument #1 to 'record' (a file name without NUL bytes expected)",
                 zh = "bad argument #1 to 'record' (需要不含 NUL 字节的文件名)" },
  record_kind = { en = "bad argument #1 to 'record' (a file name ending in .json expected)",
                  zh = "bad argument #1 to 'record' (需要以 .json 结尾的文件名)" },
  not_recording = { en = "record: nothing is being recorded (record(\"file.json\") starts)",
                    zh = "record()：现在没有在记录（record(\"file.json\") 开始记录）" },
  record_failed = { en = "record: cannot write %s; still recording: record(\"other.json\") to choose another file, then record()",
                    zh = "record()：无法写入 %s；仍在记录：用 record(\"other.json\") 换一个文件，再调用 record()" },
}
local say = u.messages("export", messages)

---------------------------------------------------------------------------
-- JSON
---------------------------------------------------------------------------

local json = {}
core.json = json

local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n",
                  ["\r"] = "\\r", ["\t"] = "\\t" }

local function encode_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c) return escapes[c] or fmt("\\u%04x", c:byte()) end) .. '"'
end

local function is_array(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n == #t
end

-- A number as the fewest digits that read back as the same number:
-- 4814.304, not 4814.3040000000001 (as %.17g wrote it); whole numbers without a point.
local function number_text(v)
  if math.type(v) == "integer" then return tostring(v) end
  if v == math.floor(v) and math.abs(v) < 1e15 then return fmt("%.0f", v) end   -- 1980, not 1.98e+03
  for digits = 1, 17 do
    local text = fmt("%." .. digits .. "g", v)
    if tonumber(text) == v then return text end
  end
  return fmt("%.17g", v)
end

-- json.encode(value): objects with their keys sorted, so the same data gives the same text.
function json.encode(value, indent, depth)
  depth = depth or 0
  local kind = type(value)
  if kind == "nil" then return "null" end
  if kind == "boolean" then return tostring(value) end
  if kind == "number" then
    if value ~= value or value == math.huge or value == -math.huge then return "null" end
    return number_text(value)
  end
  if kind == "string" then return encode_string(value) end
  if kind ~= "table" then return encode_string(tostring(value)) end
  local pad = indent and "\n" .. (" "):rep((depth + 1) * indent) or ""
  local close = indent and "\n" .. (" "):rep(depth * indent) or ""
  local parts = {}
  if getmetatable(value) == json.list_meta and next(value) == nil then return "[]" end
  if next(value) == nil then return "{}" end
  if is_array(value) then
    for i, v in ipairs(value) do parts[i] = pad .. json.encode(v, indent, depth + 1) end
    return "[" .. table.concat(parts, ",") .. close .. "]"
  end
  local keys = {}
  for k in pairs(value) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v = value[k]
    if v == nil then v = value[tonumber(k)] end
    parts[#parts + 1] = pad .. encode_string(k) .. (indent and ": " or ":") .. json.encode(v, indent, depth + 1)
  end
  return "{" .. table.concat(parts, ",") .. close .. "}"
end

-- json.decode(text): the value, or nil and where it went wrong.
function json.decode(text)
  local pos = 1
  local function fail(what) error(say("json_error", say(what), pos), 0) end
  local function skip() pos = text:find("[^ \t\r\n]", pos) or #text + 1 end
  local value
  -- \uXXXX at pos, or a surrogate pair of them, as UTF-8.
  local function code_point()
    local function four(at)
      local hex = text:match("^\\u(%x%x%x%x)", at)
      return hex and tonumber(hex, 16)
    end
    local first = four(pos)
    if not first or (first >= 0xDC00 and first <= 0xDFFF) then fail("bad_unicode") end
    if first < 0xD800 or first > 0xDBFF then pos = pos + 6; return utf8.char(first) end
    local second = four(pos + 6)
    if not second or second < 0xDC00 or second > 0xDFFF then fail("bad_unicode") end
    pos = pos + 12
    return utf8.char(0x10000 + (first - 0xD800) * 0x400 + (second - 0xDC00))
  end
  -- A number as RFC 8259 writes it: -?(0|[1-9]digits)(.digits)?([eE][+-]?digits)?
  local function number_at()
    local whole = text:match("^-?0", pos) or text:match("^-?[1-9]%d*", pos)
    if not whole then fail(text:match("^-", pos) and "bad_number" or "value_expected") end
    local fraction = text:match("^%.%d*", pos + #whole) or ""
    local exponent = text:match("^[eE][-+]?%d*", pos + #whole + #fraction) or ""
    if fraction == "." or exponent:match("^[eE][-+]?$") or text:match("^%d", pos + #whole + #fraction + #exponent) then
      fail("bad_number")
    end
    local number = whole .. fraction .. exponent
    pos = pos + #number
    return math.tointeger(tonumber(number)) or tonumber(number)
  end
  local function string_at()
    local out = {}
    pos = pos + 1
    while true do
      local c = text:sub(pos, pos)
      if c == "" then fail("unfinished_string") end
      if c == '"' then pos = pos + 1; return table.concat(out) end
      if c < " " then fail("control_in_string") end
      if c == "\\" then
        local e = text:sub(pos + 1, pos + 1)
        local simple = { b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", ['"'] = '"', ["\\"] = "\\", ["/"] = "/" }
        if simple[e] then out[#out + 1] = simple[e]; pos = pos + 2
        elseif e == "u" then out[#out + 1] = code_point(); else fail("bad_escape") end
      else   -- a run of plain characters at once: a long string costs one scan, not a table entry a byte
        local stop = text:find('[%z\1-\31"\\]', pos) or #text + 1
        out[#out + 1] = text:sub(pos, stop - 1)
        pos = stop
      end
    end
  end
  function value()
    skip()
    local c = text:sub(pos, pos)
    if c == "{" then
      local object = {}
      pos = pos + 1; skip()
      if text:sub(pos, pos) == "}" then pos = pos + 1; return object end
      repeat
        skip()
        if text:sub(pos, pos) ~= '"' then fail("key_expected") end
        local key = string_at()
        skip()
        if text:sub(pos, pos) ~= ":" then fail("colon_expected") end
        pos = pos + 1
        object[key] = value()
        skip()
        local sep = text:sub(pos, pos)
        pos = pos + 1
      until sep ~= ","
      if text:sub(pos - 1, pos - 1) ~= "}" then fail("brace_expected") end
      return object
    elseif c == "[" then
      local array = json.list()
      pos = pos + 1; skip()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return array end
      repeat
        array[#array + 1] = value()
        skip()
        local sep = text:sub(pos, pos)
        pos = pos + 1
      until sep ~= ","
      if text:sub(pos - 1, pos - 1) ~= "]" then fail("bracket_expected") end
      return array
    elseif c == '"' then
      return string_at()
    end
    for word, v in pairs({ ["true"] = true, ["false"] = false, null = json.null }) do
      if text:sub(pos, pos + #word - 1) == word then pos = pos + #word; return v end
    end
    return number_at()
  end
  local ok, result = pcall(function()
    local v = value()
    skip()
    if pos <= #text then fail("text_after") end
    return v
  end)
  if not ok then return nil, result end
  return result
end
json.null = setmetatable({}, { __name = "json.null", __tostring = function() return "null" end })
-- A table that is a list even when it is empty: [] where a plain empty table is {}.
json.list_meta = { __name = "json.list" }
function json.list(t) return setmetatable(t or {}, json.list_meta) end

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
core.unit_of = unit_of

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
  local d = plain(device())
  d.notice = nil
  return d
end
core.device_facts = device_facts

local function result_data(r)
  local data = plain(r)
  data.device = device_facts()
  data.warnings = json.list(data.warnings)   -- a list, [] when there are none
  if data.samples then data.samples = json.list(data.samples) end
  return data
end
core.result_data = result_data

-- The results in a value: one result, a results list, or a list of results.
local function result_list(value)
  if getmetatable(value) == core.Result then return { value } end
  if type(value) == "table" and (getmetatable(value) == core.Results or getmetatable(value[1]) == core.Result) then
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

core.csv_cell = csv_cell

local leading = { kernel = 1, backend = 2 }

-- CSV text for a list of results: a header line, then one line per result.
function core.csv(results)
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
function core.parse_csv(text)
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
function core.json_results(results)
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
  csv = core.csv,
  json = core.json_results,
}

-- Why value is not a result or a list of results, or nil when it is one.
local function not_results(value)
  if getmetatable(value) == core.Result then return nil end
  if type(value) ~= "table" then return u.say("got", type(value)) end
  if value[1] == nil then return say("got_empty") end
  for i, v in ipairs(value) do
    if getmetatable(v) ~= core.Result then
      return type(v) == "table" and say("item_table", i) or say("item_type", i, type(v))
    end
  end
end

-- export(results, "file.csv" | "file.json"): writes every field of every result.
function export(value, path)
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
function core.format_results(results)
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

---------------------------------------------------------------------------
-- record()
---------------------------------------------------------------------------

local recording   -- record("file.json")'s: {path=, started=, device=, version=, commands=}
local journal     -- the REPL's own record of the session: {path=, file=}
local entry       -- what is being kept of the input running now
local last_kept   -- the last result an entry kept


-- Stops keeping the journal, saying why once.
local function journal_failed(why)
  if journal.file then journal.file:close() end
  journal.file = nil
  print(say("failed", tostring(why)))
end

-- Appends one entry to the journal, a JSON line, flushed: a crash loses nothing.
local function journal_write(done)
  if not (journal and journal.file) then return end
  local ok, why = journal.file:write(json.encode(done), "\n")
  if ok then ok, why = journal.file:flush() end
  if not ok then journal_failed(why) end
end

-- The results an input made: the student's last result or list, when new since the last entry.
local function new_results()
  local list, result = core.last_results(), core.last_result()
  if result == nil or result == last_kept then return nil end
  last_kept = result
  local kept = {}
  for i, r in ipairs(list and list[#list] == result and list or { result }) do kept[i] = plain(r) end
  return kept
end

-- Ends the entry being kept: into the recording and the journal.
local function finish_entry(printed)
  local done = entry
  if not done then return end
  entry = nil
  done.printed = printed ~= "" and printed or nil
  done.results = done.results or new_results()
  if recording then recording.commands[#recording.commands + 1] = done end
  journal_write(done)
end

-- Starts keeping an input; answers given before it was known (answer() in a chunk, :answer) go with it.
local function start_entry(fields)
  if entry and not (entry.code or entry.command) then
    fields.answers, entry = entry.answers, nil
  end
  finish_entry()
  fields.at = u.utc_now()
  entry = fields
end

-- The values a chunk returned, as data.
local function values_data(...)
  local values = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    local results = result_list(v)
    if results then
      local list = {}
      for k, r in ipairs(results) do list[k] = plain(r) end
      values[i] = { results = list }
    else
      values[i] = type(v) == "table" and u.value_line(v) or v
    end
  end
  return values
end

-- Called after each chunk that ran (at the prompt, or a lab's experiment), with what it returned.
function core.after_chunk(code, ...)
  core.note_sources()
  start_entry({ code = code, values = values_data(...), results = new_results() })
end

-- Called by the prompt when a chunk is done, with all it printed (errors too).
function core.chunk_done(code, printed)
  if not (entry and entry.code == code) then start_entry({ code = code }) end
  finish_entry(printed)
end

-- Called by the prompt when a colon command is done, with all it printed.
function core.command_done(line, printed)
  start_entry({ command = line })
  finish_entry(printed)
end

-- A lab's verdict on an answer ({lab=, step=, answer=, verdict=, gap=}), kept with the input that gave it.
function core.keep_answer(answer)
  if not entry then start_entry({}) end
  entry.answers = entry.answers or {}
  entry.answers[#entry.answers + 1] = answer
end

-- At the prompt's start: the journal of this session, in the state folder; says where.
function core.start_journal()
  local path = core.journal_path()
  if not path then return end
  journal = { path = path }
  local file, why = io.open(path, "a")
  if not file then return journal_failed(why) end
  journal.file = file
  print(say("where", path))
  journal_write({ started = u.utc_now(), device = device_facts(), version = core.version })
end

-- record("session.json") starts keeping every command typed at the prompt and what it returned
-- (while recording, it changes the file the recording goes to, keeping what it has);
-- record() stops and writes them, with the device, to the file. Returns the file name.
-- When the file cannot be written, the recording goes on, to be written elsewhere.
function record(path)
  if path ~= nil then
    if type(path) == "string" and path:find("%z") then error(say("record_nul"), 2) end
    if type(path) ~= "string" or not path:find("%.json$") then error(say("record_kind"), 2) end
    if recording then
      recording.path = path
    else
      recording = { path = path, started = u.utc_now(), device = device_facts(),
                    version = core.version, commands = {} }
      print(say("started", path))
    end
    return path
  end
  if not recording then error(say("not_recording"), 2) end
  finish_entry()   -- the input before this one, if it is still open
  local r = recording
  local text = json.encode({ path = r.path, started = r.started, stopped = u.utc_now(), device = r.device,
                             version = r.version, commands = json.list(r.commands) }, 2) .. "\n"
  local ok, why = core.write_file(r.path, text)
  if not ok then
    error(say("record_failed", why), 2)
  end
  recording = nil
  local answers = 0
  for _, c in ipairs(r.commands) do answers = answers + #(c.answers or {}) end
  print(say("wrote", #r.commands, answers, r.path))
  return r.path
end
