-- lab_release.lua (warplab.lab_release): warplab --release-lab LAB OUT, the
-- copy of a lab students get: its solutions and assessed answers removed from
-- the text itself (comments too), checked by loading the copy again.
local core = require "warplab.core"
local u = require "warplab.text"
local lab_text = require "warplab.lab_text"
local lab_sandbox = require "warplab.lab_sandbox"
local lab_definition = require "warplab.lab_definition"
local lab_catalogue = require "warplab.lab_catalogue"
local fmt = u.fmt

local messages = {
  release_no_lab_table = { en = "cannot release lab %s: it has no lab {...} table to mark as released",
                           zh = "无法发布实验 %s：它没有可以标记为已发布的 lab {...} 表" },
  release_of_released = { en = "cannot release lab %s: it is a released copy already (it has released_from)",
                          zh = "无法发布实验 %s：它已经是发布版本（有 released_from）" },
  release_not_in_place = { en = "cannot release lab %s: its %s must be written in place in its step{...} (a string, a number or function ... end, or a local NAME = \"string\") to be removed",
                           zh = "无法发布实验 %s：它的 %s 必须直接写在 step{...} 里（字符串、数字或 function ... end，或 local 名字 = \"字符串\"）才能删除" },
  release_left = { en = "cannot release lab %s: step %d's %s is not written in a step{...} where --release-lab can remove it (built by code?): nothing was written",
                   zh = "无法发布实验 %s：第 %d 步的 %s 没有写在 --release-lab 能删除它的 step{...} 里（由代码生成？）：什么都没有写" },
  release_name = { en = "the released copy %s must be called %s.lua (the lab's name gives students their random numbers and names their submissions): give a folder, or a file of that name",
                   zh = "发布版本 %s 必须命名为 %s.lua（实验名决定学生的随机数，也是提交中的实验名）：请给出文件夹，或这个名字的文件" },
  release_over_own = { en = "the released copy %s would replace the lab itself: give another folder", zh = "发布版本 %s 会覆盖实验本身：请换一个文件夹" },
  release_changed = { en = "cannot release lab %s: its file changed while it was read", zh = "无法发布实验 %s：读取时它的文件被修改了" },
  release_does_not_load = { en = "cannot release lab %s: the released copy does not load: %s", zh = "无法发布实验 %s：发布版本无法加载：%s" },
  release_failed = { en = "cannot write the released lab %s: %s", zh = "无法写入发布的实验 %s：%s" },
  released = { en = "Released lab %s to %s; solutions and assessed answers removed: %d, comments too. Its submissions name the lab's hash %s.",
               zh = "实验 %s 已发布到 %s；删除的 solution 和计分题答案：%d 个，注释也已删除。它的提交带有实验的哈希值 %s。" },
}
local say = u.messages("lab_release", messages)

local lab_release = {}


-- The lab's source as tokens: {kind, text, from, to}; kind is "name",
-- "string", "number", "symbol" or "comment". Enough of Lua's lexer to find
-- where each table constructor and field begins and ends.
local SYMBOLS = { "...", "..", "==", "~=", "<=", ">=", "//", "::", "<<", ">>" }

local function long_bracket_end(text, at)   -- at: the first "["; the index after the closing bracket, or nil
  local level = text:match("^%[(=*)%[", at)
  if not level then return nil end
  local _, close = text:find("]" .. level .. "]", at + #level + 2, true)
  return close and close + 1 or #text + 1
end

local function quoted_end(text, at)   -- at: the quote; the index after the closing one
  local quote, i = text:sub(at, at), at + 1
  while i <= #text do
    local c = text:sub(i, i)
    if c == "\\" then i = i + 2
    elseif c == quote or c == "\n" then return i + 1
    else i = i + 1 end
  end
  return i
end

local function number_end(text, at)
  local i = select(2, text:find("^0[xX][%x%.]*", at)) or select(2, text:find("^[%d%.][%d%.]*", at))
  while true do
    local _, exponent = text:find("^[eEpP][+-]?%x+", i + 1)
    local _, more = text:find("^[%w%.]+", i + 1)
    if exponent then i = exponent elseif more then i = more else return i + 1 end
  end
end

local function tokens_of(text)
  local tokens, i = {}, 1
  local function add(kind, stop) tokens[#tokens + 1] = { kind = kind, from = i, to = stop - 1, text = text:sub(i, stop - 1) }; i = stop end
  while i <= #text do
    local c = text:sub(i, i)
    if c:match("%s") then i = i + 1
    elseif text:find("^%-%-", i) then
      add("comment", long_bracket_end(text, i + 2) or (text:find("\n", i, true) or #text + 1))
    elseif c == "[" and long_bracket_end(text, i) then add("string", long_bracket_end(text, i))
    elseif c == "\"" or c == "'" then add("string", quoted_end(text, i))
    elseif c:match("%d") or text:find("^%.%d", i) then add("number", number_end(text, i))
    elseif c:match("[%a_]") then add("name", select(2, text:find("^[%w_]+", i)) + 1)
    else
      local symbol = c
      for _, s in ipairs(SYMBOLS) do if text:sub(i, i + #s - 1) == s then symbol = s; break end end
      add("symbol", i + #symbol)
    end
  end
  return tokens
end

-- The code tokens (comments left out), each table constructor with its named
-- fields: {open=, close=, before=, fields={{name=, first=, value=, last=, stop=}}}
-- (token indexes: the field's name, its value's first and last, and the
-- separator after it or the "}").
local BLOCK_OPENS, BLOCK_CLOSES = { ["function"] = true, ["if"] = true, ["do"] = true, ["repeat"] = true },
                                  { ["end"] = true, ["until"] = true }

local function constructors_of(code)
  local tables = {}
  local scan_table
  -- The index of the last token of the expression starting at i (it stops at , ; or } of its table).
  local function expression_end(i)
    local depth = 0
    while code[i] do
      local t = code[i]
      if t.kind == "symbol" and t.text == "{" then
        i = scan_table(i)
      elseif t.kind == "symbol" and (t.text == "(" or t.text == "[") or t.kind == "name" and BLOCK_OPENS[t.text] then
        depth = depth + 1
      elseif t.kind == "symbol" and (t.text == ")" or t.text == "]") or t.kind == "name" and BLOCK_CLOSES[t.text] then
        depth = depth - 1
      elseif depth == 0 and t.kind == "symbol" and (t.text == "," or t.text == ";" or t.text == "}") then
        return i - 1
      end
      i = i + 1
    end
    return #code
  end
  -- Reads the constructor whose "{" is code[open]; the index of its "}".
  function scan_table(open)
    local entry = { open = open, before = code[open - 1], fields = {} }
    tables[#tables + 1] = entry
    local i = open + 1
    while code[i] and not (code[i].kind == "symbol" and code[i].text == "}") do
      local named = code[i].kind == "name" and code[i + 1] and code[i + 1].text == "=" and code[i + 1].kind == "symbol"
      local value = named and i + 2 or i
      local last = expression_end(value)
      if named then
        entry.fields[#entry.fields + 1] = { name = code[i].text, first = i, value = value, last = last, stop = last + 1 }
      end
      i = last + 1
      if code[i] and code[i].kind == "symbol" and (code[i].text == "," or code[i].text == ";") then i = i + 1 end
    end
    entry.close = i
    return i
  end
  local i = 1
  while code[i] do
    if code[i].kind == "symbol" and code[i].text == "{" then i = scan_table(i) end
    i = i + 1
  end
  return tables
end

local function field_named(entry, name)
  for _, field in ipairs(entry.fields) do if field.name == name then return field end end
end

-- The constructor that is a field's whole value, or that of the variable
-- it names (local MY_KERNEL = {...}, then kernel = MY_KERNEL), or nil.
local function constructor_value(by_open, by_variable, code, field)
  if field.value == field.last and code[field.value].kind == "name" then return by_variable[code[field.value].text] end
  local entry = by_open[field.value]
  return entry and entry.close == field.last and entry or nil
end

-- The constructors assigned to a variable, whole (NAME = {...} or local NAME = {...}), by the name.
local function variable_tables(code, tables)
  local by_variable = {}
  for _, entry in ipairs(tables) do
    local equals, name, after = code[entry.open - 1], code[entry.open - 2], code[entry.close + 1]
    local whole = not after or not (after.kind == "symbol" and after.text ~= ";" and after.text ~= ")")
    if equals and equals.text == "=" and equals.kind == "symbol" and name and name.kind == "name" and whole then
      local before_name = code[entry.open - 3]
      if not (before_name and before_name.kind == "symbol" and (before_name.text == "{" or before_name.text == "," or before_name.text == ";")) then
        by_variable[name.text] = entry   -- a statement's assignment, not a field of a table
      end
    end
  end
  return by_variable
end

-- Whether a field's value is written in place: one string or number, or one function ... end.
local function in_place(code, field)
  local first, last = code[field.value], code[field.last]
  if field.value == field.last then return first.kind == "string" or first.kind == "number" end
  return first.text == "function" and first.kind == "name" and last.text == "end"
end

-- The statements local NAME = "a string literal" (alone, not in an
-- expression), by NAME: {first=, last=} token indexes. A solution kept in
-- one (solution = MY_SOLUTION) goes with the field that names it.
local function string_variables(code)
  local by_name = {}
  for i, t in ipairs(code) do
    local name, equals, literal, after = code[i + 1], code[i + 2], code[i + 3], code[i + 4]
    if t.kind == "name" and t.text == "local" and name and name.kind == "name" and equals and equals.text == "="
       and literal and literal.kind == "string" and not (after and after.kind == "symbol" and after.text ~= ";") then
      by_name[name.text] = { first = i, last = i + 3 }
    end
  end
  return by_name
end

-- The tables of steps (step {...} and step({...})) with their ask and kernel tables.
local function step_tables(code, tables)
  local by_open, steps, by_variable = {}, {}, variable_tables(code, tables)
  for _, entry in ipairs(tables) do by_open[entry.open] = entry end
  for _, entry in ipairs(tables) do
    local before, call = entry.before, code[entry.open - 2]
    local is_step = before and (before.kind == "name" and before.text == "step" or
                                before.text == "(" and call and call.kind == "name" and call.text == "step")
    if is_step then
      local ask, kernel = field_named(entry, "ask"), field_named(entry, "kernel")
      steps[#steps + 1] = { entry = entry, ask = ask and constructor_value(by_open, by_variable, code, ask),
                            kernel = kernel and constructor_value(by_open, by_variable, code, kernel) }
    end
  end
  return steps, by_open
end

-- The fields a released copy leaves out: every solution, and the answer (a
-- goal's check) of an assessed question. {field=, what=} each.
local function fields_to_remove(code, steps)
  local removed, seen = {}, {}
  local function remove(entry, name, what)
    local field = entry and field_named(entry, name)
    if field and not seen[field] then seen[field] = true; removed[#removed + 1] = { field = field, what = what } end
  end
  for _, step in ipairs(steps) do
    remove(step.ask, "solution", "ask.solution")
    remove(step.kernel, "solution", "kernel.solution")
    local assessed = step.ask and field_named(step.ask, "assessed")
    if assessed and assessed.value == assessed.last and code[assessed.value].text == "true" then
      remove(step.ask, "answer", "ask.answer")
      remove(step.ask, "check", "ask.check")
    end
  end
  return removed
end

-- The lab{...} constructor: where released_from goes.
local function lab_table(code, tables)
  for _, entry in ipairs(tables) do
    local before, call = entry.before, code[entry.open - 2]
    if before and (before.kind == "name" and before.text == "lab" or
                   before.text == "(" and call and call.kind == "name" and call.text == "lab") then
      return entry
    end
  end
end

-- text with the spans {from=, to=} (byte ranges) replaced, each by its text; a
-- span inside one before it (a comment in a removed field) goes with that one.
local function with_spans_replaced(text, spans)
  table.sort(spans, function(a, b) return a.from < b.from end)
  local parts, at = {}, 1
  for _, span in ipairs(spans) do
    if span.from >= at then
      parts[#parts + 1] = text:sub(at, span.from - 1)
      parts[#parts + 1] = span.text
      at = span.to + 1
    end
  end
  parts[#parts + 1] = text:sub(at)
  return table.concat(parts)
end

-- Only the line breaks of a span: what is removed keeps the lines where they were.
local function line_breaks(text) return (text:gsub("[^\n]", "")) end

-- The released text of a lab: comments and removed fields gone (their lines
-- kept, so that errors name the same line in both copies), released_from
-- put in lab{...}. Raises one line naming what it cannot remove.
local function released_text(definition, text)
  local all = tokens_of(text)
  local code, spans = {}, {}
  for _, t in ipairs(all) do
    if t.kind == "comment" then spans[#spans + 1] = { from = t.from, to = t.to, text = line_breaks(t.text) }
    else code[#code + 1] = t end
  end
  local tables = constructors_of(code)
  local steps = step_tables(code, tables)
  local lab_entry = lab_table(code, tables)
  if not lab_entry then error(say("release_no_lab_table", definition.name), 0) end
  if field_named(lab_entry, "released_from") then error(say("release_of_released", definition.name), 0) end
  local removed, strings, gone = fields_to_remove(code, steps), string_variables(code), {}
  local function remove_span(from, to) spans[#spans + 1] = { from = from, to = to, text = line_breaks(text:sub(from, to)) } end
  for _, r in ipairs(removed) do
    local variable = r.field.value == r.field.last and strings[code[r.field.value].text]
    if not (in_place(code, r.field) or variable) then error(say("release_not_in_place", definition.name, r.what), 0) end
    local from, to = code[r.field.first].from, code[r.field.last].to
    local stop = code[r.field.stop]
    if stop and stop.kind == "symbol" and (stop.text == "," or stop.text == ";") then to = stop.to end
    remove_span(from, to)
    if variable and not gone[variable] then
      gone[variable] = true
      remove_span(code[variable.first].from, code[variable.last].to)
    end
  end
  local open = code[lab_entry.open]
  spans[#spans + 1] = { from = open.from, to = open.to, text = fmt("{ released_from = %q,", definition.hash) }
  return with_spans_replaced(text, spans), #removed
end

-- The values of the string literals of a Lua text, as a set. A literal alone
-- is a constant: loading "return" and it runs no code of the lab's.
local function string_literals(text)
  local values = {}
  for _, t in ipairs(tokens_of(text)) do
    local chunk = t.kind == "string" and load("return " .. t.text, "=literal", "t", {})
    local ok, value = chunk and pcall(chunk)
    if ok and type(value) == "string" then values[value] = true end
  end
  return values
end

-- What a released copy must not hold, and must still be: checked on the copy
-- loaded again (in the sandbox), and on its string literals (a solution kept
-- elsewhere in the file too). Raises one line naming the first fault.
local function verify_released(definition, released, copy_text)
  local function fault(step, field) error(say("release_left", definition.name, step, field), 0) end
  local literals = string_literals(copy_text)
  if released.spec.released_from ~= definition.hash or #released.steps ~= #definition.steps then fault(0, "steps") end
  for i, step in ipairs(released.steps) do
    local ask, original = step.ask or {}, definition.steps[i]
    if ask.solution ~= nil then fault(i, "ask.solution") end
    if step.kernel and step.kernel.solution ~= nil then fault(i, "kernel.solution") end
    if ask.assessed and (ask.answer ~= nil or (ask.goal and ask.check ~= nil)) then fault(i, ask.goal and "ask.check" or "ask.answer") end
    local secrets = { (original.ask or {}).solution, original.kernel and original.kernel.solution }
    for _, secret in pairs(secrets) do
      if type(secret) == "string" and literals[secret] then fault(i, "solution") end
    end
  end
end

-- Where the released copy goes: OUT, or OUT/NAME.lua when OUT is a folder.
-- Its file name must be the lab's (the name seeds the students' random
-- numbers and names their submissions), and it is not the lab's own file.
local function released_path(definition, out)
  local path = core.is_folder(out) and out:gsub("/+$", "") .. "/" .. definition.name .. ".lua" or out
  if lab_catalogue.file_lab_name(path) ~= definition.name then error(say("release_name", lab_text.clean(out), definition.name), 0) end
  local real = core.realpath and core.realpath(path)
  if definition.path and real and real == (core.realpath(definition.path) or definition.path) then
    error(say("release_over_own", lab_text.clean(path)), 0)
  end
  return path
end

-- warplab --release-lab LAB OUT: writes the students' copy of LAB; true when written.
function lab_release.release(name, out)
  local definition = lab_catalogue.find_lab(name)
  local text = definition.path and lab_catalogue.read_or_fail("lab", definition.path) or core.lab_source(name)
  if not text or fmt("fnv1a64:%016x", lab_sandbox.hash({ text })) ~= definition.text_hash then error(say("release_changed", definition.name), 0) end
  local path = released_path(definition, out)
  local copy_text, removed = released_text(definition, text)
  local ok, released = pcall(lab_definition.load, definition.name, copy_text, "release:" .. definition.name)
  if not ok then error(say("release_does_not_load", definition.name, lab_text.clean(tostring(released))), 0) end
  verify_released(definition, released, copy_text)
  local written, why = core.write_file(path, copy_text)
  if not written then error(say("release_failed", lab_text.clean(path), lab_text.clean(tostring(why))), 0) end
  print(say("released", definition.name, lab_text.clean(path), removed, definition.hash))
  return true
end

return lab_release
