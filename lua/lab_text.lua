-- lab_text.lua (warplab.lab_text): a lab's text as it reaches the student:
-- its language ({en=, zh=}), the device's facts it names (${l2_mib}),
-- controls and bad bytes removed (clean), its code with every character
-- shown (visible), wrapped to the terminal, units in the student's language.
-- Lab text is code from elsewhere: nothing it holds may drive the terminal.
local core = require "warplab.core"
local common_text = require "warplab.text"   -- every module's text helpers

local fmt = common_text.fmt
local C = core.globals   -- device(), the API's in C

-- text with every invalid UTF-8 byte replaced by replace(byte).
local function valid_utf8(text, replace)
  local parts, i = {}, 1
  while true do
    local length, bad = utf8.len(text, i)
    if length then parts[#parts + 1] = text:sub(i); break end
    parts[#parts + 1] = text:sub(i, bad - 1)
    parts[#parts + 1] = replace(text:byte(bad))
    i = bad + 1
  end
  return table.concat(parts)
end

-- Characters a terminal acts on rather than shows: C0 and C1 controls (but
-- tab and newline), and the bidirectional overrides that reorder what is shown.
local CONTROL = "[%z\1-\8\11-\31\127]"
local C1_CONTROL = "\194[\128-\159]"
local BIDI = { "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
               "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}" }

-- A lab's text as it may reach the terminal: controls removed, bad bytes as U+FFFD.
local function clean(text)
  text = valid_utf8(tostring(text), function() return "\u{FFFD}" end)
  text = text:gsub(CONTROL, ""):gsub(C1_CONTROL, "")
  for _, mark in ipairs(BIDI) do text = text:gsub(mark, "") end
  return text
end

local NAMED_CONTROLS = { ["\0"] = "\\0", ["\a"] = "\\a", ["\b"] = "\\b", ["\f"] = "\\f", ["\r"] = "\\r",
                         ["\v"] = "\\v", ["\27"] = "\\27" }

-- Characters that show as blank space (or as nothing) but are not a plain
-- space or tab: in code they can only pad or hide, so they are spelled out.
-- Ranges of code points: no-break and typographic spaces, zero-width and
-- direction marks, soft hyphen, fillers (Hangul, Braille blank), variation
-- selectors, invisible operators and tags.
local INVISIBLE_RANGES = {
  { 0xA0, 0xA0 }, { 0xAD, 0xAD }, { 0x34F, 0x34F }, { 0x61C, 0x61C }, { 0x115F, 0x1160 }, { 0x1680, 0x1680 },
  { 0x17B4, 0x17B5 }, { 0x180B, 0x180E }, { 0x2000, 0x200F }, { 0x2028, 0x202F }, { 0x205F, 0x206F },
  { 0x2800, 0x2800 }, { 0x3000, 0x3000 }, { 0x3164, 0x3164 }, { 0xFE00, 0xFE0F }, { 0xFEFF, 0xFEFF },
  { 0xFFA0, 0xFFA0 }, { 0xFFF0, 0xFFF8 }, { 0x1D159, 0x1D159 }, { 0x1D173, 0x1D17A }, { 0xE0000, 0xE0FFF },
}

local function is_invisible(code_point)
  for _, range in ipairs(INVISIBLE_RANGES) do
    if code_point >= range[1] and code_point <= range[2] then return true end
  end
  return false
end

-- Padding wider than this is shown as a count, so that a payload it pushes
-- off screen shows: blanks inside a line, the indentation of one (in columns,
-- a tab as 8), empty lines in a row.
local MAX_SHOWN_BLANKS, MAX_SHOWN_INDENT, MAX_SHOWN_EMPTY_LINES = 16, 64, 2
local BLANK_MARKS = { [" "] = "\u{2420}", ["\t"] = "\u{2409}" }   -- ␠ and ␉

-- Blanks as counts: ␠×N / ␉×N for each run of one kind.
local function counted_blanks(run)
  return (run:gsub("( *)(\t*)", function(spaces, tabs)
    return (#spaces > 0 and BLANK_MARKS[" "] .. "\u{D7}" .. #spaces or "") ..
           (#tabs > 0 and BLANK_MARKS["\t"] .. "\u{D7}" .. #tabs or "")
  end))
end

-- A line as shown: its indentation and blanks as written when short, else counted.
local function shown_line(line)
  local indent, rest = line:match("^([ \t]*)(.*)$")
  local _, tabs = indent:gsub("\t", "")
  if #indent + 7 * tabs > MAX_SHOWN_INDENT then indent = counted_blanks(indent) end
  return indent .. rest:gsub("[ \t]+", function(run) return #run > MAX_SHOWN_BLANKS and counted_blanks(run) or run end)
end

-- Lines as shown: more than MAX_SHOWN_EMPTY_LINES empty ones in a row become one line "␤×N".
local function shown_lines(code)
  local lines, empty = {}, 0
  local function flush()
    if empty > MAX_SHOWN_EMPTY_LINES then lines[#lines + 1] = "\u{2424}\u{D7}" .. empty
    else for _ = 1, empty do lines[#lines + 1] = "" end end
    empty = 0
  end
  for line in (code .. "\n"):gmatch("(.-)\n") do
    if line:match("^[ \t]*$") then empty = empty + 1 else flush(); lines[#lines + 1] = shown_line(line) end
  end
  flush()
  return table.concat(lines, "\n")
end

-- A lab's code as it is shown: every character it holds, controls and blank
-- look-alikes spelled out as Lua escapes (a \r cannot hide what comes before
-- it), long padding and runs of empty lines counted (what comes after shows).
local function visible(code)
  code = valid_utf8(code, function(byte) return fmt("\\x%02X", byte) end)
  code = code:gsub(CONTROL, function(c) return NAMED_CONTROLS[c] or fmt("\\%d", c:byte()) end)
  code = code:gsub(C1_CONTROL, function(c) return fmt("\\u{%X}", utf8.codepoint(c)) end)
  code = code:gsub("[\xC2-\xF4][\x80-\xBF]+", function(c)   -- valid UTF-8 by now: one character
    local code_point = utf8.codepoint(c)
    if is_invisible(code_point) then return fmt("\\u{%X}", code_point) end
  end)
  return shown_lines(code)
end

-- What a lab's text may name of the device in use, as ${name}: the GPU, or
-- the profile the model describes, so the text is true of the student's own.
local device_facts = {
  device = function(d) return (d.name:gsub(" %(modelled%)$", "")) end,
  cc = function(d) return d.compute_capability end,
  sm_threads = function(d) return common_text.commas(d.max_threads_per_sm) end,
  sm_blocks = function(d) return common_text.commas(d.max_blocks_per_sm) end,
  sm_shared_kib = function(d) return common_text.commas(d.shared_bytes_per_sm // 1024) end,
  l2_mib = function(d) return common_text.commas(d.l2_bytes // (1024 * 1024)) end,
  blocks_of_1024 = function(d) return common_text.commas(d.max_threads_per_sm // 1024) end,
  -- the threads an SM holds in blocks of 32, its block limit reached
  threads_in_blocks_of_32 = function(d) return common_text.commas(math.min(32 * d.max_blocks_per_sm, d.max_threads_per_sm)) end,
}

local function with_device_facts(text)
  if not text:find("${", 1, true) then return text end
  local d = C.device()
  return (text:gsub("%${([%w_]+)}", function(name)
    local fact = device_facts[name]
    return fact and fact(d) or "${" .. name .. "}"
  end))
end

-- `name` marks code in a lab's text (tests/shell/lang_check.lua reads the
-- marks: code is not translated); the student sees the name, not the marks.
local function without_code_marks(text) return (text:gsub("`([^`\n]*)`", "%1")) end

-- A text field is a string or {en=, zh=}; the session's language, else English;
-- the device's facts filled in; code marks taken out; cleaned.
local function text_of(value)
  if type(value) == "table" then value = value[core.lang()] or value.en end
  if value == nil then return nil end
  return clean(type(value) == "string" and without_code_marks(with_device_facts(value)) or tostring(value))
end

-- The words of the labs' units in Chinese (docs/glossary.md); a unit may
-- also be given as {en=, zh=}. Words not here (MB, warp) stay as they are.
local UNIT_WORDS_ZH = {
  sectors = "个扇区", sector = "个扇区", request = "请求", requests = "个请求", bytes = "字节", byte = "字节",
  lines = "个缓存行", line = "缓存行", floats = "个 float", times = "倍", wavefronts = "个 wavefront",
  pixel = "像素",
}

-- A unit as the session's language writes it: "sectors/request" is 扇区/请求 in Chinese.
local function unit_text(unit)
  if type(unit) == "table" then return clean(text_of(unit) or "") end
  unit = clean(tostring(unit))
  if core.lang() ~= "zh" then return unit end
  local parts = {}
  for part in (unit .. "/"):gmatch("([^/]*)/") do
    local words = {}
    for word in part:gmatch("%S+") do words[#words + 1] = UNIT_WORDS_ZH[word] or word end
    parts[#parts + 1] = table.concat(words, " ")
  end
  return (table.concat(parts, "/"):gsub("^个%s*(.-)/", "%1/"))   -- 扇区/请求: a measure word only where nothing divides
end

local function format_value(value, unit)
  if type(value) == "number" then
    local text = math.type(value) == "integer" and common_text.commas(value) or fmt("%.4g", value)
    return unit and text .. " " .. unit_text(unit) or text
  end
  return clean(tostring(value))
end

-- Wraps text to the terminal's width (common_text.wrap), lab text at most 100 columns wide.
local function wrap(paragraph, width)
  return common_text.wrap(paragraph, width or math.max(40, math.min(core.columns() - 2, 100)))
end

return {
  clean = clean, visible = visible, text_of = text_of, unit_text = unit_text, format_value = format_value,
  wrap = wrap, display_width = common_text.display_width,
}
