-- values.lua (warplab.values): what the prompt prints for the values an
-- expression returned, as lua.c prints them: on one line, tab-separated,
-- plain tables in braces and strings quoted; a result, or a list of
-- results, as its cards one under another.
local text = require "warplab.text"
local result = require "warplab.result"

local fmt = text.fmt
local result_problem = result.result_problem

local messages = {
  list_item = { en = "[%d of %d]", zh = "[第 %d 个，共 %d 个]" },
}
local say = text.messages("values", messages)

-- A plain table on one line when short, nested one level.
local function table_line(t, depth)
  if depth > 2 then return "{...}" end
  local parts, count = {}, 0
  for k, v in pairs(t) do
    count = count + 1
    if count > 12 then parts[#parts + 1] = "..."; break end
    local value = type(v) == "table" and not getmetatable(v) and table_line(v, depth + 1)
                  or type(v) == "string" and fmt("%q", v) or tostring(v)
    if math.type(k) == "integer" and k == count then
      parts[#parts + 1] = value
    else
      parts[#parts + 1] = tostring(k) .. " = " .. value
    end
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- Whether v is a plain list of launch results ({launch(...), launch(...)},
-- launch with a list of params): each then prints as its card.
local function is_result_list(v)
  if type(v) ~= "table" or getmetatable(v) or #v == 0 then return false end
  for k, item in pairs(v) do
    if math.type(k) ~= "integer" or result_problem(item) then return false end
  end
  return true
end

local function value_line(v)
  local meta = getmetatable(v)
  if is_result_list(v) then
    local cards = {}
    for i, r in ipairs(v) do cards[i] = say("list_item", i, #v) .. "\n" .. tostring(r) end
    return table.concat(cards, "\n\n")
  end
  if type(v) == "table" and not (meta and meta.__tostring) then return table_line(v, 1) end
  if type(v) == "string" then return fmt("%q", v) end
  return tostring(v)
end

-- print_values(...): prints the values an expression typed at the prompt
-- produced: on one line, tab-separated, as lua.c prints them, unless one of
-- them takes lines of its own (a result card), which then each start a line.
local function print_values(...)
  local lines, several_lines = {}, false
  for i = 1, select("#", ...) do
    lines[i] = value_line((select(i, ...)))
    several_lines = several_lines or lines[i]:find("\n") ~= nil
  end
  if #lines > 0 then print(table.concat(lines, several_lines and "\n" or "\t")) end
end

return { value_line = value_line, print_values = print_values }
