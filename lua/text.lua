-- text.lua (warplab.text): text as warplab prints it, which every other
-- module stands on: messages in the session's language (and the table of
-- every module's messages), a text's width on a terminal, wrapping and
-- padding by display width, and numbers as students read them (81,918,
-- 536.9 MB, 97%).
local core = require "warplab.core"

local fmt = string.format

---------------------------------------------------------------------------
-- Text in the session's language, and how wide it is on a terminal
---------------------------------------------------------------------------

-- A {en=, zh=} text in the session's language (--lang, else LANG), else English.
local function text_in(t)
  return t[core.lang()] or t.en
end

-- Every module's messages by module name, for the test that both languages have each
-- message, with the same conversions in the same order.
local message_tables = {}

-- A module's message in the session's language: messages[key] is {en=, zh=}, formatted with the rest.
local function message(messages, key, ...)
  return fmt(text_in(messages[key]), ...)
end

-- Registers a module's messages under name; returns say(key, ...) for them.
local function messages_of(name, messages)
  message_tables[name] = messages
  return function(key, ...) return message(messages, key, ...) end
end

-- Whether a code point is a wide (East Asian) character: two columns on a terminal.
local function wide(cp)
  return (cp >= 0x1100 and cp <= 0x115F) or (cp >= 0x2E80 and cp <= 0xA4CF) or (cp >= 0xAC00 and cp <= 0xD7A3) or
         (cp >= 0xF900 and cp <= 0xFAFF) or (cp >= 0xFE30 and cp <= 0xFE4F) or (cp >= 0xFF00 and cp <= 0xFF60) or
         (cp >= 0xFFE0 and cp <= 0xFFE6)
end

-- Columns a text takes on a terminal (a text that is not UTF-8 counts its bytes).
local function display_width(text)
  if text:find("\27", 1, true) then text = text:gsub("\27%[[%d;]*m", "") end   -- colours take no column
  if not utf8.len(text) then return #text end
  local columns = 0
  for _, cp in utf8.codes(text) do columns = columns + (wide(cp) and 2 or 1) end
  return columns
end

-- Text in a colour where it helps a student see it (a model the hardware
-- disagrees with, a verdict), on a terminal without NO_COLOR or TERM=dumb.
local COLOURS = { bad = "31", good = "32" }
local function paint(kind, text)
  if not core.colour() then return text end
  return "\27[" .. COLOURS[kind] .. "m" .. text .. "\27[0m"
end

-- The lines of text, split with plain finds: no pattern, whose worst case
-- the lab sandbox would charge for every card a lab prints.
local function text_lines(text)
  local list, from = {}, 1
  while true do
    local at = text:find("\n", from, true)
    list[#list + 1] = text:sub(from, at and at - 1 or #text)
    if not at then return list end
    from = at + 1
  end
end

-- Chinese punctuation a line never starts with (it stays with the character
-- before it), and that a line never ends with (it goes with the one after):
-- the same marks as the line writer's (shell/output.c, closes and opens).
local CLOSES, OPENS = {}, {}
for _, mark in ipairs({ "）", "，", "。", "、", "；", "：", "！", "？", "】", "」", "』", "》", "％" }) do CLOSES[mark] = true end
for _, mark in ipairs({ "（", "【", "「", "『", "《", "“", "‘" }) do OPENS[mark] = true end

-- Pieces a line may break between: words of Latin text, and each wide
-- character on its own, with the punctuation that holds to it; each blank
-- is a piece of its own.
local function pieces(paragraph)
  local list, from = {}, 1
  local function word(text)
    if not text:find("[\128-\255]") then list[#list + 1] = { text = text, space = false }; return end
    local run, opening = {}, ""   -- non-ASCII: wide characters break apart, the rest stays together
    local function flush()
      if #run > 0 then list[#list + 1] = { text = table.concat(run), space = false }; run = {} end
    end
    for _, cp in utf8.codes(text) do
      local char = utf8.char(cp)
      if CLOSES[char] and #run > 0 then
        run[#run + 1] = char
      elseif CLOSES[char] and #list > 0 and not list[#list].space then
        list[#list].text = list[#list].text .. char
      elseif OPENS[char] then
        flush()
        opening = opening .. char
      elseif wide(cp) then
        flush()
        list[#list + 1] = { text = opening .. char, space = false }
        opening = ""
      else
        if #run == 0 then run[1], opening = opening, "" end
        run[#run + 1] = char
      end
    end
    if opening ~= "" then run[#run + 1] = opening end
    flush()
  end
  while from <= #paragraph do
    local at = paragraph:find(" ", from, true)
    if at ~= from then word(paragraph:sub(from, (at or #paragraph + 1) - 1)) end
    if not at then break end
    list[#list + 1] = { text = " ", space = true }
    from = at + 1
  end
  return list
end

-- Wraps text to width columns (the terminal's by default): Chinese text
-- breaks between characters, other text between words. A line that starts
-- with blanks goes on under them (a help row, an indented doc); indent is
-- what the other lines after a paragraph's first start with (a card's value
-- column). Blank lines, and lines that fit, stay as they are.
local function wrap(text, width, indent)
  width, indent = width or core.columns(), indent or ""
  local out = {}
  for _, paragraph in ipairs(text_lines(text)) do
    if display_width(paragraph) <= width or not utf8.len(paragraph) then
      out[#out + 1] = paragraph
    else
      local blanks = paragraph:match("^ *")
      local continuation = #blanks > 0 and blanks .. indent .. "  " or indent
      local line, columns, lead = { blanks }, #blanks, blanks
      for _, piece in ipairs(pieces(paragraph:sub(#blanks + 1))) do
        local w = display_width(piece.text)
        if columns + w > width and columns > #lead and not piece.space then
          out[#out + 1] = (table.concat(line):gsub(" +$", ""))
          line, columns, lead = { continuation }, display_width(continuation), continuation
        end
        if not (piece.space and columns == #lead) then
          line[#line + 1] = piece.text
          columns = columns + w
        end
      end
      out[#out + 1] = (table.concat(line):gsub(" +$", ""))
    end
  end
  while out[#out] == "" do out[#out] = nil end
  return table.concat(out, "\n")
end

-- head, then text wrapped to the terminal in the column after it: a card's
-- value under its label, a kernel's summary after its name.
local function hanging(head, text)
  local lines, indent = {}, (" "):rep(display_width(head))
  for _, line in ipairs(text_lines(wrap(text, math.max(24, core.columns() - #indent)))) do
    lines[#lines + 1] = (#lines == 0 and head or indent) .. line
  end
  return table.concat(lines, "\n")
end

-- text and the spaces that make it width columns wide: what %-Ns does for ASCII.
local function pad(text, width)
  return text .. (" "):rep(math.max(0, width - display_width(text)))
end

-- text right-aligned in width columns: what %Ns does, by display width (a unit may be Chinese).
local function align_right(text, width)
  return (" "):rep(math.max(0, width - display_width(text))) .. text
end

-- A source's lines, a CR before each newline dropped: what a line number picks.
local function source_lines(source)
  return text_lines((source:gsub("\r\n", "\n")))
end

-- text cut to width columns, with an ellipsis where it was cut.
local function fit(text, width)
  if display_width(text) <= width then return text end
  local ellipsis = core.fancy() and "…" or "..."
  local out, columns = {}, 0
  for _, code in utf8.codes(text) do
    local char = utf8.char(code)
    local w = display_width(char)
    if columns + w > width - display_width(ellipsis) then break end
    out[#out + 1], columns = char, columns + w
  end
  return table.concat(out) .. ellipsis
end

-- "s" after a count other than one, in English; Chinese has no plural.
local function plural(n, suffix)
  return (n == 1 or core.lang() == "zh") and "" or (suffix or "s")
end

-- A {field=, field_zh=} text given in both languages (a family's summary,
-- a parameter's doc) in the session's language (--lang, else LANG).
local function localized(t, field)
  return core.lang() == "zh" and t[field .. "_zh"] or t[field]
end

-- The model's limit in the session's language: the C side gives both
-- (model.limit in English, model.limit_zh in Chinese), so that a result
-- made in one language reads in the other.
local function limit_text(model)
  return core.lang() == "zh" and model.limit_zh or model.limit
end

-- A value as a message shows it: strings quoted, escaped and cut short; other values by their type.
local quote = core.quote

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

-- 536870912 -> "536.9 MB" (decimal units, as bandwidth is quoted): the
-- shell's one byte formatter, which C's messages use too.
local bytes = core.format_bytes

-- 62914560 -> "60 MiB" for sizes that are powers of two in spirit
local function mebibytes(n)
  return fmt("%g MiB", n / (1 << 20))
end

-- 0.974 -> "97%"
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

return {
  message_tables = message_tables, message = message, messages = messages_of, text_in = text_in,
  localized = localized, limit_text = limit_text, quote = quote, fmt = fmt,
  wide = wide, display_width = display_width, paint = paint, text_lines = text_lines, wrap = wrap,
  hanging = hanging, pad = pad, align_right = align_right, source_lines = source_lines, fit = fit,
  plural = plural,
  commas = commas, bytes = bytes, mebibytes = mebibytes, percent = percent, bar = bar,
}
