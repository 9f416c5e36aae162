-- labs.lua (warplab.labs): the lab runner. A lab is a Lua script
-- (labs/NAME.lua, or any file an instructor names) that calls lab{...} once
-- and step{...} for each step (lab_definition.lua); everything it supplies
-- runs in the sandbox (lab_sandbox.lua). The runner shows a step's text
-- between prompts, offers its experiment as code to run or edit, checks
-- answers against the student's own results (lab_answers.lua), gives
-- hints by the cause of a miss, sets a prediction beside the run, and saves
-- progress after every change (warplab.progress). The batch, the claims and
-- the checker (lab_batch.lua, lab_claims.lua, lab_check.lua) drive it
-- through `labs.runner`.
local core = require "warplab.core"
local text = require "warplab.text"
local values = require "warplab.values"
local export = require "warplab.export"
local recorder = require "warplab.record"
local progress = require "warplab.progress"
local user_kernels = require "warplab.kernel"
local goals = require "warplab.goals"
local lab_text = require "warplab.lab_text"
local lab_sandbox = require "warplab.lab_sandbox"
local lab_answers = require "warplab.lab_answers"
local lab_definition = require "warplab.lab_definition"
local lab_catalogue = require "warplab.lab_catalogue"
local lab_submission = require "warplab.lab_submission"

local fmt = text.fmt
local clean, visible, text_of, wrap = lab_text.clean, lab_text.visible, lab_text.text_of, lab_text.wrap
local format_value = lab_text.format_value
local C = core.globals   -- the API's functions in C that students call by name

local labs = {}

local messages = {
  step = { en = "step %d of %d", zh = "第 %d 步，共 %d 步" },
  run_it = { en = "Run it (or edit it first):", zh = "运行它（或先修改再运行）：" },
  question = { en = "Question:", zh = "问题：" },
  answer_with = { en = "Answer with :answer VALUE or answer(value).", zh = "用 :answer 值 或 answer(值) 作答。" },
  predict_first = { en = "Predict first (:answer VALUE), then run the experiment.",
                    zh = "先预测（:answer 值），再运行实验代码。" },
  goal = { en = "Goal (checked against your last launch, :answer to check):",
           zh = "目标（用你最近一次 launch 的结果检查，输入 :answer 检查）：" },
  correct = { en = "Correct.", zh = "正确。" },
  recorded = { en = "Answer recorded. This question is graded after you hand in the lab (:submit); answer again to change it.",
               zh = "答案已记下。这道题在你提交实验（:submit）之后评分；再次作答可以修改。" },
  go_on = { en = ":next goes on.", zh = "输入 :next 继续。" },
  go_finish = { en = ":next finishes the lab.", zh = "输入 :next 完成这个实验。" },
  no_experiment = { en = "This step has no experiment to run: read it, then :next.",
                    zh = "这一步没有要运行的实验代码：读完后输入 :next。" },
  unanswered = { en = "This step's question is not answered yet (:answer VALUE); :next again skips it.",
                 zh = "这一步的问题还没有回答（:answer 值）；再输入一次 :next 就跳过它。" },
  next_lab = { en = "Next: :lab %s (%s).", zh = "下一个：:lab %s（%s）。" },
  wrong = { en = "Not quite (attempt %d).", zh = "还不对（第 %d 次尝试）。" },
  -- what a wrong number looks like (lab_answers.slip_of)
  slip_inverse = { en = "That is the ratio turned over: which of the two goes on top?",
                   zh = "这是把比值倒过来了：两个数里哪一个该做分子？" },
  slip_mib_for_mb = { en = "That looks like mebibytes (2^20 bytes each); the question counts MB of 10^6 bytes.",
                      zh = "这看起来是按 MiB（每个 2^20 字节）算的；题目按 MB（每个 10^6 字节）算。" },
  slip_mb_for_mib = { en = "That looks like MB of 10^6 bytes; the question counts MiB (2^20 bytes each).",
                      zh = "这看起来是按 MB（每个 10^6 字节）算的；题目按 MiB（每个 2^20 字节）算。" },
  slip_by_element_size = { en = "That is off by the size of an element (4 or 8 bytes): bytes counted where elements were asked, or elements where bytes were?",
                           zh = "差了一个元素的大小（4 或 8 字节）：是不是把字节当成了元素，或者把元素当成了字节？" },
  slip_percent_for_fraction = { en = "That looks like a percentage; the question asks for a fraction (25%% is 0.25).",
                                zh = "这看起来是百分数；题目要的是小数（25%% 即 0.25）。" },
  slip_fraction_for_percent = { en = "That looks like a fraction; the question asks for a percentage (0.25 is 25).",
                                zh = "这看起来是小数；题目要的是百分数（0.25 即 25）。" },
  reveal = { en = "The answer: %s", zh = "答案：%s" },
  no_result = { en = "Run the experiment first: the answer comes from your own result.",
                zh = "请先运行实验代码：答案来自你自己的结果。" },
  predicted = { en = "Prediction noted: %s. Now run the experiment (:run, or type it) and compare.",
                zh = "已记下预测：%s。现在运行实验代码（:run，或自己输入）再比较。" },
  predict_before = { en = "A prediction comes before the run: this step's experiment has run already. :next goes on.",
                     zh = "预测要在运行之前：这一步的实验代码已经运行过了。:next 继续。" },
  reflection = { en = "You predicted %s; your run: %s%s: %s.", zh = "你预测 %s；你的运行：%s%s：%s。" },
  modelled_as = { en = " (modelled)", zh = "（模型估算）" },
  model_beside = { en = " (model %s)", zh = "（模型 %s）" },
  gap_more = { en = "%s more than you predicted", zh = "比你的预测多 %s" },
  gap_less = { en = "%s less than you predicted", zh = "比你的预测少 %s" },
  gap_none = { en = "just as you predicted", zh = "和你的预测一样" },
  recorded_count = { en = "Answers recorded for grading: %d (graded after you hand in the lab).",
                     zh = "已记下待评分的答案：%d 个（提交实验后评分）。" },
  predictions = { en = "Predictions: %d of %d within 10%% of your run.", zh = "预测：%d/%d 个与你的运行相差不到 10%%。" },
  number_expected = { en = "Answer with a number (units are optional), e.g. :answer 4",
                      zh = "请用数字作答（单位可写可不写），例如 :answer 4" },
  choice_expected = { en = "Answer with a choice's number, letter or text, e.g. :answer 2 or :answer b",
                      zh = "请用选项的编号、字母或文字作答，例如 :answer 2 或 :answer b" },
  no_hint = { en = "No more hints for this step.", zh = "这一步没有更多提示了。" },
  finished = { en = "Lab finished: %d of %d questions right on the first try.",
               zh = "实验完成：%d/%d 道题第一次就答对。" },
  reset_confirm = { en = "Resetting lab '%s' deletes %s, and forgets your progress in it. Nothing is changed yet: %s again within %d s resets it.",
                    zh = "重置实验“%s”会删除%s，并清除你在其中的进度。现在还没有改动：再输入一次 %s（%d 秒内）就会重置。" },
  reset_edited_kernel = { en = "your own source of kernel %s (%s)", zh = "你自己的核函数 %s 的源代码（%s）" },
  list_and = { en = " and ", zh = "和" },
  no_lab = { en = "No lab is open: :labs lists them, :lab NAME opens one.",
             zh = "没有打开的实验：:labs 列出实验，:lab 名称 打开一个。" },
  where = { en = "Lab %s, step %d of %d.", zh = "实验 %s，第 %d 步，共 %d 步。" },
  -- the status column of :labs
  steps = { en = "%d steps", zh = "%d 步" },
  steps_minutes = { en = "%d steps · %d min", zh = "%d 步 · 约 %d 分钟" },
  finished_status = { en = "finished", zh = "已完成" },
  answered = { en = "%d/%d answered", zh = "已回答 %d/%d" },
  does_not_load = { en = "(does not load)", zh = "（无法加载）" },
  from_file = { en = "from %s", zh = "来自 %s" },
  hidden_lab = { en = "  (%s is not listed: the name %s is taken by %s)", zh = "  （%s 没有列出：名字 %s 已被 %s 占用）" },
  built_in = { en = "a built-in lab", zh = "一个内置实验" },
  reloaded = { en = "Lab %s read again; you are at step %d of %d.", zh = "已重新读取实验 %s；你在第 %d 步，共 %d 步。" },
  -- where lab code went wrong, and what a batch run shows
  error = { en = "error: %s", zh = "错误：%s" },
  answer_not_number = { en = "%s: ask.answer must give a finite number, got %s", zh = "%s：ask.answer 必须给出有限的数字，得到 %s" },
  measure_not_number = { en = "%s: ask.measure must return a finite number (and the model's, a finite number, or nothing), got %s",
                         zh = "%s：ask.measure 必须返回有限的数字（以及模型的值：有限的数字，或不返回），得到 %s" },
  write_kernel = { en = "You write kernel '%s' here: :edit opens its source in your editor, and it is compiled again when you save and quit.",
                   zh = "这一步由你来写核函数 '%s'：:edit 在你的编辑器里打开它的源代码，保存并退出后会重新编译。" },
  lab_kernel_failed = { en = "%s: its kernel could not be declared: %s", zh = "%s：无法声明它的核函数：%s" },
  own_kernel_failed = { en = "%s\nYour kernel is as it was before: :edit to fix it.", zh = "%s\n你的核函数保持原样：用 :edit 修改它。" },
}
local say = text.messages("labs", messages)

local current   -- {definition=, index=, hint=, globals=, shown_result=, prediction=}

local function step_of(state) return state.definition.steps[state.index] end

-- "lab tour, step 3": where an error in lab code came from.
local where_of = lab_definition.where_of
local function where(state) return where_of(state.definition.name, state.index) end

-- What a lab's function judges from: copies of the results, the device, and
-- the student's own random numbers (of a lab, by its name).
local function context_for(lab_name, student, result, results, d)
  local seen = {}
  return { result = lab_sandbox.copy(result, seen), results = lab_sandbox.copy(results, seen), device = d,
           random = lab_sandbox.student_random(lab_name, student), student = student }
end

-- The context of the open step: the student's own last results.
local function context(state)
  return context_for(state.definition.name, lab_sandbox.student_id(), core.last_result(), core.last_results(), C.device())
end

-- The text of a step: its explanation, its experiment, its question.
local function step_text(state)
  local step, n = step_of(state), #state.definition.steps
  local parts = { fmt("── %s · %s ──", text_of(state.definition.spec.title), say("step", state.index, n)),
                  wrap(text_of(step.text) or "") }
  if step.kernel then parts[#parts + 1] = wrap(say("write_kernel", step.kernel.name)) end
  if step.run then
    parts[#parts + 1] = say("run_it")
    for line in (visible(step.run) .. "\n"):gmatch("(.-)\n") do parts[#parts + 1] = "    " .. line end
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

-- Declares the step's kernel for the student to write, from their own file
-- if they have one (from: "skeleton", the lab as written, for its claims;
-- "solution", the lab's own solution, for --check-lab). Returns the error
-- when the lab's own source could not be declared.
local function declare_step_kernel(state, from)
  local declaration = step_of(state).kernel
  if not declaration then return end
  local ok, why = pcall(user_kernels.declare_lab_kernel, declaration, state.definition.id, from)
  if not ok then
    print(say("error", say("lab_kernel_failed", where(state), clean(tostring(why)))))
    return clean(tostring(why))   -- for the checker: why the lab's own source was not declared
  elseif why then
    print(say("error", say("own_kernel_failed", clean(why))))
  end
end

local run_experiment   -- run_experiment(state, code): a step's experiment, as lab code (below)

-- The history lines labs offered, as shown, each with the code it shows and
-- the lab state it came from: sent back unedited, a line runs as the lab's.
local offered = {}

-- Puts a step's experiment into the history (Up recalls it, to edit), as
-- step_text shows it: whole, padding and controls made visible.
local function offer(state, code)
  local shown = visible(code)
  offered[shown] = { code = code, state = state }
  core.offer_history(shown)
end

-- labs.run_offered(line): a line the student sent from the history as a
-- lab offered it runs as that lab's experiment, in its sandbox (as :run
-- runs it); true then, false for any other line (the student's own).
function labs.run_offered(line)
  local entry = offered[line]
  if not entry then return false end
  run_experiment(entry.state, entry.code)
  return true
end

local function show_step(state)
  state.shown_result, state.prediction = core.last_result(), nil
  print(step_text(state))
  declare_step_kernel(state)
  if step_of(state).run then offer(state, step_of(state).run) end
  progress.update(state.definition.id, "step", state.index)
end

-- Whether a value is plain data all through (no functions), at most 32
-- tables deep: what an experiment may hand the student.
local function is_data(value, seen, depth)
  local kind = type(value)
  if kind == "function" or kind == "thread" or kind == "userdata" then return false end
  if kind ~= "table" or seen[value] then return true end
  if depth > 32 then return false end
  seen[value] = true
  for k, v in next, value do
    if not (is_data(k, seen, depth + 1) and is_data(v, seen, depth + 1)) then return false end
  end
  return true
end

-- Bytes that start what clean() removes: C0 controls, DEL, C1 (\194) and
-- bidi marks (\226); a quick look first, so that long strings cost one scan.
local SUSPECT = "[%z\1-\8\11-\31\127\194\226]"

-- Whether a string, or any string in a table, holds what clean() removes.
local function is_dirty(value, seen)
  if type(value) == "string" then
    return (value:find(SUSPECT) or not utf8.len(value)) and clean(value) ~= value
  end
  if type(value) ~= "table" or seen[value] then return false end
  seen[value] = true
  for k, v in next, value do
    if is_dirty(k, seen) or is_dirty(v, seen) then return true end
  end
  return false
end

-- The variables an experiment set (r, rs, s...) become the student's too,
-- where that replaces no function or library of theirs; with their strings
-- cleaned, where the lab put terminal controls in them.
local function hand_over(globals)
  for name, value in next, globals do
    local theirs = rawget(_G, name)
    if type(name) == "string" and lab_sandbox.allowed[name] == nil and name ~= "_G" and is_data(value, {}, 0) and
       (theirs == nil or is_data(theirs, {}, 0)) then
      rawset(_G, name, is_dirty(value, {}) and lab_sandbox.copy(value, {}, clean) or value)
    end
  end
end

-- Prints what an experiment returned, as the prompt does, cleaned.
local function print_values(...)
  for i = 1, select("#", ...) do print(clean(values.value_line((select(i, ...))))) end
end

local reflect   -- reflect(state): a waiting prediction set beside the run (below)

-- Runs a step's experiment as lab code in the lab's own globals, printing
-- its values as the prompt does; an error is printed, not raised. True when
-- it ran; else false and the error.
function run_experiment(state, code)
  state.globals = state.globals or lab_sandbox.sandbox(state.definition.name)
  local chunk, why = core.load_experiment(code, state.globals)
  if not chunk then
    why = lab_sandbox.error_at(where(state), clean(lab_sandbox.lab_error(why)))
    print(say("error", why))
    return false, why
  end
  local results = table.pack(pcall(lab_sandbox.guarded, where(state), chunk))
  hand_over(state.globals)
  if not results[1] then print(say("error", core.error_text(tostring(results[2])))); return false, tostring(results[2]) end
  recorder.after_chunk(code, table.unpack(results, 2, results.n))
  print_values(table.unpack(results, 2, results.n))
  reflect(state)
  return true
end

-- What an answer or a prediction was judged on, kept with the student's
-- progress for a submission: fields, and the student's last result (and
-- their last list, when it holds more: a sweep), without the device, which
-- the submission names once.
local MAX_KEPT_RESULTS = 64

-- The sources the lab's kernels of these results ran with, by name: a
-- kernel the student edits between steps is graded, step by step, on the
-- source each launch ran (nil when no launch ran a lab's kernel).
local function sources_of(results)
  local sources
  for _, r in ipairs(results) do
    local source = not user_kernels.kernel_is_students(r.kernel) and user_kernels.source_ran(r)
    if source then
      sources = sources or {}
      sources[r.kernel] = source
    end
  end
  return sources
end

local function evidence_of(fields)
  local function data(r) local d = export.result_data(r); d.device = nil; return d end
  local r, list = core.last_result(), core.last_results()
  fields.result = r and data(r) or nil
  local kept = { r }
  if list and #list > 1 and #list <= MAX_KEPT_RESULTS then
    fields.results, kept = {}, list
    for i, each in ipairs(list) do fields.results[i] = data(each) end
  end
  fields.sources = sources_of(kept)
  return fields
end

-- The expected answer of a number or choice question, from the result in ctx when it is a function.
local function expected_in(ask, where_text, ctx)
  local value = ask.answer
  if type(value) == "function" then
    if not ctx.result then return nil end
    value = lab_sandbox.judging(where_text, value, ctx)
  end
  if value ~= nil and not lab_sandbox.is_finite(value) then error(say("answer_not_number", where_text, lab_sandbox.what_it_gave(value)), 0) end
  return value
end

local function expected(ask, state) return expected_in(ask, where(state), context(state)) end

-- Judges one answer; returns passed (nil: not judged, and nothing counted),
-- what to say, the expected value, and for a goal missed, its cause (the
-- first part of ask.needs missed, or what the lab's check gave beside false).
local function judge(state, value)
  local ask = step_of(state).ask
  if ask.goal then
    local ctx = context(state)
    if not ctx.result then return nil, say("no_result") end
    local met, cause = lab_sandbox.judging(where(state), ask.check, ctx)
    return met and true or false, nil, nil, not met and cause or nil
  end
  if ask.choices and not lab_answers.read_choice(value, ask.choices) then return nil, say("choice_expected") end
  if not ask.choices and not lab_answers.read_number(value) then return nil, say("number_expected") end
  local want = expected(ask, state)
  if want == nil then return nil, say("no_result") end
  return lab_answers.answer_right(ask, value, want), nil, want
end

-- Predictions: taken before the run, never judged, set beside the run after it.

-- "25%" between a prediction and the run, and whether the run was more.
local function gap_text(predicted, measured)
  if measured == predicted then return say("gap_none") end
  local base = predicted ~= 0 and math.abs(predicted) or math.abs(measured)
  local fraction = math.abs(measured - predicted) / base
  return say(measured > predicted and "gap_more" or "gap_less", text.percent(fraction))
end

-- Takes a prediction for the step, before its experiment runs in this step.
local function take_prediction(state, value)
  local n = lab_answers.read_number(value)
  if not n then return print(say("number_expected")) end
  if core.last_result() ~= state.shown_result then return print(say("predict_before")) end
  state.prediction = { value = n, result = core.last_result() }
  print(say("predicted", format_value(n, step_of(state).ask.unit)))
  return true
end

-- After a run in a step with a prediction waiting: the prediction beside the
-- student's own result, the gap, and why; saved, never counted as right or wrong.
function reflect(state)
  local prediction = state and state.prediction
  if not prediction or core.last_result() == prediction.result then return end
  state.prediction = nil
  local step = step_of(state)
  local ask = step.ask
  local ok, measured, model = pcall(lab_sandbox.judging, where(state), ask.measure, context(state))
  if not ok then return print(say("error", core.error_text(tostring(measured)))) end
  if measured == nil then return end   -- nothing to measure in this run
  if not lab_sandbox.is_finite(measured) or model ~= nil and not lab_sandbox.is_finite(model) then
    local gave = lab_sandbox.what_it_gave(measured) .. (model ~= nil and ", " .. lab_sandbox.what_it_gave(model) or "")
    return print(say("error", say("measure_not_number", where(state), gave)))
  end
  local modelled = core.last_result().backend ~= "gpu"
  local beside = modelled and say("modelled_as") or
                 type(model) == "number" and say("model_beside", format_value(model, ask.unit)) or ""
  print(wrap(say("reflection", format_value(prediction.value, ask.unit), format_value(measured, ask.unit), beside,
                 gap_text(prediction.value, measured))))
  if step.explain then print(wrap(text_of(step.explain))) end
  local base = measured ~= 0 and math.abs(measured) or 1
  local gap = math.abs(prediction.value - measured) / base
  progress.update(state.definition.id, "predict", tostring(state.index), gap,
                       evidence_of({ predicted = prediction.value, measured = measured, model = model }))
  recorder.keep_answer({ lab = state.definition.id, step = state.index, prediction = prediction.value,
                     measured = measured, gap = gap })
end

-- Whether a hint is attached to a cause (none: it is for any miss).
local function answers_cause(hint, cause)
  local causes = type(hint.cause) == "table" and hint.cause or { hint.cause }
  for _, c in ipairs(causes) do if c == cause then return true end end
  return false
end

-- The step's next hint not shown yet: the first attached to the cause of the
-- last miss, else the first attached to none; with no cause known, any.
-- Printed, and true.
local function show_next_hint(state)
  local hints = step_of(state).hint or {}
  local function first(wanted)
    for i, hint in ipairs(hints) do
      if not state.shown[i] and wanted(hint) then return i end
    end
  end
  local i = state.cause and first(function(h) return answers_cause(h, state.cause) end)
            or first(function(h) return h.cause == nil end) or not state.cause and first(function() return true end)
  if not i then return false end
  state.shown[i] = true
  print(wrap(text_of(hints[i])))
  return true
end

-- Why a goal was missed: every part it declares, as the launch shows it, or
-- the text the lab's check gave.
local function goal_missed(ask, cause)
  if ask.needs and core.last_result() then
    for _, line in ipairs(goals.checklist(ask.needs, core.last_result())) do print(wrap(line)) end
  elseif lab_definition.is_text(cause) and type(cause) == "table" then
    print(wrap(text_of(cause)))
  end
end

-- After a wrong answer: why, for a goal; the hint for its cause (else the
-- next one); after three answers to a question, the answer. A goal has no
-- answer to give away: its explanation says why the solution works, and
-- waits for it.
local function after_wrong(state, step, p, key, want, cause, value)
  print(say("wrong", p.attempts[key]))
  local slip = lab_answers.slip_of(step.ask, tostring(value), want)
  if slip then print(wrap(say("slip_" .. slip))) end
  local chosen = step.ask.choices and step.ask.choices[lab_answers.read_choice(tostring(value), step.ask.choices) or 0]
  if type(chosen) == "table" and chosen.why then print(wrap(text_of(chosen.why))) end   -- the misconception behind it
  if step.ask.goal then goal_missed(step.ask, cause) end
  state.cause = type(cause) == "string" and cause or nil
  show_next_hint(state)
  if p.attempts[key] >= 3 then
    if want ~= nil then
      print(say("reveal", step.ask.choices and text_of(step.ask.choices[want] or want) or format_value(want, step.ask.unit)))
    end
    if step.explain and not step.ask.goal then print(wrap(text_of(step.explain))) end
    progress.update(state.definition.id, "reveal", key)
  end
end

-- What the student types at the prompt runs an experiment too: a waiting
-- prediction is reflected on once the chunk is done (and has shown its values).
function labs.chunk_done()
  reflect(current)
end

-- Whether an ask is judged only by --grade, with the instructor's copy: an
-- assessed question of a released lab, which has no answer to judge by.
local function recorded_only(state, ask)
  return ask.assessed == true and state.definition.spec.released_from ~= nil
end

-- Records an assessed answer of a released lab without a verdict; "recorded".
local function record_answer(state, step, value)
  local ask = step.ask
  if ask.goal then
    if not core.last_result() then return print(say("no_result")) end
    value = ""
  elseif ask.choices and not lab_answers.read_choice(value, ask.choices) then
    return print(say("choice_expected"))
  elseif not ask.choices and not lab_answers.read_number(value) then
    return print(say("number_expected"))
  end
  local key = tostring(state.index)
  local p = progress.update(state.definition.id, "attempt", key, tostring(value), "recorded", evidence_of({}))
  recorder.keep_answer({ lab = state.definition.id, step = state.index, answer = tostring(value), verdict = "recorded",
                     attempt = p.attempts[key] })
  print(wrap(say("recorded")))
  print(say(state.index < #state.definition.steps and "go_on" or "go_finish"))
  return "recorded"
end

-- Records an attempt and says the outcome; moves on when the step is done.
-- true or false, "recorded" for an answer judged only at grading, nil when
-- the answer was not taken.
function labs.answer(value)
  local state = current
  if not state then return print(say("no_lab")) end
  local step = step_of(state)
  if not step.ask then return labs.next() end
  if step.ask.predict then return take_prediction(state, value) end
  if recorded_only(state, step.ask) then return record_answer(state, step, value) end
  local passed, message, want, cause = judge(state, value)
  if passed == nil then return print(message) end
  local key = tostring(state.index)
  local p = progress.update(state.definition.id, "attempt", key, tostring(value), passed, evidence_of({ expected = want }))
  recorder.keep_answer({ lab = state.definition.id, step = state.index, answer = tostring(value),
                     verdict = passed and "right" or "wrong", attempt = p.attempts[key] })
  if message then print(wrap(message)) end
  if passed then
    print(say("correct"))
    if step.explain then print(wrap(text_of(step.explain))) end
    print(say(state.index < #state.definition.steps and "go_on" or "go_finish"))
  else
    after_wrong(state, step, p, key, want, cause, value)
  end
  return passed
end

-- Opens a lab where the student left it.
local function open(definition)
  core.sandbox_new_lab()
  local p = progress.get(definition.id)
  current = { definition = definition, index = math.min(p.step or 1, #definition.steps), shown = {} }
  show_step(current)
end

-- Reads the open lab again (its author has edited it), keeping the
-- student's place: the step's number, within the steps it has now.
function labs.reload()
  if not current then return print(say("no_lab")) end
  local old = current.definition
  local definition = old.path and lab_catalogue.load_file(old.path) or lab_catalogue.find_lab(old.name)
  current.definition, current.shown, current.cause = definition, {}, nil
  current.index = math.min(current.index, #definition.steps)
  print(say("reloaded", definition.name, current.index, #definition.steps))
  show_step(current)
end

function labs.open(name)
  if name == "reload" then return labs.reload() end
  open(lab_catalogue.find_lab(name))
end

-- The name of the kernel the open step has the student write, or nil.
function labs.step_kernel()
  local kernel = current and step_of(current).kernel
  return kernel and kernel.name
end

-- Whether the open step asks a question the student has not answered (nor skipped once already).
local function skipping_unanswered(state)
  local ask = step_of(state).ask
  if not ask or ask.predict or state.warned == state.index then return false end
  if progress.get(state.definition.id).done[tostring(state.index)] then return false end
  state.warned = state.index
  return true
end

-- After a lab's summary: the built-in lab that comes after it, if any.
local function suggest_next_lab(definition)
  local names = core.lab_names()
  for i, name in ipairs(names) do
    if name == definition.id and names[i + 1] then
      local ok, following = pcall(lab_catalogue.find_lab, names[i + 1])
      if ok then print(say("next_lab", names[i + 1], text_of(following.spec.title))) end
    end
  end
end

function labs.next()
  if not current then return print(say("no_lab")) end
  if skipping_unanswered(current) then return print(say("unanswered")) end
  if current.index >= #current.definition.steps then
    local p, right, questions = progress.update(current.definition.id, "finished"), 0, 0
    local predictions, close, recorded = 0, 0, 0
    for i, step in ipairs(current.definition.steps) do
      local gap = (p.predictions or {})[tostring(i)]
      if step.ask and step.ask.predict then
        predictions = predictions + 1
        if gap and gap <= 0.1 then close = close + 1 end
      elseif step.ask and recorded_only(current, step.ask) then
        if p.done[tostring(i)] then recorded = recorded + 1 end
      elseif step.ask then
        questions = questions + 1
        if p.first_try[tostring(i)] then right = right + 1 end
      end
    end
    print(say("finished", right, questions))
    if recorded > 0 then print(say("recorded_count", recorded)) end
    if predictions > 0 then print(say("predictions", close, predictions)) end
    return suggest_next_lab(current.definition)
  end
  current.index, current.shown, current.cause = current.index + 1, {}, nil
  show_step(current)
end

function labs.back()
  if not current then return print(say("no_lab")) end
  current.index, current.shown, current.cause = math.max(1, current.index - 1), {}, nil
  show_step(current)
end

function labs.hint()
  if not current then return print(say("no_lab")) end
  if not show_next_hint(current) then print(say("no_hint")) end
end

function labs.where()
  if not current then return print(say("no_lab")) end
  print(say("where", current.definition.name, current.index, #current.definition.steps))
  print(step_text(current))
end

function labs.run()
  if not current then return print(say("no_lab")) end
  local code = step_of(current).run
  if not code then return print(say("no_experiment")) end
  run_experiment(current, code)
end

-- The names of a lab's kernels, from its own tables read raw (no code of the lab's runs).
local function kernel_names(definition)
  local names, seen = {}, {}
  for _, step in ipairs(definition.steps) do
    local kernel = type(step) == "table" and rawget(step, "kernel")
    local kernel_name = type(kernel) == "table" and rawget(kernel, "name")
    if type(kernel_name) == "string" and not seen[kernel_name] then names[#names + 1], seen[kernel_name] = kernel_name, true end
  end
  return names
end

-- A reset that would delete a source the student wrote waits for the same
-- :reset again within this many seconds: {id=, at=} of the one asked for.
local RESET_CONFIRM_SECONDS = 60
local reset_asked

-- Whether the reset of definition may go on; else it says what it would
-- delete and how to confirm, and remembers that it asked.
local function reset_confirmed(definition, names, typed)
  local edited = user_kernels.edited_lab_kernels(definition.id, names)
  if #edited == 0 then return true end
  if reset_asked and reset_asked.id == definition.id and os.time() - reset_asked.at <= RESET_CONFIRM_SECONDS then
    reset_asked = nil
    return true
  end
  local listed = {}
  for i, k in ipairs(edited) do listed[i] = say("reset_edited_kernel", k.name, clean(k.where)) end
  local command = typed ~= "" and ":reset " .. clean(typed) or ":reset"
  print(wrap(say("reset_confirm", definition.name, table.concat(listed, say("list_and")), command, RESET_CONFIRM_SECONDS)))
  reset_asked = { id = definition.id, at = os.time() }
  return false
end

-- Forgets a lab's progress and the student's sources of its kernels (the
-- open lab's when name is empty), and says what it forgot; a source the
-- student wrote only when the same :reset comes again within a minute.
function labs.reset(name)
  local definition = current and current.definition
  if name and name ~= "" and not (definition and definition.name == name) then definition = lab_catalogue.find_lab(name) end
  if not definition then return print(say("no_lab")) end
  local names = kernel_names(definition)
  if not reset_confirmed(definition, names, name and name ~= "" and name or "") then return end
  local before = progress.get(definition.id)
  progress.update(definition.id, "reset")
  local forgotten, failed = user_kernels.reset_lab_kernels(definition.id, names)
  print(wrap(progress.reset_report(definition.name, before, #names > 0, forgotten, failed)))
  if current and current.definition.id == definition.id then
    current.index, current.shown, current.cause = 1, {}, nil
    show_step(current)
  end
end

-- The status column of :labs: questions are the steps that ask one (a prediction is no question).
local function progress_text(p, definition)
  if not p then return say("steps", #definition.steps) end
  if p.finished then return say("finished_status") end
  local done, questions = 0, 0
  for i, step in ipairs(definition.steps) do
    if step.ask and not step.ask.predict then
      questions = questions + 1
      if p.done[tostring(i)] then done = done + 1 end
    end
  end
  return say("answered", done, questions)
end

-- ... and before it is started, about how many minutes it takes, where the lab says.
local function status_text(p, definition)
  if not definition then return "" end
  local minutes = definition.spec.minutes
  if p or not minutes then return progress_text(p, definition) end
  return say("steps_minutes", #definition.steps, minutes)
end

function labs.list()
  local lines, all = {}, progress.all()
  local entries, _, hidden = lab_catalogue.catalogue()
  for _, entry in ipairs(entries) do
    local ok, definition = pcall(entry.path and lab_catalogue.load_file or lab_catalogue.find_lab, entry.path or entry.name)
    local title = ok and text_of(definition.spec.title) or say("does_not_load")
    local pad = (" "):rep(math.max(1, 47 - lab_text.display_width(title)))   -- by columns: Chinese titles line up
    local status = status_text(ok and all[definition.id], ok and definition)
    lines[#lines + 1] = fmt("  %-12s %s%s%s", visible(entry.name), title, pad, status)
    if entry.path then lines[#lines + 1] = "               " .. say("from_file", visible(entry.path)) end
  end
  for _, h in ipairs(hidden) do
    lines[#lines + 1] = say("hidden_lab", visible(h.path), visible(h.by.name), h.by.path and visible(h.by.path) or say("built_in"))
  end
  print(table.concat(lines, "\n"))
end

function labs.submit(path)
  if not current then return print(say("no_lab")) end
  return lab_submission.submit(current, path)
end

-- answer(value): the same as :answer VALUE (and, like it, returns nothing to print).
function labs.answer_global(value)
  labs.answer(value)
end

-- What the modules that drive the runner use of it: the batch, the claims
-- and the checker (lab_batch.lua, lab_claims.lua, lab_check.lua); the
-- grader judges a submission's answers as the runner does (grade.lua).
labs.runner = {
  step_of = step_of, where = where, where_of = where_of, context = context, context_for = context_for,
  expected = expected, expected_in = expected_in, show_step = show_step, run_experiment = run_experiment,
  declare_step_kernel = declare_step_kernel,
}

-- Opens definition at its first step, fresh, as the open lab (a batch run
-- drives it step by step); its state.
function labs.runner.start(definition)
  current = { definition = definition, index = 1, shown = {} }
  return current
end

return labs
