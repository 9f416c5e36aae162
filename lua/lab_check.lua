-- lab_check.lua (warplab.lab_check): the lab checker, warplab --check-lab
-- FILE [--students N], for a lab's author before students see it: what the
-- lab's text and fields lack (a language, a hint, a field warplab does not
-- read), each claim under each profile of the model (or on this GPU), and
-- a batch run with the lab's own answers for each of N students with their
-- own random numbers. One line per finding, with where it was found.
local core = require "warplab.core"
local text = require "warplab.text"
local progress = require "warplab.progress"
local goals = require "warplab.goals"
local lab_text = require "warplab.lab_text"
local lab_sandbox = require "warplab.lab_sandbox"
local lab_answers = require "warplab.lab_answers"
local lab_definition = require "warplab.lab_definition"
local lab_catalogue = require "warplab.lab_catalogue"
local labs = require "warplab.labs"
local lab_claims = require "warplab.lab_claims"
local lab_batch = require "warplab.lab_batch"

local fmt = text.fmt
local clean, visible, format_value = lab_text.clean, lab_text.visible, lab_text.format_value
local runner = labs.runner
local C = core.globals   -- device() and config(), the API's in C

local messages = {
  at_step_field = { en = "lab %s, step %d, %s", zh = "实验 %s，第 %d 步，字段 '%s'" },
  in_lab_field = { en = "lab %s, %s", zh = "实验 %s，字段 '%s'" },
  finding = { en = "%s: %s", zh = "%s：%s" },
  one_language = { en = "text in one language only: give {en = ..., zh = ...}", zh = "文本只有一种语言：请写成 {en = ..., zh = ...}" },
  missing_language = { en = "no text in '%s'", zh = "缺少 '%s' 的文本" },
  question_no_hint = { en = "a question with no hint", zh = "问题没有提示" },
  goal_no_hint = { en = "a goal with no hint", zh = "目标没有提示" },
  hint_cause_unknown = { en = "its cause '%s' is none the goal's needs can give (they give: %s): the hint is never chosen by a miss",
                         zh = "它的 cause '%s' 不是这个目标的 needs 能给出的原因（能给出的有：%s）：这条提示不会因为没达到目标而被选中" },
  answer_not_a_choice = { en = "the answer %s is not among the %d choices", zh = "答案 %s 不在 %d 个选项之中" },
  goal_no_solution = { en = "a goal with no solution (code that meets it): the checker cannot show it can be met",
                       zh = "目标没有 solution（能达到它的代码）：检查器无法证明它能达到" },
  solution_fails = { en = "the lab's own solution fails: %s", zh = "实验自己的 solution 运行失败：%s" },
  kernel_no_solution = { en = "a kernel to write with no solution (a source that meets the goal)",
                         zh = "要写的核函数没有 solution（能达到目标的源代码）" },
  experiment_fails = { en = "the experiment fails", zh = "实验代码运行失败" },
  claim_fails = { en = "the claim '%s' does not hold", zh = "论断“%s”不成立" },
  zh_is_en = { en = "the 'zh' text is the 'en' text: not translated", zh = "'zh' 文本与 'en' 文本相同：没有翻译" },
  unknown_field = { en = "a field warplab does not read: it is ignored", zh = "warplab 不读取这个字段：它被忽略" },
  unknown_field_near = { en = "a field warplab does not read (did you mean '%s'?): it is ignored",
                         zh = "warplab 不读取这个字段（是不是 '%s'？）：它被忽略" },
  skeleton_not_declared = { en = "the kernel cannot be declared from its skeleton: %s", zh = "无法用骨架代码声明核函数：%s" },
  solution_not_declared = { en = "the kernel cannot be declared from its solution: %s", zh = "无法用 solution 声明核函数：%s" },
  skeleton_meets_goal = { en = "the skeleton already meets the goal (launched as the goal's solution launches it): the student has nothing to do",
                          zh = "骨架代码已经达到目标（按目标的 solution 的方式启动）：学生无事可做" },
  goal_not_met = { en = "the goal's check is false on the launch of the lab's own solution",
                   zh = "在实验自己的 solution 的启动结果上，目标的 check 为假" },
  answer_in_text = { en = "the answer (%s) can be read off the step before it is run: %s says '%s'",
                     zh = "不用运行就能从这一步读出答案（%s）：%s 写着“%s”" },
  answer_no_result = { en = "the answer function has no result to read: the step has no experiment (run) before it",
                       zh = "答案函数没有结果可读：这一步在它之前没有实验代码（run）" },
  for_students = { en = "%d of %d students: %s", zh = "%d/%d 位学生：%s" },
  scope_after = { en = " (%s)", zh = "（%s）" },
  detail_after = { en = ": %s", zh = "：%s" },
  group_separator = { en = "; ", zh = "；" },
  more_groups = { en = "and %d more", zh = "另有 %d 组" },
  bad_students = { en = "--students expects a whole number from 1 to %d, got %s", zh = "--students 需要 1 到 %d 的整数，实际为 %s" },
  claim_skipped = { en = "step %d, the claim '%s' is skipped on %s: %s", zh = "第 %d 步，论断“%s”在 %s 上跳过：%s" },
  every_profile = { en = "every profile", zh = "所有设备配置" },
  tripped_under = { en = "the lab ran past its budget under %s: not checked under the other profiles",
                    zh = "实验在 %s 下超出了预算：不再用其他配置检查" },
  profiles_with_sim = { en = "claims were checked on this GPU; --sim checks them on the model of every profile",
                        zh = "论断是在这块 GPU 上检查的；加 --sim 可在每个设备配置的模型上检查" },
  batch_wrong = { en = "a batch run with the lab's own answers does not get this step right",
                  zh = "用实验自己的答案批量运行时，这一步没有通过" },
  check_stopped = { en = "lab %s: the check stopped: %s", zh = "实验 %s：检查中止：%s" },
  note = { en = "note: %s", zh = "注意：%s" },
  check_clean = { en = "lab %s: no findings", zh = "实验 %s：没有发现问题" },
  check_found = { en = "lab %s: %d findings", zh = "实验 %s：发现 %d 个问题" },

}
local say = text.messages("lab_check", messages)

-- Every text a student reads in a lab, with the step (0: the lab itself) and
-- the field it is in. Claims are for the lab's author and checker, not shown.
local function student_texts(definition)
  local texts = { { 0, "title", definition.spec.title } }
  local function add(step, field, value) if value ~= nil then texts[#texts + 1] = { step, field, value } end end
  for i, step in ipairs(definition.steps) do
    add(i, "text", step.text)
    add(i, "explain", step.explain)
    for k, hint in ipairs(step.hint or {}) do add(i, "hint[" .. k .. "]", hint) end
    local ask = step.ask or {}
    for _, field in ipairs({ "question", "predict", "goal" }) do add(i, "ask." .. field, ask[field]) end
    for k, choice in ipairs(ask.choices or {}) do
      add(i, "ask.choices[" .. k .. "]", choice)
      if type(choice) == "table" then add(i, "ask.choices[" .. k .. "].why", choice.why) end
    end
  end
  return texts
end

local LANGUAGES = { "en", "zh" }

-- Whether a text's zh is its en copied: the same prose (two words in a row) in
-- both. Code (r.load.requests, device().l2_bytes / 65536) reads the same in both.
local function untranslated(value)
  return value.zh == value.en and type(value.en) == "string" and value.en:find("%f[%w]%a%a+%s+%a%a+") ~= nil
end

-- The languages a text lacks, as findings.
local function text_findings(step, field, value, add)
  if type(value) == "string" then return add(step, field, say("one_language")) end
  for _, lang in ipairs(LANGUAGES) do
    if type(value[lang]) ~= "string" or not value[lang]:match("%S") then add(step, field, say("missing_language", lang)) end
  end
  if untranslated(value) then add(step, field, say("zh_is_en")) end
end

-- The known field nearest to name, when it is near enough to be a misspelling of it.
local function nearest_field(name, fields)
  local best, best_distance = nil, math.max(2, #name // 3) + 1
  for _, field in ipairs(fields) do
    local distance = core.edit_distance(name, field[1])
    if distance < best_distance then best, best_distance = field[1], distance end
  end
  return best
end

-- A finding for each field of spec that warplab does not read, with the nearest name it does.
local function unknown_field_findings(spec, fields, step, prefix, add)
  if type(spec) ~= "table" then return end
  local known, names = {}, {}
  for _, field in ipairs(fields) do known[field[1]] = true end
  for name in next, spec do if not known[name] then names[#names + 1] = tostring(name) end end
  table.sort(names)
  for _, name in ipairs(names) do
    local near = nearest_field(name, fields)
    add(step, prefix .. visible(name), near and say("unknown_field_near", prefix .. near) or say("unknown_field"))
  end
end

-- The fields of a lab that warplab does not read: of the lab, its steps, asks, claims and kernels.
local function all_unknown_fields(definition, add)
  local fields = lab_definition.fields
  unknown_field_findings(definition.spec, fields.lab, 0, "", add)
  for i, step in ipairs(definition.steps) do
    unknown_field_findings(step, fields.step, i, "", add)
    unknown_field_findings(step.ask, fields.ask, i, "ask.", add)
    unknown_field_findings(step.kernel, fields.kernel(), i, "kernel.", add)
    for k, claim in ipairs(step.claims or {}) do unknown_field_findings(claim, fields.claim, i, fmt("claims[%d].", k), add) end
  end
end

-- What a lab's text, fields and questions lack, without running anything.
local function static_findings(definition, add)
  for _, t in ipairs(student_texts(definition)) do text_findings(t[1], t[2], t[3], add) end
  all_unknown_fields(definition, add)
  for i, step in ipairs(definition.steps) do
    local ask = step.ask
    if ask and (ask.question or ask.goal) and #(step.hint or {}) == 0 then
      add(i, "hint", say(ask.goal and "goal_no_hint" or "question_no_hint"))
    end
    if ask and ask.choices and type(ask.answer) == "number" and not ask.choices[ask.answer] then
      add(i, "ask.answer", say("answer_not_a_choice", text.quote(ask.answer), #ask.choices))
    end
    if ask and ask.goal and not ask.solution then add(i, "ask.solution", say("goal_no_solution")) end
    if ask and ask.needs and lab_definition.own_check[ask] == false then
      local causes = goals.causes_of(ask.needs)
      for k, hint in ipairs(step.hint or {}) do
        for _, cause in ipairs(type(hint.cause) == "table" and hint.cause or { hint.cause }) do
          if not causes[cause] then add(i, "hint[" .. k .. "]", say("hint_cause_unknown", cause, causes.listed)) end
        end
      end
    end
    if ask and ask.goal and step.kernel and not step.kernel.solution then add(i, "kernel.solution", say("kernel_no_solution")) end
  end
end

-- The compiler's first error line in why a kernel was not declared (else its first line).
local function first_error_line(why)
  why = clean(tostring(why))
  for line in (why .. "\n"):gmatch("(.-)\n") do
    if line:find("error") and line:find("%.cu[:(]") then return lab_answers.trim(line) end
  end
  return lab_answers.trim(why:match("^[^\n]*"))
end

-- message without the "lab NAME, step N: " of where it came from.
local function without_step(message, lab_name, step)
  local prefix = lab_sandbox.error_at(runner.where_of(lab_name, step), "")
  message = clean(tostring(message))
  return message:sub(1, #prefix) == prefix and message:sub(#prefix + 1) or message
end

-- Each claim run under each profile of the model (or on this GPU): failures
-- are findings, under the profile (scope.profile) they fail on; skipped
-- claims come back as notes, grouped by their reason.
local function claim_findings(name, lab_name, add, scope, notes)
  local measured = C.device().backend == "gpu"
  local profiles = measured and { false } or core.profiles()
  local before = C.config().profile
  local skipped, order = {}, {}
  for _, profile in ipairs(profiles) do
    if profile then C.config { profile = profile } end
    local label = profile or C.device().name
    scope.profile = label
    local outcomes = lab_claims.check_claims(name)
    local tripped = core.sandbox_lab_tripped()
    for _, failed in ipairs(outcomes.kernel_failures or {}) do
      add(failed.step, "kernel.skeleton", say("skeleton_not_declared", first_error_line(failed.error)))
    end
    for _, failed in ipairs(outcomes.failed_steps or {}) do
      add(failed.step, "run", say("experiment_fails"), without_step(failed.error, lab_name, failed.step))
    end
    for _, c in ipairs(outcomes) do
      if c.skipped then
        local key = c.step .. "\0" .. c.text .. "\0" .. (c.reason or "")
        if not skipped[key] then skipped[key] = { c = c, where = {} }; order[#order + 1] = key end
        table.insert(skipped[key].where, label)
      elseif not c.holds then
        add(c.step, "claims", say("claim_fails", c.text), c.error and clean(c.error) or c.read)
      end
    end
    if tripped then notes[#notes + 1] = say("tripped_under", label); break end   -- minutes a profile, for nothing new
  end
  scope.profile, scope.profiles = nil, #profiles
  C.config { profile = before }
  for _, key in ipairs(order) do
    local entry = skipped[key]
    local where = #entry.where == #profiles and #profiles > 1 and say("every_profile") or table.concat(entry.where, ", ")
    notes[#notes + 1] = say("claim_skipped", entry.c.step, entry.c.text, where, entry.c.reason or "")
  end
  if measured then notes[#notes + 1] = say("profiles_with_sim") end
end

-- message without the "lab NAME, step N: " that add() puts before it too.
local function without_where(message, state)
  return without_step(message, state.definition.name, state.index)
end

-- Whether the open step's goal holds on the last launch (its check run as lab code).
local function goal_met(state)
  local ok, met = pcall(lab_sandbox.judging, runner.where(state), runner.step_of(state).ask.check, runner.context(state))
  return ok and met == true
end

-- A skeleton that already meets its goal (launched as the goal's solution
-- launches it) gives the student nothing to do: a finding.
local function skeleton_findings(state, step, add)
  if not (step.kernel and step.ask.solution) or runner.declare_step_kernel(state, "skeleton") then return end
  if runner.run_experiment(state, step.ask.solution) and goal_met(state) then
    add(state.index, "kernel.skeleton", say("skeleton_meets_goal"))
  end
end

-- A goal's own answer: its solution (its kernel's solution declared first),
-- with the function that runs it as lab code, in the lab's sandbox; what
-- goes wrong is a finding that says why (causes[step] then set).
local function own_goal_answer(state, step, add, causes, first_student)
  local i, ask = state.index, step.ask
  if first_student then skeleton_findings(state, step, add) end
  if step.kernel and step.kernel.solution then
    local failed = runner.declare_step_kernel(state, "solution")
    if failed then add(i, "kernel.solution", say("solution_not_declared", first_error_line(failed))); causes[i] = true end
  end
  return ask.solution or "", function(code)
    local ran, why = runner.run_experiment(state, code)
    if not ran then
      add(i, "ask.solution", say("solution_fails", without_where(why, state))); causes[i] = true
    elseif not goal_met(state) and not causes[i] then
      add(i, "ask", say("goal_not_met"), lab_claims.reads_of(runner.where(state), ask.check, runner.context(state))); causes[i] = true
    end
  end
end

-- The numbers a step shows before its question is answered: in its text,
-- its question and its hints, in either language. {field=, number=}. Not a
-- name's digits (L2, sm_80, float4) or an index (rs[2]), nor a number its experiment sets
-- (offset 1 in the text of launch("offset", {offset = 1})).
local NUMBER = "%f[%w_]%d[%d,]*%.?%d*%f[^%w_]"
local function numbers_shown(step)
  local shown, set = {}, {}
  for token in (type(step.run) == "string" and step.run or ""):gmatch(NUMBER) do set[token] = true end
  local function add(field, value)
    for _, lang in ipairs(LANGUAGES) do
      local prose = type(value) == "table" and value[lang] or value
      prose = type(prose) == "string" and prose:gsub("%[%d+%]", "") or ""   -- rs[2]: an index, not a number shown
      for token in prose:gmatch(NUMBER) do
        token = token:gsub("[,.]$", "")
        if not set[token] then shown[#shown + 1] = { field = field, number = token } end
      end
    end
  end
  add("text", step.text)
  add("ask.question", step.ask.question)
  for k, hint in ipairs(step.hint or {}) do add("hint[" .. k .. "]", hint) end
  return shown
end

-- A question whose answer stands in its own step's text or hints, judged as
-- the runner judges an answer: it asks nothing that needs the run.
local function answer_shown(step, value, add, i)
  if step.ask.choices then return end
  for _, shown in ipairs(numbers_shown(step)) do
    if lab_answers.answer_right(step.ask, shown.number, value) then
      return add(i, shown.field, say("answer_in_text", format_value(value), shown.field, shown.number))
    end
  end
end

-- The lab's own answers, as a student who knows them would give them: a
-- question's expected value from the run just made, a goal's solution, any
-- number for a prediction. An answer function that fails, or has no result
-- to read, is a finding (causes[step] set).
local function own_answer(state, step, add, causes, first_student)
  local ask, i = step.ask, state.index
  if ask.predict then return "1" end
  if ask.goal then return own_goal_answer(state, step, add, causes, first_student) end
  local ok, value = pcall(runner.expected, ask, state)
  if not ok then add(i, "ask.answer", without_where(value, state)); causes[i] = true end
  if ok and value == nil then add(i, "ask.answer", say("answer_no_result")); causes[i] = true end
  if not ok or value == nil then return "" end
  if ask.choices and not ask.choices[value] then
    add(i, "ask.answer", say("answer_not_a_choice", text.quote(value), #ask.choices)); causes[i] = true
  end
  answer_shown(step, value, add, i)
  return fmt(math.type(value) == "integer" and "%d" or "%.17g", value)
end

-- "n = 8388608, stride = 3": a student's draws, by key.
local function draws_text(draws)
  local keys, parts = {}, {}
  for key in next, draws do keys[#keys + 1] = key end
  table.sort(keys)
  for _, key in ipairs(keys) do parts[#parts + 1] = fmt("%s = %s", clean(key), format_value(draws[key])) end
  return table.concat(parts, ", ")
end

-- A batch run with the lab's own answers for each of count students, each
-- with their own random numbers (the lab loaded again for each: its body
-- may draw too); a step not right is a finding under those students. A
-- lab that draws no number is run once: every student's run is the same.
local function student_findings(name, add, scope, count)
  scope.students, scope.draws = 1, {}
  for k = 1, count do
    local id = fmt("student-%02d", k)
    local drawn = lab_sandbox.as_student(id)
    scope.student = id
    local ok, why = pcall(function()
      local causes = {}
      local definition = lab_catalogue.find_lab(name)
      local wrong, run_errors = lab_batch.run_batch(definition, function(step, state) return own_answer(state, step, add, causes, k == 1) end)
      for _, i in ipairs(wrong) do
        if run_errors[i] then add(i, "run", say("experiment_fails"), without_step(run_errors[i], definition.name, i))
        elseif not causes[i] then add(i, "ask", say("batch_wrong")) end
      end
    end)
    scope.draws[id] = draws_text(drawn)
    local draws_nothing = next(drawn) == nil
    lab_sandbox.as_student(nil)
    if not ok then error(why, 0) end
    if k == 1 and draws_nothing then break end
    scope.students = k
  end
  scope.student = nil
end

-- The checker's findings, each once, with the profiles and the students it
-- was found under, and for each of them what it saw (a detail): one entry
-- per step, field and message.
local function new_findings()
  local entries, by_key = {}, {}
  local function add(scope, step, field, message, detail)
    local key = step .. "\0" .. field .. "\0" .. message
    local entry = by_key[key]
    if not entry then
      entry = { step = step, field = field, message = message, profiles = {}, students = {} }
      by_key[key], entries[#entries + 1] = entry, entry
    end
    local kind = scope.student and "students" or scope.profile and "profiles"
    if kind then
      local label = scope.student or scope.profile
      for _, seen in ipairs(entry[kind]) do if seen.label == label then return end end
      table.insert(entry[kind], { label = label, detail = detail })
    elseif detail and not entry.detail then
      entry.detail = detail
    end
  end
  return entries, add
end

local MAX_GROUPS_SHOWN = 4

-- "a100, t4: it read ...; h200: ...": labels grouped by what they saw, at most MAX_GROUPS_SHOWN groups.
local function grouped_labels(labels, label_text)
  local groups, order = {}, {}
  for _, l in ipairs(labels) do
    local key = l.detail or ""
    if not groups[key] then groups[key] = {}; order[#order + 1] = key end
    table.insert(groups[key], label_text(l.label))
  end
  local parts = {}
  for k, key in ipairs(order) do
    if k > MAX_GROUPS_SHOWN then parts[#parts + 1] = say("more_groups", #order - MAX_GROUPS_SHOWN); break end
    parts[k] = table.concat(groups[key], ", ") .. (key ~= "" and say("detail_after", key) or "")
  end
  return parts, #order
end

-- Where a finding was found, after its message: " (a100, t4: detail)", " (3 of 20 students: ...)", or ": detail".
local function scope_text(entry, scope)
  local parts = {}
  if #entry.profiles > 0 then
    local groups, count = grouped_labels(entry.profiles, function(label) return label end)
    if count == 1 and #entry.profiles == scope.profiles and scope.profiles > 1 then
      groups = { say("every_profile") .. (entry.profiles[1].detail and say("detail_after", entry.profiles[1].detail) or "") }
    end
    parts[#parts + 1] = table.concat(groups, say("group_separator"))
  end
  if #entry.students > 0 and scope.students > 1 then
    local groups = grouped_labels(entry.students, function(label)
      local draws = scope.draws[label] or ""
      return draws ~= "" and fmt("%s [%s]", label, draws) or label
    end)
    parts[#parts + 1] = say("for_students", #entry.students, scope.students, table.concat(groups, say("group_separator")))
  end
  if #parts > 0 then return say("scope_after", table.concat(parts, say("group_separator"))) end
  local detail = entry.detail or entry.students[1] and entry.students[1].detail
  return detail and say("detail_after", detail) or ""
end

-- The lines of the findings, each once.
local function finding_lines(entries, scope, lab_name)
  local lines = {}
  for _, entry in ipairs(entries) do
    local where = entry.step == 0 and say("in_lab_field", lab_name, entry.field) or say("at_step_field", lab_name, entry.step, entry.field)
    lines[#lines + 1] = say("finding", where, entry.message .. scope_text(entry, scope))
  end
  return lines
end

local DEFAULT_STUDENTS, MAX_STUDENTS = 20, 1000

-- Checks a lab: prints one line per finding (step and field, and the
-- profiles and students it applies to) and the notes; true when there are
-- no findings. students: how many students' random numbers to try (default
-- 20). Nothing is saved.
local function check(name, students)
  students = math.tointeger(tonumber(students)) or DEFAULT_STUDENTS
  if students < 1 or students > MAX_STUDENTS then error(say("bad_students", MAX_STUDENTS, tostring(students)), 0) end
  progress.use_memory()
  local entries, add_entry = new_findings()
  local scope, notes, lines, lab_name = { profiles = 0, students = 1, draws = {} }, {}, {}, clean(tostring(name))
  local function add(step, field, message, detail) add_entry(scope, step, field, message, detail) end
  local ok, definition = pcall(lab_catalogue.find_lab, name)
  if not ok then
    lines[1] = clean(tostring(definition))
  else
    lab_name = definition.name
    static_findings(definition, add)
    core.capture(true)   -- the lab's own output is not the checker's
    local ran, why = pcall(function()
      claim_findings(name, lab_name, add, scope, notes)
      student_findings(name, add, scope, students)
    end)
    core.capture(false)
    lab_sandbox.as_student(nil)
    lines = finding_lines(entries, scope, lab_name)
    if not ran then lines[#lines + 1] = say("check_stopped", lab_name, clean(tostring(why))) end
  end
  for _, line in ipairs(lines) do print(line) end
  for _, line in ipairs(notes) do print(say("note", line)) end
  print(#lines == 0 and say("check_clean", lab_name) or say("check_found", lab_name, #lines))
  return #lines == 0
end

return { check = check }
