-- labs.lua: the lab runner. A lab is a Lua script (labs/NAME.lua, or any
-- file an instructor names) that calls lab{...} once and step{...} for each
-- step; it runs in a sandbox. The runner shows a step's text between prompts,
-- offers its experiment as code to run or edit, checks answers against the
-- student's own results, gives hints in stages, and saves progress after
-- every change (atomically: a temporary file, then a rename).
local core = ...
local u = core.util
local fmt = u.fmt

local labs = {}
core.labs = labs

---------------------------------------------------------------------------
-- Text in the session's language, wrapped to the terminal
---------------------------------------------------------------------------

-- A text field is a string or {en=, zh=}; the session's language, else English.
local function text_of(value)
  if type(value) ~= "table" then return value and tostring(value) or nil end
  return value[core.lang()] or value.en
end
labs.text_of = text_of

local messages = {
  step = { en = "step %d of %d", zh = "第 %d 步，共 %d 步" },
  run_it = { en = "Run it (or edit it first):", zh = "运行它（或先修改再运行）：" },
  question = { en = "Question:", zh = "问题：" },
  answer_with = { en = "Answer with :answer VALUE or answer(value).", zh = "用 :answer 值 或 answer(值) 作答。" },
  predict_first = { en = "Predict first (:answer VALUE), then run the experiment.",
                    zh = "先预测（:answer 值），再运行实验。" },
  goal = { en = "Goal (checked against your last launch, :answer to check):",
           zh = "目标（用你最近一次 launch 的结果检查，输入 :answer 检查）：" },
  correct = { en = "Correct.", zh = "正确。" },
  wrong = { en = "Not quite (attempt %d).", zh = "还不对（第 %d 次尝试）。" },
  reveal = { en = "The answer: %s", zh = "答案：%s" },
  no_result = { en = "Run the experiment first: the answer comes from your own result.",
                zh = "请先运行实验：答案来自你自己的结果。" },
  prediction = { en = "Your prediction %s · measured %s · model %s", zh = "你的预测 %s · 实测 %s · 模型 %s" },
  no_hint = { en = "No more hints for this step.", zh = "这一步没有更多提示了。" },
  finished = { en = "Lab finished: %d of %d questions right on the first try.",
               zh = "实验完成：%d/%d 道题第一次就答对。" },
  no_lab = { en = "No lab is open: :labs lists them, :lab NAME opens one.",
             zh = "没有打开的实验：:labs 列出实验，:lab 名称 打开一个。" },
  where = { en = "Lab %s, step %d of %d.", zh = "实验 %s，第 %d 步，共 %d 步。" },
}

local function say(key, ...)
  return fmt(text_of(messages[key]), ...)
end

-- Whether a code point is a wide (East Asian) character: two columns on a terminal.
local function wide(cp)
  return (cp >= 0x1100 and cp <= 0x115F) or (cp >= 0x2E80 and cp <= 0xA4CF) or (cp >= 0xAC00 and cp <= 0xD7A3) or
         (cp >= 0xF900 and cp <= 0xFAFF) or (cp >= 0xFE30 and cp <= 0xFE4F) or (cp >= 0xFF00 and cp <= 0xFF60) or
         (cp >= 0xFFE0 and cp <= 0xFFE6)
end

-- Columns a text takes on a terminal.
local function display_width(text)
  local columns = 0
  for _, cp in utf8.codes(text) do columns = columns + (wide(cp) and 2 or 1) end
  return columns
end
labs.display_width = display_width

-- Pieces a line may break between: words of Latin text, and each wide character on its own.
local function pieces(paragraph)
  local list, word = {}, {}
  local function flush()
    if #word > 0 then list[#list + 1] = { text = table.concat(word), space = false }; word = {} end
  end
  for _, cp in utf8.codes(paragraph) do
    local ch = utf8.char(cp)
    if ch == " " then
      flush()
      list[#list + 1] = { text = " ", space = true }
    elseif wide(cp) then
      flush()
      list[#list + 1] = { text = ch, space = false }
    else
      word[#word + 1] = ch
    end
  end
  flush()
  return list
end

-- Wraps text to the terminal's width, keeping blank lines and indented lines as
-- they are; Chinese text breaks between characters, other text between words.
local function wrap(text, width)
  width = width or math.max(40, math.min(core.columns() - 2, 100))
  local out = {}
  for paragraph in (text .. "\n"):gmatch("(.-)\n") do
    if paragraph:match("^%s") or paragraph == "" then
      out[#out + 1] = paragraph
    else
      local line, columns = {}, 0
      for _, piece in ipairs(pieces(paragraph)) do
        local w = display_width(piece.text)
        if columns + w > width and columns > 0 and not piece.space then
          out[#out + 1] = (table.concat(line):gsub("%s+$", ""))
          line, columns = {}, 0
        end
        if not (piece.space and columns == 0) then
          line[#line + 1] = piece.text
          columns = columns + w
        end
      end
      out[#out + 1] = (table.concat(line):gsub("%s+$", ""))
    end
  end
  while out[#out] == "" do out[#out] = nil end
  return table.concat(out, "\n")
end
labs.wrap = wrap

---------------------------------------------------------------------------
-- Loading a lab in a sandbox
---------------------------------------------------------------------------

local INSTRUCTION_LIMIT = 50000000   -- a lab's own code may not loop forever

local time_of, bandwidth_of = core.time_of, core.bandwidth_of   -- measured, else modelled

-- Whether a result's params hold every value of want (block shapes compared as pairs).
local function matches(r, kernel, want)
  if kernel and r.kernel ~= kernel then return false end
  for k, v in pairs(want) do
    local p = r.params[k]
    if type(v) == "table" then
      if type(p) ~= "table" or p[1] ~= v[1] or p[2] ~= v[2] then return false end
    elseif p ~= v then
      return false
    end
  end
  return true
end

-- extreme(results, param, holds [, largest]): the smallest value of param (the
-- largest with largest = true) among the results for which holds(r) is true, or nil.
local function extreme(results, param, holds, largest)
  local best
  for _, r in ipairs(results or {}) do
    local v = r.params[param]
    if v ~= nil and holds(r) and (best == nil or (largest and v > best) or (not largest and v < best)) then
      best = v
    end
  end
  return best
end

-- find(source, [kernel,] want): the result whose params match. source is a list of
-- results (searched in order), or a question's ctx (its last launch first, then its
-- last list from the end).
local function find(source, kernel, want)
  if type(kernel) == "table" then kernel, want = nil, kernel end
  local candidates = source or {}
  if source and (source.result or source.results) and not source[1] then
    candidates = { source.result }
    local list = source.results or {}
    for i = #list, 1, -1 do candidates[#candidates + 1] = list[i] end
  end
  for _, r in ipairs(candidates) do
    if matches(r, kernel, want or {}) then return r end
  end
end

-- What a lab script may use: the lab API, the launch API, string, table, math, utf8,
-- and the helpers above.
local function sandbox(definition)
  local env = {
    lab = function(spec) definition.spec = spec end,
    step = function(spec) definition.steps[#definition.steps + 1] = spec end,
    string = string, table = table, math = math, utf8 = utf8,
    pairs = pairs, ipairs = ipairs, next = next, select = select, type = type, tostring = tostring,
    tonumber = tonumber, error = error, assert = assert, pcall = pcall, print = print,
    launch = launch, sweep = sweep, range = range, pow2 = pow2, device = device, info = info,
    kernels = kernels, compare = compare, explain = explain, show = show,
    find = find, extreme = extreme, time_of = time_of, bandwidth_of = bandwidth_of,
  }
  return env
end

-- Runs fn under an instruction budget (no debug for the lab itself: the runner holds it).
local function limited(fn, ...)
  local hook_debug = debug   -- the runner's own; the lab's sandbox has none
  hook_debug.sethook(function() error("the lab's code ran too long (a loop that never ends?)", 2) end, "", INSTRUCTION_LIMIT)
  local results = table.pack(pcall(fn, ...))
  hook_debug.sethook()
  if not results[1] then error(results[2], 0) end
  return table.unpack(results, 2, results.n)
end

-- Loads a lab from its text: {name=, spec=, steps=}, or raises a clear error.
function labs.load(name, text)
  local definition = { name = name, steps = {} }
  local chunk, why = load(text, "=" .. name, "t", sandbox(definition))
  if not chunk then error("lab " .. name .. " does not load: " .. why, 0) end
  limited(chunk)
  if not definition.spec then error("lab " .. name .. " never calls lab{...}", 0) end
  if #definition.steps == 0 then error("lab " .. name .. " has no step{...}", 0) end
  return definition
end

-- The lab called name: built in, or a file path.
local function find_lab(name)
  local text = core.lab_source(name)
  if text then return labs.load(name, text) end
  local file = name:find("%.lua$") and io.open(name) or nil
  if file then
    text = file:read("a")
    file:close()
    return labs.load(name:match("([^/]+)%.lua$"), text)
  end
  local names = {}
  for _, n in ipairs(core.lab_names()) do names[#names + 1] = n end
  error(fmt("unknown lab '%s' (labs: %s)", tostring(name), table.concat(names, ", ")), 0)
end

---------------------------------------------------------------------------
-- Progress, saved atomically
---------------------------------------------------------------------------

local progress

local function progress_path()
  return core.data_path("progress.json")
end

local function load_progress()
  if progress then return progress end
  progress = { labs = {} }
  local path = progress_path()
  local file = path and io.open(path)
  if file then
    local data = core.json.decode(file:read("a"))
    file:close()
    if type(data) == "table" and type(data.labs) == "table" then progress = data end
  end
  return progress
end

-- Writes progress.json through a temporary file and a rename, so a crash never leaves half a file.
local function save_progress()
  local path = progress_path()
  if not path then return end
  local temporary = path .. ".tmp"
  local file = io.open(temporary, "w")
  if not file then return end
  file:write(core.json.encode(progress, 2), "\n")
  file:flush()
  file:close()
  os.rename(temporary, path)
end

local function lab_progress(name)
  local all = load_progress().labs
  all[name] = all[name] or { step = 1, done = {}, answers = {}, attempts = {} }
  return all[name]
end

---------------------------------------------------------------------------
-- Steps
---------------------------------------------------------------------------

local current   -- {definition=, index=, hint=, result=}

local now = u.utc_now

local function step_of(state) return state.definition.steps[state.index] end

-- What a question's expected value is computed from: the student's own last result.
local function context()
  return { result = core.last_result(), results = core.last_results(), device = device() }
end

local function format_value(value, unit)
  if type(value) == "number" then
    local text = math.type(value) == "integer" and u.commas(value) or fmt("%.4g", value)
    return unit and text .. " " .. unit or text
  end
  return tostring(value)
end

-- The text of a step: its explanation, its experiment, its question.
local function step_text(state)
  local step, n = step_of(state), #state.definition.steps
  local parts = { fmt("── %s · %s ──", text_of(state.definition.spec.title), say("step", state.index, n)),
                  wrap(text_of(step.text) or "") }
  if step.run then
    parts[#parts + 1] = say("run_it")
    for line in (step.run .. "\n"):gmatch("(.-)\n") do parts[#parts + 1] = "    " .. line end
  end
  local ask = step.ask
  if ask then
    if ask.predict then
      parts[#parts + 1] = wrap(say("question") .. " " .. text_of(ask.predict))
      parts[#parts + 1] = say("predict_first")
    elseif ask.goal then
      parts[#parts + 1] = wrap(say("goal") .. " " .. text_of(ask.goal))
    else
      parts[#parts + 1] = wrap(say("question") .. " " .. text_of(ask.question))
      if ask.choices then
        for i, choice in ipairs(ask.choices) do parts[#parts + 1] = fmt("    %d. %s", i, text_of(choice)) end
      end
      parts[#parts + 1] = say("answer_with")
    end
  end
  return table.concat(parts, "\n")
end

local function show_step(state)
  print(step_text(state))
  local p = lab_progress(state.definition.name)
  p.step, p.updated = state.index, now()
  save_progress()
end

-- The expected answer of a number or choice question, from the student's result when it is a function.
local function expected(ask, state)
  local value = ask.answer
  if type(value) == "function" then
    local ctx = context()
    if not ctx.result then return nil end
    value = limited(value, ctx)
  end
  return value
end

-- Checks a number against the expected value: within tolerance (absolute, or relative when given).
local function close_enough(got, want, ask)
  if type(got) ~= "number" or type(want) ~= "number" then return false end
  local tolerance = ask.tolerance or 0
  if ask.relative then tolerance = tolerance * math.abs(want) end
  return math.abs(got - want) <= tolerance + 1e-12
end

-- Judges one answer; returns passed, and what to say.
local function judge(state, value)
  local ask, lines = step_of(state).ask, {}
  if ask.predict then
    local ctx = context()
    if not ctx.result then return nil, say("no_result") end
    local measured, model = limited(ask.measure, ctx)
    lines[#lines + 1] = say("prediction", format_value(tonumber(value), ask.unit), format_value(measured, ask.unit),
                            format_value(model, ask.unit))
    return true, table.concat(lines, "\n")
  end
  if ask.goal then
    local ctx = context()
    if not ctx.result then return nil, say("no_result") end
    return limited(ask.check, ctx) and true or false, nil
  end
  local want = expected(ask, state)
  if want == nil then return nil, say("no_result") end
  if ask.choices then
    return tonumber(value) == want, nil, want
  end
  return close_enough(tonumber(value), want, ask), nil, want
end

-- Records an attempt and says the outcome; moves on when the step is done.
function labs.answer(value)
  local state = current
  if not state then return print(say("no_lab")) end
  local step = step_of(state)
  if not step.ask then return labs.next() end
  local passed, message, want = judge(state, value)
  if passed == nil then return print(message) end
  local p = lab_progress(state.definition.name)
  local key = tostring(state.index)
  p.attempts[key] = (p.attempts[key] or 0) + 1
  p.answers[key] = tostring(value)
  p.updated = now()
  if message then print(wrap(message)) end
  if passed then
    p.done[key] = true
    p.first_try = p.first_try or {}
    if p.attempts[key] == 1 then p.first_try[key] = true end
    print(say("correct"))
    if step.explain then print(wrap(text_of(step.explain))) end
  else
    print(say("wrong", p.attempts[key]))
    state.hint = math.max(state.hint, math.min(p.attempts[key], #(step.hint or {})))
    if step.hint and step.hint[p.attempts[key]] then print(wrap(text_of(step.hint[p.attempts[key]]))) end
    if p.attempts[key] >= 3 then
      if want ~= nil then print(say("reveal", step.ask.choices and text_of(step.ask.choices[want]) or format_value(want, step.ask.unit))) end
      if step.explain then print(wrap(text_of(step.explain))) end
      p.done[key] = true
    end
  end
  save_progress()
  return passed
end

function labs.open(name)
  local definition = find_lab(name)
  local p = lab_progress(definition.name)
  current = { definition = definition, index = math.min(p.step or 1, #definition.steps), hint = 0 }
  show_step(current)
end

function labs.next()
  if not current then return print(say("no_lab")) end
  if current.index >= #current.definition.steps then
    local p, right, questions = lab_progress(current.definition.name), 0, 0
    for i, step in ipairs(current.definition.steps) do
      if step.ask then
        questions = questions + 1
        if p.first_try and p.first_try[tostring(i)] then right = right + 1 end
      end
    end
    p.finished = now()
    save_progress()
    return print(say("finished", right, questions))
  end
  current.index, current.hint = current.index + 1, 0
  show_step(current)
end

function labs.back()
  if not current then return print(say("no_lab")) end
  current.index, current.hint = math.max(1, current.index - 1), 0
  show_step(current)
end

function labs.hint()
  if not current then return print(say("no_lab")) end
  local hints = step_of(current).hint or {}
  if current.hint >= #hints then return print(say("no_hint")) end
  current.hint = current.hint + 1
  print(wrap(text_of(hints[current.hint])))
end

function labs.where()
  if not current then return print(say("no_lab")) end
  print(say("where", current.definition.name, current.index, #current.definition.steps))
  print(step_text(current))
end

function labs.run()
  if not current then return print(say("no_lab")) end
  local code = step_of(current).run
  if code then core.run_student_code(code) end
end

function labs.reset(name)
  name = name ~= "" and name or (current and current.definition.name)
  if not name then return print(say("no_lab")) end
  load_progress().labs[name] = nil
  save_progress()
  if current and current.definition.name == name then current.index = 1; show_step(current) end
end

function labs.list()
  local lines = {}
  for _, name in ipairs(core.lab_names()) do
    local ok, definition = pcall(find_lab, name)
    local p = load_progress().labs[name]
    local done = 0
    if p then for _ in pairs(p.done or {}) do done = done + 1 end end
    local steps = ok and #definition.steps or 0
    local questions = 0
    if ok then for _, s in ipairs(definition.steps) do if s.ask then questions = questions + 1 end end end
    local title = ok and text_of(definition.spec.title) or "(does not load)"
    local pad = (" "):rep(math.max(1, 52 - display_width(title)))   -- by columns: Chinese titles line up
    lines[#lines + 1] = fmt("  %-12s %s%s%s", name, title, pad,
                            p and p.finished and "finished" or p and fmt("%d/%d answered", done, questions) or
                            fmt("%d steps", steps))
  end
  print(table.concat(lines, "\n"))
end

-- answer(value): the same as :answer VALUE.
function answer(value)
  return labs.answer(value)
end

---------------------------------------------------------------------------
-- Claims: what a lab's text says about the hardware, checked on a GPU
---------------------------------------------------------------------------

-- Runs every step's experiment and evaluates its `claims`: a list of
-- {text = ..., holds = function(ctx) return true_or_false end, gpu = true (only
-- measured results can show it)}. Returns {lab=, step=, text=, holds=, skipped=} per claim.
function labs.check_claims(name)
  local definition = find_lab(name)
  local measured = device().backend == "gpu"
  local outcomes = {}
  for i, step in ipairs(definition.steps) do
    if step.run then core.run_student_code(step.run) end
    for _, claim in ipairs(step.claims or {}) do
      local outcome = { lab = definition.name, step = i, text = text_of(claim.text) }
      if claim.gpu and not measured then
        outcome.skipped = true
      else
        local ok, holds = pcall(limited, claim.holds, context())
        outcome.holds = ok and holds == true
        if not ok then outcome.error = tostring(holds) end
      end
      outcomes[#outcomes + 1] = outcome
    end
  end
  return outcomes
end

---------------------------------------------------------------------------
-- Batch mode: warplab --lab NAME --answers FILE
---------------------------------------------------------------------------

-- Runs every step: shows it, runs its experiment, takes answers from the file
-- in order (for a goal, a line of code to run, then it is checked). Returns
-- true when every question was answered right.
function labs.batch(name, answers_path)
  local file, why = io.open(answers_path)
  if not file then error("cannot read answers " .. answers_path .. ": " .. tostring(why), 0) end
  local answers = {}
  for line in file:lines() do
    if not line:match("^%s*#") and line:match("%S") then answers[#answers + 1] = line end
  end
  file:close()
  current = nil   -- so that reset does not show step 1 of an open lab before the batch does
  labs.reset(name)
  local definition = find_lab(name)
  current = { definition = definition, index = 1, hint = 0 }
  local next_answer, all_right = 1, true
  for i, step in ipairs(definition.steps) do
    current.index = i
    show_step(current)
    local ask = step.ask
    if ask and ask.predict then
      local prediction = answers[next_answer]; next_answer = next_answer + 1
      print("> :answer " .. tostring(prediction) .. "   (prediction)")
      if step.run then core.run_student_code(step.run) end
      all_right = labs.answer(prediction) and all_right
    else
      if step.run then
        print("> " .. step.run:gsub("\n", "\n> "))
        core.run_student_code(step.run)
      end
      if ask then
        local given = answers[next_answer]; next_answer = next_answer + 1
        if given == nil then error(fmt("the answers file has no answer for step %d", i), 0) end
        if ask.goal then
          print("> " .. given)
          core.run_student_code(given)
          given = ""
        else
          print("> :answer " .. given)
        end
        all_right = labs.answer(given) == true and all_right
      end
    end
  end
  labs.next()
  return all_right
end
