-- lab_definition.lua (warplab.lab_definition): what a lab declares, and
-- its load. A lab's text is run as lab code (lab{...} once, step{...} for
-- each step) and what it declared is checked field by field, so that a lab
-- that is not well formed is refused with one line naming the step and the
-- field; a goal's declared parts (ask.needs) become part of its check.
local core = require "warplab.core"
local text = require "warplab.text"
local goals = require "warplab.goals"
local user_kernels = require "warplab.kernel"
local lab_text = require "warplab.lab_text"
local lab_sandbox = require "warplab.lab_sandbox"
local lab_answers = require "warplab.lab_answers"

local fmt = text.fmt
local clean = lab_text.clean
local is_finite = lab_sandbox.is_finite

local messages = {
  at_step = { en = "lab %s, step %d", zh = "实验 %s，第 %d 步" },
  field_must_be = { en = "%s: '%s' must be %s, got %s", zh = "%s：'%s' 必须是%s，得到 %s" },
  must_text_64k = { en = "text (a string or {en=, zh=}, at most 64 KiB)", zh = "文本（字符串或 {en=, zh=}，至多 64 KiB）" },
  must_code = { en = "Lua code (a string without NUL bytes, at most 64 KiB)", zh = "Lua 代码（不含 NUL 字节的字符串，至多 64 KiB）" },
  must_table = { en = "a table", zh = "表" },
  must_texts = { en = "a list of texts (a choice may add why = text)", zh = "文本列表（选项可以加上 why = 文本）" },
  must_hints = { en = "a list of texts, each with an optional cause = \"name\" or list of names",
                 zh = "文本列表，每条可带 cause = \"名称\" 或名称列表" },
  must_kernel = { en = "a kernel{} declaration with name= and skeleton= (the source the student starts from), without source= or file= (solution=, the lab's own answer, is source too)",
                  zh = "一个带 name= 和 skeleton=（学生起步的源代码）的 kernel{} 声明，不能有 source= 或 file=（solution= 是实验自己的答案，也是源代码）" },
  must_claims = { en = "a list of {text=, holds=function[, gpu=true, counters=true, skip=function]}",
                  zh = "{text=, holds=function[, gpu=true, counters=true, skip=function]} 的列表" },
  must_text = { en = "text", zh = "文本" },
  must_answer = { en = "a finite number or function(ctx)", zh = "有限的数字或 function(ctx)" },
  must_function = { en = "function(ctx)", zh = "function(ctx)" },
  must_number = { en = "a number", zh = "数字" },
  must_tolerance = { en = "a number of 0 or more, or a percentage of the expected value such as \"2%%\"",
                     zh = "不小于 0 的数字，或期望值的百分比，例如 \"2%%\"" },
  must_relative = { en = "true or false (a tolerance of 2%% is tolerance = \"2%%\", or tolerance = 0.02 with relative = true)",
                    zh = "true 或 false（2%% 的容差写成 tolerance = \"2%%\"，或 tolerance = 0.02 加 relative = true）" },
  must_boolean = { en = "true or false", zh = "true 或 false" },
  must_points = { en = "a number of 0 or more", zh = "不小于 0 的数字" },
  must_minutes = { en = "a whole number of minutes from 1 to 600", zh = "1 到 600 之间的整数分钟" },
  must_strings = { en = "a list of strings", zh = "字符串列表" },
  must_hash = { en = "a lab's hash (fnv1a64: and hex digits)", zh = "实验的哈希值（fnv1a64: 加十六进制数字）" },
  must_string = { en = "a string", zh = "字符串" },
  too_many_steps = { en = "lab %s: more than %d steps", zh = "实验 %s：超过 %d 步" },
  title_text = { en = "lab %s: 'title' must be text, got %s", zh = "实验 %s：'title' 必须是文本，得到 %s" },
  step_table = { en = "%s: step{...} expects a table, got %s", zh = "%s：step{...} 需要一个表，得到 %s" },
  ask_needs = { en = "%s: 'ask' needs a question, predict or goal", zh = "%s：'ask' 需要 question、predict 或 goal" },
  needs_measure = { en = "%s: a prediction needs measure = function(ctx)", zh = "%s：预测需要 measure = function(ctx)" },
  needs_check = { en = "%s: a goal needs needs = {...} or check = function(ctx)", zh = "%s：目标需要 needs = {...} 或 check = function(ctx)" },
  needs_answer = { en = "%s: a question needs an answer", zh = "%s：问题需要 answer" },
  does_not_compile = { en = "lab %s does not load: %s", zh = "实验 %s 无法加载：%s" },
  no_lab_call = { en = "lab %s never calls lab{...} with a table", zh = "实验 %s 没有用一个表调用 lab{...}" },
  no_steps = { en = "lab %s has no step{...}", zh = "实验 %s 没有 step{...}" },
  in_lab = { en = "lab %s", zh = "实验 %s" },
  in_ask = { en = "%s, ask", zh = "%s，ask" },
}
local say = text.messages("lab_definition", messages)

-- What one lab may hold, at most: warplab wraps and shows all of it.
local MAX_TEXT_BYTES, MAX_LIST, MAX_STEPS = 64 * 1024, 100, 500

local function is_string(v) return type(v) == "string" and #v <= MAX_TEXT_BYTES end

local function is_text(v)
  return is_string(v) or type(v) == "table" and is_string(v.en) and (v.zh == nil or is_string(v.zh))
end

-- A choice: its text, and as a table optionally why a student might pick it
-- (shown when they do, and it is wrong).
local function is_choice(v) return is_text(v) and (type(v) ~= "table" or v.why == nil or is_text(v.why)) end

local function is_list_of(v, check)
  if type(v) ~= "table" or #v > MAX_LIST then return false end
  for _, item in ipairs(v) do if not check(item) then return false end end
  return true
end

-- A hint: a text, attached to the causes of a miss it answers (cause =
-- "bank_conflicts", or a list of them; goals.lua names a goal's causes).
local function is_hint(v)
  local cause = type(v) == "table" and v.cause
  local function is_cause(c) return type(c) == "string" and c:match("^[%a_][%w_]*$") ~= nil end
  return is_text(v) and (not cause or is_cause(cause) or is_list_of(cause, is_cause) and #cause > 0)
end

local function is_claim(v)
  return type(v) == "table" and is_text(v.text) and type(v.holds) == "function" and
         (v.skip == nil or type(v.skip) == "function") and (v.counters == nil or type(v.counters) == "boolean")
end

local function is_code(v)
  return is_string(v) and not v:find("%z")
end

-- A kernel for the student to write: a kernel{} declaration whose source is
-- the skeleton they start from; it reads no file.
local function is_lab_kernel(v)
  return type(v) == "table" and type(v.name) == "string" and v.name:match("^[a-z_][a-z0-9_]*$") ~= nil and is_code(v.skeleton)
     and v.source == nil and v.file == nil and (v.solution == nil or is_code(v.solution))
end

local function one_of(...)
  local kinds = { ... }
  return function(v)
    for _, kind in ipairs(kinds) do if type(v) == kind then return true end end
    return false
  end
end

local function optional(check) return function(v) return v == nil or check(v) end end

-- Each field the runner reads, with what it must be.
local step_fields = {
  { "text", optional(is_text), "must_text_64k" },
  { "run", optional(is_code), "must_code" },
  { "ask", optional(one_of("table")), "must_table" },
  { "hint", optional(function(v) return is_list_of(v, is_hint) end), "must_hints" },
  { "explain", optional(is_text), "must_text_64k" },
  { "claims", optional(function(v) return is_list_of(v, is_claim) end), "must_claims" },
  { "kernel", optional(is_lab_kernel), "must_kernel" },
}
local function is_tolerance(v) return is_finite(v) and v >= 0 or lab_answers.percentage(v) ~= nil end

local ask_fields = {
  { "question", optional(is_text), "must_text" }, { "predict", optional(is_text), "must_text" },
  { "goal", optional(is_text), "must_text" },
  { "choices", optional(function(v) return is_list_of(v, is_choice) end), "must_texts" },
  { "answer", optional(function(v) return type(v) == "function" or is_finite(v) end), "must_answer" },
  { "measure", optional(one_of("function")), "must_function" },
  { "check", optional(one_of("function")), "must_function" },
  { "needs", optional(one_of("table")), "must_table" },
  { "tolerance", optional(is_tolerance), "must_tolerance" },
  { "relative", optional(one_of("boolean")), "must_relative" },
  { "unit", optional(is_string), "must_string" },
  { "solution", optional(is_code), "must_code" },
  { "assessed", optional(one_of("boolean")), "must_boolean" },
  { "points", optional(function(v) return is_finite(v) and v >= 0 end), "must_points" },
}
local lab_fields = {
  { "title", is_text, "must_text_64k" },
  { "topics", optional(function(v) return is_list_of(v, is_string) end), "must_strings" },   -- what it teaches, in a few words: for its readers
  { "minutes", optional(function(v) return math.type(v) == "integer" and v >= 1 and v <= 600 end), "must_minutes" },   -- about how long it takes a student, for :labs
  { "released_from", optional(function(v) return is_string(v) and v:match("^fnv1a64:%x+$") ~= nil end), "must_hash" },
}
local claim_fields = { { "text" }, { "holds" }, { "gpu" }, { "counters" }, { "skip" } }
-- A lab kernel's fields: a kernel{} declaration's (kernel.lua), its source as skeleton and solution.
local function kernel_fields()
  local fields = { { "skeleton" }, { "solution" } }
  for _, name in ipairs(user_kernels.declaration_fields) do
    if name ~= "source" and name ~= "file" then fields[#fields + 1] = { name } end
  end
  return fields
end

local function check_fields(where, spec, fields)
  for _, field in ipairs(fields) do
    local name, valid, expected = field[1], field[2], field[3]
    if not valid(spec[name]) then
      error(say("field_must_be", where, name, say(expected), type(spec[name])), 0)
    end
  end
end

-- Raises one line naming the step and field when a lab is not well formed.
-- "lab tour, step 3": where in a lab something is.
local function where_of(lab_name, index) return say("at_step", lab_name, index) end

local function validate(definition)
  local name = definition.name
  if #definition.steps > MAX_STEPS then error(say("too_many_steps", name, MAX_STEPS), 0) end
  if not is_text(definition.spec.title) then error(say("title_text", name, type(definition.spec.title)), 0) end
  check_fields(say("in_lab", name), definition.spec, lab_fields)
  local released = definition.spec.released_from ~= nil
  for i, step in ipairs(definition.steps) do
    local where = where_of(name, i)
    if type(step) ~= "table" then error(say("step_table", where, type(step)), 0) end
    check_fields(where, step, step_fields)
    local ask = step.ask
    if ask then
      check_fields(say("in_ask", where), ask, ask_fields)
      if not (ask.question or ask.predict or ask.goal) then error(say("ask_needs", where), 0) end
      if ask.predict and not ask.measure then error(say("needs_measure", where), 0) end
      if ask.needs then goals.validate(say("in_ask", where), ask.needs) end
      if ask.goal and not (ask.check or ask.needs) and not (released and ask.assessed) then
        error(say("needs_check", where), 0)
      end
      if ask.question and ask.answer == nil and not (released and ask.assessed) then error(say("needs_answer", where), 0) end
    end
  end
end

-- A goal's declared parts (ask.needs) become part of its check, so that the
-- prompt, the batch, --check-lab and the grader judge it alike: the check
-- gives false and the first cause missed, else what the lab's own check gives.
local own_check = setmetatable({}, { __mode = "k" })   -- ask -> the lab's own check beside needs, or false
local function with_needs(definition)
  for _, step in ipairs(definition.steps) do
    local ask = step.ask
    if ask and ask.needs then
      local needs, check = ask.needs, ask.check
      own_check[ask] = check or false
      ask.check = function(ctx)
        local met, cause = goals.meets(needs, ctx.result)
        if not met then return false, cause end
        if check then return check(ctx) end
        return true
      end
    end
  end
end

-- Loads a lab from its text, its body run as lab code: {name=, id=, spec=, steps=}, or a clear error.
local function load_lab(name, source, id)
  name = clean(name)
  local definition = { name = name, id = id or name, steps = {}, hash = fmt("fnv1a64:%016x", lab_sandbox.hash({ source })) }
  local env = lab_sandbox.sandbox(name)
  env.lab = function(spec) definition.spec = spec end
  env.step = function(spec) definition.steps[#definition.steps + 1] = spec end
  local chunk, why = load(source, "=" .. name, "t", env)
  if not chunk then error(say("does_not_compile", name, clean(core.explain_syntax_error(source, why))), 0) end
  lab_sandbox.guarded(say("in_lab", name), core.sandbox_body, chunk)   -- a body only declares: a small budget
  if type(definition.spec) ~= "table" then error(say("no_lab_call", name), 0) end
  if #definition.steps == 0 then error(say("no_steps", name), 0) end
  validate(definition)
  with_needs(definition)
  -- a released copy answers for the instructor's: its submissions name that lab's hash
  definition.text_hash, definition.hash = definition.hash, definition.spec.released_from or definition.hash
  return definition
end

return {
  load = load_lab, where_of = where_of, is_text = is_text, own_check = own_check,
  -- the fields warplab reads, for the checker's findings of fields it does not
  fields = { lab = lab_fields, step = step_fields, ask = ask_fields, claim = claim_fields, kernel = kernel_fields },
}
