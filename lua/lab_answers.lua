-- lab_answers.lua (warplab.lab_answers): answers read as people write
-- them ("32,768", "4 sectors", "25%", full-width digits from a Chinese input
-- method, a choice by number, letter or text) and judged against the
-- expected value within the ask's tolerance. No lab code runs here: the
-- runner and the grader judge alike through it.

local function trim(text) return (tostring(text):gsub("^%s+", ""):gsub("%s+$", "")) end

-- "32,768" or "32 768": digits in groups of three; the number without them, else nil.
local function without_separators(text)
  local sign, first, rest, fraction = text:match("^([-+]?)(%d%d?%d?)([, ][%d, ]+)(%.?%d*)$")
  if not first then return nil end
  local separator = rest:sub(1, 1)
  if (rest:gsub(separator .. "%d%d%d", "")) ~= "" then return nil end
  return sign .. first .. rest:gsub(separator, "") .. fraction
end

-- An answer typed with a Chinese input method, in ASCII: full-width forms
-- (０-９, ％, ，, ．, －, ａ-ｚ: U+FF01-FF5E) as their ASCII letters, the
-- ideographic space as a space, 、 as a comma.
local function ascii_forms(text)
  local ok, converted = pcall(function()
    return (text:gsub(utf8.charpattern, function(c)
      local code = utf8.codepoint(c)
      if code >= 0xFF01 and code <= 0xFF5E then return string.char(code - 0xFEE0) end
      if code == 0x3000 then return " " end
      if code == 0x3001 then return "," end
      return c
    end))
  end)
  return ok and converted or text
end

-- What an answer says as a number, and whether it ended in %: "4", "4 sectors",
-- "25%", "32,768", "32 768", "1.5e3", "2^20", and in Chinese "4 个扇区",
-- "4个", "４", "25％", "32，768". nil when it is not a number.
local function read_number(text)
  text = trim(ascii_forms(text))
  local percent = text:find("%%$") ~= nil
  text = text:gsub("%s*[%a%%/µ\128-\255][%a%%/%s%-\128-\255]*$", "")   -- a unit after the number, in either language
  local base, power = text:match("^(%d+)%s*%^%s*(%d+)$")
  if base then return tonumber(base) ^ tonumber(power), percent end
  local n = tonumber(without_separators(text) or text)
  if n == nil or n ~= n or n == math.huge or n == -math.huge then return nil end
  return n, percent
end

-- Which choice an answer names: its number, its letter (a, b, ...) or its text
-- (in either language, or the start of one that only it has). nil when none.
local function read_choice(text, choices)
  text = trim(ascii_forms(text))
  local n = math.tointeger(tonumber(text))
  if n then return n >= 1 and n <= #choices and n or nil end
  if #text == 1 and text:lower():match("%l") then
    local index = text:lower():byte() - ("a"):byte() + 1
    return index <= #choices and index or nil
  end
  local wanted, found = text:lower(), nil
  if #wanted < 2 then return nil end
  for i, choice in ipairs(choices) do
    local texts = type(choice) == "table" and { choice.en, choice.zh } or { choice }
    for _, t in ipairs(texts) do
      t = trim(t):lower()
      if t == wanted then return i end
      if t:sub(1, #wanted) == wanted then
        if found and found ~= i then return nil end
        found = i
      end
    end
  end
  return found
end

-- Checks a number against the expected value: within tolerance (absolute, or
-- relative when given). An absolute tolerance never takes in a neighbouring
-- whole number: a whole-number answer must be less than half of one away.
-- The tolerance an ask allows (default 0: exact) and whether it is a fraction
-- of the expected value: "2%" is 0.02, relative; a number, relative = true.
-- A tolerance as a percentage of the expected value: "2%", "0.5 %"; the fraction, else nil.
local function percentage(v)
  local number = type(v) == "string" and tonumber(v:match("^%s*(%d+%.?%d*)%s*%%%s*$"))
  return number and number / 100
end

local function tolerance_of(ask)
  local fraction = percentage(ask.tolerance)
  if fraction then return fraction, true end
  return ask.tolerance or 0, ask.relative == true
end

local function close_enough(got, want, ask)
  if type(got) ~= "number" or type(want) ~= "number" then return false end
  local tolerance, relative = tolerance_of(ask)
  local gap = math.abs((got + 0.0) - (want + 0.0))   -- floats: integers' differences wrap
  if relative then tolerance = tolerance * math.abs(want + 0.0) end
  if gap > tolerance + 1e-12 then return false end
  return relative or math.tointeger(got) == nil or gap < 0.5
end

-- Whether a number answer is right: as written, or, for "25%" against a fraction, as 0.25.
local function number_right(text, want, ask)
  local got, percent = read_number(text)
  if close_enough(got, want, ask) then return true end
  return percent and ask.unit ~= "%" and close_enough(got / 100, want, ask)
end

-- Whether an answer's text is right against the expected value: a choice by
-- its number, letter or text, a number within the tolerance.
local function answer_right(ask, text, want)
  if ask.choices then return read_choice(text, ask.choices) == want end
  return number_right(text, want, ask)
end

-- The usual slips behind a wrong number, each as the value the slip makes
-- of the right one, where the question's unit makes it a slip to look for:
-- a ratio (no unit, or "times") turned over; MB for MiB or back; bytes for
-- elements of 4 or 8 bytes or back; a percentage for a fraction or back.
local function unit_of(ask) return type(ask.unit) == "table" and ask.unit.en or ask.unit or "" end
local function is_ratio(ask) local unit = unit_of(ask) return unit == "" or unit == "times" end
local function is_megabytes(ask) return unit_of(ask):find("^[KMG]i?B$") ~= nil end
local function is_bytes(ask) return unit_of(ask):find("byte") ~= nil end
local SLIPS = {
  { "inverse", is_ratio, function(want) return want ~= 0 and 1 / want or nil end },
  { "mib_for_mb", is_megabytes, function(want) return want / 1.048576 end },
  { "mb_for_mib", is_megabytes, function(want) return want * 1.048576 end },
  { "by_element_size", is_bytes, function(want) return want * 4 end },
  { "by_element_size", is_bytes, function(want) return want / 4 end },
  { "by_element_size", is_bytes, function(want) return want * 8 end },
  { "by_element_size", is_bytes, function(want) return want / 8 end },
  { "percent_for_fraction", function(ask) return unit_of(ask) ~= "%" end, function(want) return want <= 1 and want * 100 or nil end },
  { "fraction_for_percent", function(ask) return unit_of(ask) == "%" end, function(want) return want / 100 end },
}

-- The slip a wrong number answer matches (its name), else nil. A slip is
-- named only where its value lies outside the tolerance of the right one.
local function slip_of(ask, text, want)
  if ask.choices or type(want) ~= "number" then return nil end
  local got = read_number(text)
  if got == nil or close_enough(got, want, ask) then return nil end
  local near = { tolerance = 0.02, relative = true }
  for _, slip in ipairs(SLIPS) do
    local made = slip[2](ask) and slip[3](want + 0.0)
    if made and not close_enough(made, want, ask) and close_enough(got + 0.0, made, near) then return slip[1] end
  end
end

return {
  slip_of = slip_of,
  read_number = read_number, read_choice = read_choice, answer_right = answer_right, percentage = percentage,
  trim = trim,
}
