-- json.lua (warplab.json): JSON text to Lua values and back, as warplab
-- writes and reads it: results, recordings, progress, submissions, grades.
local u = require "warplab.text"

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
}
local say = u.messages("json", messages)
local fmt = u.fmt

local json = {}

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
json.number_text = number_text   -- a number as JSON writes it: CSV cells too (export.lua)

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

return json
