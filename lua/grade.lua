-- grade.lua — warplab --grade DIR: every submission under DIR graded again
-- against its lab, and the class's report (docs/instructors.md, "Grading a
-- class"): grades.csv and grades.json, a row per student and question, and
-- report.html, one page with its charts, readable without a network.
local core = debug.getregistry()["warplab.core"]
local u = core.util
local json = core.json
local g = core.labs.grading
local fmt = string.format

local messages = {
  not_submission = { en = "not a warplab submission of version 1", zh = "不是第 1 版的 warplab 提交文件" },
  unreadable = { en = "cannot read it: %s", zh = "无法读取：%s" },
  not_json = { en = "not JSON: %s", zh = "不是 JSON：%s" },
  no_lab = { en = "its lab cannot be loaded: %s", zh = "无法载入它的实验：%s" },
  unknown_lab = { en = "unknown lab '%s' (neither built in, nor on WARPLAB_LABS_PATH, nor given with --lab)",
                  zh = "未知的实验 '%s'（既不是内置实验，也不在 WARPLAB_LABS_PATH 中，也没有用 --lab 给出）" },
  lab_path = { en = "its lab is named by a path ('%s'), not by a name: the grader finds labs itself (built in, WARPLAB_LABS_PATH, --lab)",
               zh = "它用路径指明实验（'%s'），而不是实验名：实验由评判程序自己去找（内置实验、WARPLAB_LABS_PATH、--lab）" },
  bad_lab_option = { en = "--lab %s: %s", zh = "--lab %s：%s" },
  other_version = { en = "submitted for another version of the lab (%s; now %s)", zh = "提交时的实验版本不同（%s；现在是 %s）" },
  duplicate = { en = "a later submission of %s for %s replaces %s", zh = "%s 对 %s 的较晚提交取代了 %s" },
  no_submissions = { en = "no submissions under %s (files NAME.json written by :submit)", zh = "%s 下没有提交文件（:submit 写出的 NAME.json）" },
  graded = { en = "Graded %d submissions of %d students (%d problems): %s, %s, %s.",
             zh = "已评 %d 份提交、%d 名学生（%d 个问题）：%s、%s、%s。" },
  problem = { en = "warplab: %s: %s", zh = "warplab：%s：%s" },
  rerun_failed = { en = "the kernel did not run again: %s", zh = "内核没能再次运行：%s" },
  disagrees = { en = "the submitted verdict is %s, graded again it is %s", zh = "提交中的判定是 %s，重新评判为 %s" },
  stopped = { en = "grading stopped after %.0f s: it ran past its %s s of %s (--time-limit)",
              zh = "评判在 %.0f 秒后停止：超过了 %s 秒的%s上限（--time-limit）" },
  cpu_time = { en = "CPU time", zh = "CPU 时间" },
  wall_time = { en = "wall time", zh = "实际时间" },
  failed = { en = "could not be graded: %s", zh = "无法评判：%s" },
  -- the hand-in folder
  link = { en = "a symbolic link: not followed", zh = "符号链接：不跟随" },
  too_deep = { en = "more than %d folders deep: not walked", zh = "超过 %d 层文件夹：没有进入" },
  too_many = { en = "more than %d files and folders: the rest were not walked", zh = "文件和文件夹超过 %d 个：其余的没有查看" },
  left_out = { en = "%d entries left out (a folder is read up to 4096)", zh = "漏掉了 %d 项（一个文件夹最多读 4096 项）" },
  too_large = { en = "larger than %d bytes: not read", zh = "大于 %d 字节：没有读取" },
  -- the fields of a submission
  bad_field = { en = "field %s: expected %s, got %s", zh = "字段 %s：应为%s，实际为%s" },
  want_text = { en = "a string of at most %d bytes", zh = "至多 %d 字节的字符串" },
  want_number = { en = "a finite number", zh = "有限的数" },
  want_gap = { en = "a finite number, 0 or more", zh = "不小于 0 的有限数" },
  want_boolean = { en = "true or false", zh = "true 或 false" },
  want_one_of = { en = "one of %s", zh = "以下之一：%s" },
  want_list = { en = "a list of at most %d items", zh = "至多 %d 项的列表" },
  want_object = { en = "an object", zh = "对象" },
  want_answer = { en = "an answer: a string of at most %d bytes, or a number", zh = "答案：至多 %d 字节的字符串，或一个数" },
  want_data = { en = "JSON data at most %d levels deep, %d values and strings of %d bytes", zh = "至多 %d 层、%d 个值、字符串至多 %d 字节的 JSON 数据" },
  want_student = { en = "a student ID of letters, digits, '.', '_', '-' or '@' (at most 64, not starting with '.')",
                   zh = "由字母、数字、'.'、'_'、'-' 或 '@' 组成的学号（至多 64 个字符，不以 '.' 开头）" },
  want_lab_name = { en = "a lab's name (at most %d bytes)", zh = "实验名（至多 %d 字节）" },
  got_string = { en = "a string of %d bytes", zh = "%d 字节的字符串" },
  got_number = { en = "%s", zh = "%s" },
  got_list = { en = "a list", zh = "列表" }, got_object = { en = "an object", zh = "对象" },
  got_null = { en = "null", zh = "null" }, got_nothing = { en = "nothing", zh = "空" },
  got_boolean = { en = "%s", zh = "%s" }, got_other = { en = "%s", zh = "%s" },
  submitting = { en = "Grading on Slurm: %d tasks for %d students: %s", zh = "在 Slurm 上评判：%d 个任务、%d 名学生：%s" },
  sbatch_failed = { en = "sbatch did not finish the job (%s): %s", zh = "sbatch 没有完成作业（%s）：%s" },
  slice_missing = { en = "task %d wrote no slice (its output: %s)", zh = "任务 %d 没有写出它的那一份（它的输出：%s）" },
  slice_done = { en = "slice %d of %d: %d submissions graded", zh = "第 %d 份（共 %d 份）：评判了 %d 份提交" },
  merged = { en = "Merged the %d slices of job %s.", zh = "已合并 %d 份结果（作业 %s）。" },
  -- the report
  title = { en = "warplab class report", zh = "warplab 班级报告" },
  generated = { en = "%d submissions of %d students, graded %s with warplab %s on %s.",
                zh = "%d 份提交、%d 名学生，%s 由 warplab %s 在 %s 上评判。" },
  first_try_heading = { en = "First-try rate per question", zh = "每道题第一次就答对的比例" },
  wrong_heading = { en = "The most common wrong answers", zh = "最常见的错误答案" },
  gaps_heading = { en = "Prediction gaps", zh = "预测与运行的差距" },
  students_heading = { en = "Students", zh = "学生" },
  problems_heading = { en = "Files not graded", zh = "没有评判的文件" },
  col_question = { en = "question", zh = "题目" }, col_step = { en = "step", zh = "步" }, col_answer = { en = "answer", zh = "答案" },
  col_count = { en = "students", zh = "人数" }, col_student = { en = "student", zh = "学生" },
  col_lab = { en = "lab", zh = "实验" }, col_right = { en = "right", zh = "答对" },
  col_first = { en = "first try", zh = "第一次答对" }, col_missing = { en = "missing", zh = "未答" },
  col_gap = { en = "mean gap", zh = "平均差距" }, col_notes = { en = "notes", zh = "备注" },
  col_file = { en = "file", zh = "文件" },
  none = { en = "none", zh = "没有" },
  gap_axis = { en = "gap between prediction and run", zh = "预测与运行之间的差距" },
  students_axis = { en = "predictions", zh = "预测数" },
  rate_axis = { en = "first try", zh = "第一次答对" },
}
local say = u.messages("grade", messages)

-- What a hand-in folder and a submission may hold (docs/instructors.md,
-- "Grading a class"); past them a file is one problem line, never read whole.
local LIMITS = {
  depth = 8,                      -- folders below the one graded
  entries = 20000,                -- files and folders walked in all
  submission_bytes = 8 << 20,     -- a submission file
  text_bytes = 4096,              -- an answer, a date, a hash, a name
  source_bytes = 256 << 10,       -- a kernel's source
  steps = 1000, attempts = 1000, results = 64,
  data_depth = 12, data_values = 100000,   -- a submitted result, a device
}
local DEFAULT_TIME_LIMIT = 60     -- seconds of CPU time, and of wall time, per submission

-- Text from a submission, a file name or a lab as it may be printed or
-- written: control characters spelled out (\27, \n), bad bytes as \xNN, and
-- at most limit bytes (default LIMITS.text_bytes).
local visible = core.labs.visible
local function shown(text, limit)
  text = visible(tostring(text)):gsub("[\n\t]", { ["\n"] = "\\n", ["\t"] = "\\t" })
  limit = limit or LIMITS.text_bytes
  if #text > limit then
    local cut = limit
    while cut > 0 and text:byte(cut + 1) and text:byte(cut + 1) & 0xC0 == 0x80 do cut = cut - 1 end
    text = text:sub(1, cut) .. "..."
  end
  return text
end

---------------------------------------------------------------------------
-- Reading the submissions
---------------------------------------------------------------------------

-- Every NAME.json under folder and its subfolders, sorted, walked without
-- following symbolic links and within LIMITS; what was not walked or is too
-- large to read is a problem each: {file=, problem=}.
local function json_files(folder)
  local found, problems, walked = {}, {}, 0
  local function problem(path, text) problems[#problems + 1] = { file = shown(path), problem = text } end
  local function walk(path, depth)
    local entries, left_out = core.folder_entries(path)
    if (left_out or 0) > 0 then problem(path, say("left_out", left_out)) end
    for _, entry in ipairs(entries) do
      local child, json = path .. "/" .. entry.name, entry.name:match("%.json$")
      if walked == LIMITS.entries then   -- said once, where the walk stops
        walked = walked + 1
        problem(folder, say("too_many", LIMITS.entries))
      end
      if walked > LIMITS.entries then return end
      walked = walked + 1
      if entry.name:match("^%.") then   -- hidden: .git and the like
      elseif entry.link then
        if entry.folder or json then problem(child, say("link")) end
      elseif entry.folder then
        if depth < LIMITS.depth then walk(child, depth + 1) else problem(child, say("too_deep", LIMITS.depth)) end
      elseif json and entry.size > LIMITS.submission_bytes then
        problem(child, say("too_large", LIMITS.submission_bytes))
      elseif json then
        found[#found + 1] = child
      end
    end
  end
  walk(folder, 0)
  return found, problems
end

-- The shape of a submission, checked field by field before anything uses
-- it. Each check takes a value and where it is ("steps[2].attempts[1]") and
-- returns it as the grader uses it (nil for null or absent), or raises a
-- refusal: {problem = one line}.
local function got(v)
  if v == nil then return say("got_nothing") end
  if v == json.null then return say("got_null") end
  if type(v) == "string" then return say("got_string", #v) end
  if type(v) == "number" or type(v) == "boolean" then return say("got_" .. type(v), shown(tostring(v), 40)) end
  if type(v) == "table" then return say(getmetatable(v) == json.list_meta and "got_list" or "got_object") end
  return say("got_other", type(v))
end

local function refuse(at, wanted, v) error({ problem = say("bad_field", at, wanted, got(v)) }, 0) end

local function is_list(v) return type(v) == "table" and (getmetatable(v) == json.list_meta or next(v) == nil) end
local function is_object(v) return type(v) == "table" and v ~= json.null and getmetatable(v) ~= json.list_meta end

local check = {}

function check.text(limit)
  return function(v, at)
    if type(v) ~= "string" or #v > limit then refuse(at, say("want_text", limit), v) end
    return v
  end
end

function check.number(v, at)
  if math.type(v) == nil or v ~= v or v == math.huge or v == -math.huge then refuse(at, say("want_number"), v) end
  return v
end

function check.gap(v, at)
  if math.type(v) == nil or not (v >= 0 and v < math.huge) then refuse(at, say("want_gap"), v) end
  return v
end

function check.boolean(v, at)
  if type(v) ~= "boolean" then refuse(at, say("want_boolean"), v) end
  return v
end

function check.one_of(...)
  local allowed, words = {}, {}
  for _, word in ipairs({ ... }) do allowed[word], words[#words + 1] = true, word end
  return function(v, at)
    if not allowed[v] then refuse(at, say("want_one_of", table.concat(words, ", ")), v) end
    return v
  end
end

-- The text a student answered: a string, or a number as text.
function check.answer(v, at)
  if math.type(v) then return check.number(v, at) and tostring(v) end
  if type(v) ~= "string" or #v > LIMITS.text_bytes then refuse(at, say("want_answer", LIMITS.text_bytes), v) end
  return v
end

-- A student ID as --student takes one: it names files and seeds a lab's numbers.
function check.student(v, at)
  if type(v) ~= "string" or #v > 64 or not v:match("^[%w_%-@][%w%._%-@]*$") then refuse(at, say("want_student"), v) end
  return v
end

-- A lab's plain name; a path (a '/', a '\', '..', a .lua file) is refused on its own line.
function check.lab_name(v, at)
  if type(v) ~= "string" or #v == 0 or #v > 128 or v:find("[%c]") then refuse(at, say("want_lab_name", 128), v) end
  if v:find("[/\\]") or v:match("^[.~]") or v:match("%.lua$") then error({ problem = say("lab_path", shown(v)) }, 0) end
  return v
end

-- JSON data of a bounded size (a submitted result, a device): a copy
-- without nulls, each string within LIMITS.text_bytes.
function check.data(v, at)
  local values = 0
  local function wanted() return say("want_data", LIMITS.data_depth, LIMITS.data_values, LIMITS.text_bytes) end
  local function copy(x, depth)
    values = values + 1
    if values > LIMITS.data_values or depth > LIMITS.data_depth then refuse(at, wanted(), v) end
    if x == json.null then return nil end
    if type(x) == "string" and #x > LIMITS.text_bytes then refuse(at, wanted(), v) end
    if type(x) ~= "table" then return x end
    local out = setmetatable({}, getmetatable(x))
    for k, item in pairs(x) do out[k] = copy(item, depth + 1) end
    return out
  end
  return copy(v, 1)
end

function check.optional(inner)
  return function(v, at)
    if v == nil or v == json.null then return nil end
    return inner(v, at)
  end
end

function check.list(inner, limit)
  return function(v, at)
    if not is_list(v) or #v > limit then refuse(at, say("want_list", limit), v) end
    local out = json.list()
    for i = 1, #v do out[i] = inner(v[i], fmt("%s[%d]", at, i)) end
    return out
  end
end

-- An object: its fields as fields says (field = check), those it does not name left out.
function check.object(fields)
  return function(v, at)
    if not is_object(v) then refuse(at, say("want_object"), v) end
    local out = {}
    for name, inner in pairs(fields) do out[name] = inner(v[name], at == "" and name or at .. "." .. name) end
    return out
  end
end

local optional, text, object, list = check.optional, check.text, check.object, check.list
local SUBMISSION = object {
  format = check.one_of("warplab-submission"),
  version = check.one_of(1),
  student = check.student,
  submitted = optional(text(64)),
  lab = object { name = check.lab_name, hash = optional(text(LIMITS.text_bytes)) },
  device = optional(check.data),
  steps = list(optional(object {
    attempts = optional(list(object { answer = optional(check.answer),
                                      verdict = optional(check.one_of("right", "wrong")) }, LIMITS.attempts)),
    first_try = optional(check.boolean),
    gap = optional(check.gap),
    predicted = optional(check.number),
    measured = optional(check.number),
    result = optional(check.data),
    results = optional(list(check.data, LIMITS.results)),
    kernel = optional(object { source = optional(text(LIMITS.source_bytes)) }),
  }), LIMITS.steps),
}

-- A submission file as the grader uses it, every field checked; or nil and
-- why not, in one line.
local function read_submission(path)
  local text, why = core.read_file(path, LIMITS.submission_bytes)
  if not text then return nil, say("unreadable", shown(why)) end
  local doc, bad = json.decode(text)
  if doc == nil then return nil, say("not_json", shown((tostring(bad):gsub("^JSON: ", "")))) end
  if not is_object(doc) or doc.format ~= "warplab-submission" or doc.version ~= 1 then return nil, say("not_submission") end
  local ok, checked = pcall(SUBMISSION, doc, "")
  if ok then return checked end
  return nil, type(checked) == "table" and checked.problem or say("failed", shown(checked))
end

---------------------------------------------------------------------------
-- Grading one step again
---------------------------------------------------------------------------

-- What a lab function sees when it judges a submitted step again: the
-- submitted results and device, the student's own random numbers.
local function context_of(doc, definition, result, results)
  return g.context_for(definition.name, doc.student, result, results or (result and { result }) or nil,
                       doc.device or device())
end

local function verdict(right) return right and "right" or "wrong" end

-- The lab kernels the submission graded last declared from its sources:
-- put back to their skeletons before the next one is graded.
local declared = {}

-- A goal whose step has the student write a kernel: the submitted source
-- declared with the lab's declaration and launched again (on the model, or
-- on the GPU when there is one), then checked as the lab checks it.
local function rerun_kernel(definition, i, step, submitted, doc, row)
  local source = submitted.kernel and submitted.kernel.source
  if type(source) ~= "string" then return nil end
  declared[#declared + 1] = { declaration = step.kernel, lab_id = definition.id }
  local ok, why = pcall(core.declare_lab_kernel, step.kernel, definition.id, { source = source })
  local r
  if ok then ok, r = pcall(launch, step.kernel.name) end
  if not ok then
    row.notes[#row.notes + 1] = say("rerun_failed", shown(g.clean(tostring(why or r)), 1000))
    return false
  end
  row.rerun_backend, row.rerun_correct = r.backend, r.correct
  local ctx = context_of(doc, definition, core.result_data(r))
  local passed, right = pcall(g.judging, g.where_of(definition.name, i), step.ask.check, ctx)
  return passed and right and r.correct ~= false
end

-- The row of one student's step: the submitted answers, and the verdict of
-- grading the last of them again against the submitted result.
local function grade_step(doc, definition, i, step)
  local submitted = doc.steps[i] or {}
  local ask, kind = step.ask, g.ask_kind(step.ask)
  local attempts = submitted.attempts or {}
  local last = attempts[#attempts]
  local row = { student = doc.student, lab = shown(definition.name), step = i, kind = kind,
                question = shown(g.text_of(ask.question or ask.predict or ask.goal) or "", LIMITS.text_bytes),
                attempts = #attempts, answer = last and last.answer and shown(last.answer, LIMITS.text_bytes) or nil,
                submitted = last and last.verdict or nil, first_try = submitted.first_try == true, notes = {} }
  if kind == "prediction" then   -- never right or wrong: its gap to the student's run
    row.gap, row.answer, row.measured = submitted.gap, submitted.predicted, submitted.measured
    row.graded, row.first_try = submitted.gap and "predicted" or "missing", nil
    return row
  end
  if not last then row.graded, row.first_try = "missing", false; return row end
  local where = g.where_of(definition.name, i)
  local ctx = context_of(doc, definition, submitted.result, submitted.results)
  local ok, right
  if kind == "goal" then
    if step.kernel then
      right = rerun_kernel(definition, i, step, submitted, doc, row)
      ok = right ~= nil
    end
    if not ok then ok, right = pcall(g.judging, where, ask.check, ctx) end
  else
    local want
    ok, want = pcall(g.expected_in, ask, where, ctx)
    row.expected = ok and (type(want) == "number" and want or want ~= nil and shown(want)) or nil
    if ok then right = want ~= nil and g.answer_right(ask, tostring(last.answer or ""), want) end
  end
  if not ok then row.notes[#row.notes + 1] = shown(g.clean(tostring(right))); right = false end
  row.graded = verdict(right and true or false)
  row.agrees = row.graded == row.submitted
  if not row.agrees then row.notes[#row.notes + 1] = say("disagrees", tostring(row.submitted), row.graded) end
  if row.graded ~= "right" then row.first_try = false end
  return row
end

---------------------------------------------------------------------------
-- The class
---------------------------------------------------------------------------

-- The submissions under folder, the latest of each student and lab:
-- {latest = {key = {doc=, path=}}, keys = sorted keys, problems = {...}}.
local function collect(folder)
  local latest = {}
  local paths, problems = json_files(folder)
  local function problem(path, text) problems[#problems + 1] = { file = shown(path), problem = text } end
  for _, path in ipairs(paths) do
    local doc, why = read_submission(path)
    if not doc then
      problem(path, why)
    else
      local key = doc.student .. "\0" .. doc.lab.name
      local earlier = latest[key]
      local student, lab = shown(doc.student), shown(doc.lab.name)
      if earlier and (earlier.doc.submitted or "") > (doc.submitted or "") then
        problem(path, say("duplicate", student, lab, shown(path)))
      else
        if earlier then problem(earlier.path, say("duplicate", student, lab, shown(earlier.path))) end
        latest[key] = { doc = doc, path = path }
      end
    end
  end
  local keys = {}
  for key in pairs(latest) do keys[#keys + 1] = key end
  table.sort(keys)
  return { latest = latest, keys = keys, problems = problems }
end

-- The students of a class, sorted.
local function students_in(collected)
  local seen, names = {}, {}
  for _, key in ipairs(collected.keys) do
    local student = collected.latest[key].doc.student
    if not seen[student] then seen[student] = true; names[#names + 1] = student end
  end
  return names
end

-- The slice of them task `index` (from 0) of `count` grades: every
-- count-th one, so that slices are even.
local function slice_of(names, index, count)
  local chosen = {}
  for i, name in ipairs(names) do
    if (i - 1) % count == index then chosen[name] = true end
  end
  return chosen
end

-- The labs submissions may name, fixed before the first is read: the
-- built-in ones, those on WARPLAB_LABS_PATH and in XDG_DATA_HOME/warplab/labs,
-- and the grader's own --lab (a name or a lab file), which takes its name
-- from all others. Name -> a function loading the lab afresh.
local function lab_catalogue(lab_option)
  local known = {}
  for _, name in ipairs(core.labs.names()) do known[name] = function() return g.find_lab(name) end end
  if lab_option then
    local ok, definition = pcall(g.find_lab, lab_option)
    if not ok then error(say("bad_lab_option", shown(lab_option), shown(tostring(definition))), 0) end
    known[definition.name] = function() return g.find_lab(lab_option) end
  end
  return known
end

-- Before each submission: nothing of the one before is left (the sandbox's
-- lab state, the last results, the lab kernels it declared from its sources).
local function start_afresh()
  core.sandbox_new_lab()
  core.set_last_results(nil, nil)
  local previous = declared
  declared = {}
  for _, d in ipairs(previous) do pcall(core.declare_lab_kernel, d.declaration, d.lab_id, "skeleton") end
end

-- The rows of one submission, each step that asks graded again, its lab
-- loaded afresh (what a lab keeps between calls is never another student's).
-- Keeps the lab in progress.definition, for the rows of a stopped grading.
local function submission_rows(doc, path, load_lab, progress)
  start_afresh()
  local loaded, definition = pcall(load_lab)
  if not loaded then error({ problem = say("no_lab", shown(g.clean(tostring(definition)))) }, 0) end
  progress.definition = definition
  local rows = {}
  local version_note = doc.lab.hash ~= definition.hash and say("other_version", shown(tostring(doc.lab.hash)), definition.hash)
  for i, step in ipairs(definition.steps) do
    if step.ask then
      local row = grade_step(doc, definition, i, step)
      if version_note then table.insert(row.notes, 1, version_note) end
      row.file = shown(path)
      rows[#rows + 1] = row
    end
  end
  return rows
end

-- A row per question of a submission whose grading was stopped, the reason its note.
local function stopped_rows(doc, path, definition, note)
  local rows = {}
  for i, step in ipairs(definition and definition.steps or {}) do
    if step.ask then
      rows[#rows + 1] = { student = doc.student, lab = shown(definition.name), step = i, kind = g.ask_kind(step.ask),
                          question = shown(g.text_of(step.ask.question or step.ask.predict or step.ask.goal) or "",
                                           LIMITS.text_bytes),
                          attempts = 0, graded = "stopped", notes = { note }, file = shown(path) }
    end
  end
  return rows
end

-- Grades one submission under its deadline: its rows, or nil and the problem
-- line. Ctrl-C (not a deadline) stops the whole grading.
local function grade_one(doc, path, load_lab, time_limit)
  local progress = {}
  local status, value = core.with_deadline(time_limit, time_limit, submission_rows, doc, path, load_lab, progress)
  if status == "ok" then return value end
  if status == "interrupted" then error("interrupted!", 0) end
  if status == "cpu" or status == "wall" then   -- value: the wall seconds it ran
    local note = say("stopped", value, fmt("%g", time_limit), say(status == "cpu" and "cpu_time" or "wall_time"))
    return stopped_rows(doc, path, progress.definition, note), note
  end
  return nil, type(value) == "table" and value.problem or say("failed", shown(tostring(value)))
end

-- Grades the submissions collected (those of the students in `only`, when
-- given) against the labs of catalogue: {rows=, problems=, submissions=, students=}.
local function grade_collected(collected, catalogue, time_limit, only)
  local problems, rows, students, count = {}, {}, {}, 0
  if not only then for _, p in ipairs(collected.problems) do problems[#problems + 1] = p end end
  for _, key in ipairs(collected.keys) do
    local doc, path = collected.latest[key].doc, collected.latest[key].path
    if not only or only[doc.student] then
      local load_lab, graded, problem = catalogue[doc.lab.name], nil, nil
      if load_lab then
        graded, problem = grade_one(doc, path, load_lab, time_limit)
      else
        problem = say("unknown_lab", shown(doc.lab.name))
      end
      if problem then problems[#problems + 1] = { file = shown(path), problem = problem } end
      if graded then
        count = count + 1
        students[doc.student] = true
        for _, row in ipairs(graded) do rows[#rows + 1] = row end
      end
    end
  end
  local names = {}
  for name in pairs(students) do names[#names + 1] = name end
  table.sort(names)
  return { rows = rows, problems = problems, submissions = count, students = names }
end

-- The rows grouped by key_of(row), in the order first seen: each group made
-- by fresh(row), then given each of its rows through add(group, row).
local function grouped(rows, key_of, fresh, add)
  local list, by_key = {}, {}
  for _, row in ipairs(rows) do
    local key = key_of(row)
    local group = by_key[key]
    if not group then
      group = fresh(row)
      by_key[key], list[#list + 1] = group, group
    end
    add(group, row)
  end
  return list
end

-- Per question: how many answered, right, right on the first try, and the wrong answers by count.
local function questions_of(rows)
  local list = grouped(rows, function(row) return row.lab .. "\0" .. row.step end,
    function(row)
      return { lab = row.lab, step = row.step, kind = row.kind, question = row.question, students = 0, right = 0,
               first_try = 0, missing = 0, wrong = {}, gaps = {} }
    end,
    function(q, row)
      q.students = q.students + 1
      if row.graded == "right" then q.right = q.right + 1 end
      if row.first_try then q.first_try = q.first_try + 1 end
      if row.graded == "missing" then q.missing = q.missing + 1 end
      if row.graded == "wrong" and row.answer then q.wrong[row.answer] = (q.wrong[row.answer] or 0) + 1 end
      if row.gap then q.gaps[#q.gaps + 1] = row.gap end
    end)
  for _, q in ipairs(list) do
    local wrong = {}
    for answer, n in pairs(q.wrong) do wrong[#wrong + 1] = { answer = answer, count = n } end
    table.sort(wrong, function(a, b) return a.count > b.count or a.count == b.count and a.answer < b.answer end)
    q.wrong_answers, q.wrong = json.list(wrong), nil
    q.first_try_rate = q.students > 0 and q.first_try / q.students or 0
    q.gaps = json.list(q.gaps)
  end
  return list
end

-- Per student and lab: questions, right, first try, missing, the mean prediction gap.
local function students_of(rows)
  local list = grouped(rows, function(row) return row.student .. "\0" .. row.lab end,
    function(row)
      return { student = row.student, lab = row.lab, questions = 0, right = 0, first_try = 0, missing = 0,
               predictions = 0, gap_sum = 0, notes = 0 }
    end,
    function(s, row)
      if row.kind == "prediction" then
        if row.gap then s.predictions, s.gap_sum = s.predictions + 1, s.gap_sum + row.gap end
      else
        s.questions = s.questions + 1
        if row.graded == "right" then s.right = s.right + 1 end
        if row.first_try then s.first_try = s.first_try + 1 end
        if row.graded == "missing" then s.missing = s.missing + 1 end
      end
      s.notes = s.notes + #row.notes
    end)
  for _, s in ipairs(list) do
    s.mean_gap = s.predictions > 0 and s.gap_sum / s.predictions or nil
    s.gap_sum = nil
  end
  return list
end

---------------------------------------------------------------------------
-- The files
---------------------------------------------------------------------------

local CSV_COLUMNS = { "student", "lab", "step", "kind", "question", "answer", "attempts", "first_try", "submitted",
                      "graded", "agrees", "expected", "gap", "rerun_correct", "rerun_backend", "notes", "file" }

-- A decimal number written as text ("-5", "2.5e-3"): a spreadsheet reads it as the number it is.
local function is_decimal(text)
  local mantissa, exponent = text:match("^[-+]?([%d.]+)([eE]?[-+]?%d*)$")
  return mantissa ~= nil and mantissa:match("^%d*%.?%d*$") ~= nil and mantissa:match("%d") ~= nil and
         (exponent == "" or exponent:match("^[eE][-+]?%d+$") ~= nil)
end

-- A CSV cell of text: one that a spreadsheet would take as a formula (it
-- starts with =, +, -, @, a tab or a carriage return, and is no plain
-- number) gets a leading ' so that it is text; quoted as RFC 4180 says.
local function text_cell(text)
  if text:match("^[=+%-@\t\r]") and not is_decimal(text) then text = "'" .. text end
  if text:find('[,"\r\n]') or text:match("^%s") or text:match("%s$") then text = '"' .. text:gsub('"', '""') .. '"' end
  return text
end

-- A CSV cell: numbers as numbers (a negative one too), booleans as words, text guarded.
local function csv_cell(v)
  if type(v) == "number" then return core.csv_cell(v) end
  if type(v) == "boolean" then return tostring(v) end
  if v == nil then return "" end
  return text_cell(tostring(v))
end

local function csv_text(rows)
  local lines = { table.concat(CSV_COLUMNS, ",") }
  for _, row in ipairs(rows) do
    local cells = {}
    for i, column in ipairs(CSV_COLUMNS) do
      local v = row[column]
      if column == "notes" then v = table.concat(row.notes, "; ") end
      cells[i] = csv_cell(v)
    end
    lines[#lines + 1] = table.concat(cells, ",")
  end
  return table.concat(lines, "\n") .. "\n"
end

local function json_rows(rows)
  local list = {}
  for i, row in ipairs(rows) do
    local copy = {}
    for k, v in pairs(row) do copy[k] = v end
    copy.notes = json.list(row.notes)
    list[i] = copy
  end
  return json.list(list)
end

---------------------------------------------------------------------------
-- The HTML page: tables and inline SVG charts, nothing from a network
---------------------------------------------------------------------------

local function escape(text)
  return (tostring(text):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }))
end

local BAR_COLOR, GAP_COLOR = "#1f77b4", "#2ca02c"

-- A horizontal bar chart: one bar per {label, value in [0, 1]}.
local function bar_chart(bars)
  local row_height, left, width = 26, 160, 620
  local parts = { fmt('<svg class="chart first-try" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">',
                      width, row_height * #bars + 30) }
  for i, bar in ipairs(bars) do
    local y = (i - 1) * row_height + 4
    local length = math.floor((width - left - 60) * bar.value + 0.5)
    parts[#parts + 1] = fmt('<text x="%d" y="%d" text-anchor="end">%s</text>', left - 8, y + 14, escape(bar.label))
    parts[#parts + 1] = fmt('<rect class="bar" x="%d" y="%d" width="%d" height="18" fill="%s"><title>%s: %.0f%%</title></rect>',
                            left, y, math.max(length, 1), BAR_COLOR, escape(bar.label), 100 * bar.value)
    parts[#parts + 1] = fmt('<text x="%d" y="%d">%.0f%%</text>', left + length + 6, y + 14, 100 * bar.value)
  end
  local axis_y = row_height * #bars + 8
  parts[#parts + 1] = fmt('<line x1="%d" y1="4" x2="%d" y2="%d" stroke="black"/>', left, left, axis_y)
  parts[#parts + 1] = fmt('<text x="%d" y="%d">%s</text></svg>', left, axis_y + 18, escape(say("rate_axis")))
  return table.concat(parts, "\n")
end

-- A histogram of prediction gaps, in bins of 10% up to 100% and one for more.
local function gap_histogram(gaps)
  local bins, most = {}, 1
  for k = 1, 11 do bins[k] = 0 end
  for _, gap in ipairs(gaps) do
    local k = math.min(11, math.floor(gap * 10) + 1)
    bins[k] = bins[k] + 1
    most = math.max(most, bins[k])
  end
  local left, bottom, bar, height = 40, 170, 50, 140
  local parts = { '<svg class="chart gaps" xmlns="http://www.w3.org/2000/svg" width="640" height="210" font-family="sans-serif" font-size="12">' }
  for k = 1, 11 do
    local h = math.floor(height * bins[k] / most + 0.5)
    local x = left + (k - 1) * bar
    parts[#parts + 1] = fmt('<rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%d</title></rect>',
                            x + 4, bottom - h, bar - 8, math.max(h, bins[k] > 0 and 1 or 0), GAP_COLOR, bins[k])
    parts[#parts + 1] = fmt('<text x="%d" y="%d" text-anchor="middle">%s</text>', x + bar // 2, bottom + 16,
                            k <= 10 and fmt("%d%%", (k - 1) * 10) or ">100%")
  end
  parts[#parts + 1] = fmt('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>', left, bottom, left + 11 * bar, bottom)
  parts[#parts + 1] = fmt('<text x="%d" y="%d">%s</text>', left, bottom + 34, escape(say("gap_axis")))
  parts[#parts + 1] = fmt('<text x="4" y="20">%s (max %d)</text></svg>', escape(say("students_axis")), most)
  return table.concat(parts, "\n")
end

local function table_html(class, headers, rows)
  local parts = { fmt('<table class="%s"><tr>', class) }
  for _, h in ipairs(headers) do parts[#parts + 1] = "<th>" .. escape(h) .. "</th>" end
  parts[#parts + 1] = "</tr>"
  for _, row in ipairs(rows) do
    parts[#parts + 1] = "<tr>"
    for _, cell in ipairs(row) do parts[#parts + 1] = "<td>" .. escape(cell) .. "</td>" end
    parts[#parts + 1] = "</tr>"
  end
  parts[#parts + 1] = "</table>"
  return table.concat(parts)
end

local function question_label(q) return fmt("%s %d", q.lab, q.step) end

local function html_page(report)
  local questions, bars, gaps, wrong_rows = report.questions, {}, {}, {}
  for _, q in ipairs(questions) do
    if q.kind ~= "prediction" then
      bars[#bars + 1] = { label = question_label(q), value = q.first_try_rate }
      for k, w in ipairs(q.wrong_answers) do
        if k <= 3 then wrong_rows[#wrong_rows + 1] = { question_label(q), q.question or "", w.answer, tostring(w.count) } end
      end
    end
    for _, gap in ipairs(q.gaps) do gaps[#gaps + 1] = gap end
  end
  local student_rows = {}
  for _, s in ipairs(report.students) do
    student_rows[#student_rows + 1] = { s.student, s.lab, fmt("%d/%d", s.right, s.questions), fmt("%d/%d", s.first_try, s.questions),
                                        tostring(s.missing), s.mean_gap and fmt("%.0f%%", 100 * s.mean_gap) or "-",
                                        tostring(s.notes) }
  end
  local problem_rows = {}
  for _, p in ipairs(report.problems) do problem_rows[#problem_rows + 1] = { p.file, p.problem } end
  local body = {
    "<!doctype html>", fmt('<html lang="%s"><head><meta charset="utf-8"><title>%s</title>', core.lang and core.lang() or "en",
                           escape(say("title"))),
    "<style>body{font-family:sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse;margin:1em 0}" ..
    "th,td{border:1px solid #bbb;padding:.2em .6em;text-align:left}th{background:#eee}h2{margin-top:1.5em}</style></head><body>",
    "<h1>" .. escape(say("title")) .. "</h1>",
    "<p>" .. escape(say("generated", report.submissions, #report.student_names, report.graded, report.warplab, report.device)) .. "</p>",
    "<h2>" .. escape(say("first_try_heading")) .. "</h2>", #bars > 0 and bar_chart(bars) or "<p>" .. escape(say("none")) .. "</p>",
    "<h2>" .. escape(say("wrong_heading")) .. "</h2>",
    #wrong_rows > 0 and table_html("wrong", { say("col_step"), say("col_question"), say("col_answer"), say("col_count") }, wrong_rows)
                    or "<p>" .. escape(say("none")) .. "</p>",
    "<h2>" .. escape(say("gaps_heading")) .. "</h2>", gap_histogram(gaps),
    "<h2>" .. escape(say("students_heading")) .. "</h2>",
    table_html("students", { say("col_student"), say("col_lab"), say("col_right"), say("col_first"), say("col_missing"),
                             say("col_gap"), say("col_notes") }, student_rows),
  }
  if #problem_rows > 0 then
    body[#body + 1] = "<h2>" .. escape(say("problems_heading")) .. "</h2>"
    body[#body + 1] = table_html("problems", { say("col_file"), say("col_notes") }, problem_rows)
  end
  body[#body + 1] = "</body></html>\n"
  return table.concat(body, "\n")
end

---------------------------------------------------------------------------
-- warplab --grade DIR [--report OUT] [--slurm OPTIONS]
---------------------------------------------------------------------------

local function write(path, text)
  local ok, why = core.write_file(path, text)
  if not ok then error(fmt("%s: %s", path, tostring(why)), 0) end
  return path
end

local function make_folder(path)
  local made, why = core.make_folder(path)
  if not made then error(tostring(why), 0) end
end

-- Writes the report of what was graded into out; true when every file was graded.
local function write_report(graded, out)
  local d = device()
  local report = { format = "warplab-grades", version = 1, graded = u.utc_now(), warplab = core.version,
                   device = d.name, backend = d.backend, submissions = graded.submissions,
                   student_names = graded.students, problems = graded.problems,
                   questions = questions_of(graded.rows), students = students_of(graded.rows), rows = graded.rows }
  make_folder(out)
  local csv = write(out .. "/grades.csv", csv_text(graded.rows))
  local data = {}
  for k, v in pairs(report) do data[k] = v end
  data.rows, data.problems = json_rows(graded.rows), json.list(graded.problems)
  data.questions, data.students, data.student_names = json.list(report.questions), json.list(report.students),
                                                      json.list(graded.students)
  local json_path = write(out .. "/grades.json", json.encode(data, 2) .. "\n")
  local html = write(out .. "/report.html", html_page(report))
  for _, p in ipairs(graded.problems) do io.stderr:write(say("problem", shown(p.file), shown(p.problem, 2000)), "\n") end
  print(say("graded", graded.submissions, #graded.students, #graded.problems, csv, json_path, html))
  return #graded.problems == 0
end

-- A slice's grading as data for the merge: rows with their notes as lists.
local function slice_data(graded)
  return { submissions = graded.submissions, students = json.list(graded.students), problems = json.list(graded.problems),
           rows = json_rows(graded.rows) }
end

-- The slices' grading, merged as one grading of the whole class would be.
local function merged(slices, problems)
  local all = { rows = {}, problems = {}, submissions = 0, students = {} }
  for _, p in ipairs(problems) do all.problems[#all.problems + 1] = p end
  for _, slice in ipairs(slices) do
    for _, p in ipairs(slice.problems) do all.problems[#all.problems + 1] = p end
    all.submissions = all.submissions + slice.submissions
    for _, name in ipairs(slice.students) do all.students[#all.students + 1] = name end
    for _, row in ipairs(slice.rows) do all.rows[#all.rows + 1] = row end
  end
  table.sort(all.students)
  local order = {}
  for i, row in ipairs(all.rows) do order[row] = i end
  table.sort(all.rows, function(a, b)   -- as grade_collected orders them: by student, lab, step
    if a.student ~= b.student then return a.student < b.student end
    if a.lab ~= b.lab then return a.lab < b.lab end
    if a.step ~= b.step then return a.step < b.step end
    return order[a] < order[b]
  end)
  return all
end

-- Task `index` of a Slurm array job: grades its slice of the class and
-- writes it as JSON to out/slice-INDEX.json.
function core.grade_slice(folder, index, count, out, lab, time_limit)
  local catalogue = lab_catalogue(lab)
  local collected = collect(folder)
  local graded = grade_collected(collected, catalogue, time_limit or DEFAULT_TIME_LIMIT,
                                 slice_of(students_in(collected), index, count))
  write(fmt("%s/slice-%d.json", out, index), json.encode(slice_data(graded), 2) .. "\n")
  print(say("slice_done", index, count, graded.submissions))
end

local STUDENTS_PER_TASK = 10

-- The job script each task runs: a Lua script warplab itself reads (its
-- first line names this warplab), so no shell starts anywhere.
local function job_script(folder, count, slices, lab, time_limit)
  return fmt("#!%s\n-- warplab --grade --slurm: one task of the job array grades its slice of the class.\n" ..
             "local core = debug.getregistry()[\"warplab.core\"]\n" ..
             "core.grade_slice(%q, tonumber(os.getenv(\"SLURM_ARRAY_TASK_ID\")), %d, %q, %s, %s)\n",
             core.program_path(), folder, count, slices, lab and fmt("%q", lab) or "nil", fmt("%.17g", time_limit))
end

-- Grades the class as a Slurm job array (sbatch --wait, one task per slice
-- of students), then merges the slices into the report.
local function grade_on_slurm(folder, out, options, lab, time_limit)
  lab_catalogue(lab)   -- a bad --lab is said here, not by every task
  local collected = collect(folder)
  local names = students_in(collected)
  if #names == 0 then error(say("no_submissions", folder), 0) end
  local count = math.max(1, (#names + STUDENTS_PER_TASK - 1) // STUDENTS_PER_TASK)
  local slurm = out .. "/slurm"
  make_folder(slurm)
  for _, entry in ipairs(core.folder_entries(slurm)) do   -- no slice of an earlier run is taken for this one's
    if entry.name:match("^slice%-%d+%.json$") then os.remove(slurm .. "/" .. entry.name) end
  end
  -- paths as given: a task starts in the folder sbatch was run from, as the rows' file names are
  local script = write(slurm .. "/grade-job.lua", job_script(folder, count, slurm, lab, time_limit))
  core.chmod_executable(script)
  local words = { "sbatch", "--wait", "--parsable", fmt("--array=0-%d", count - 1), "--job-name=warplab-grade",
                  "--output=" .. slurm .. "/task-%a.out" }
  for word in (options or ""):gmatch("%S+") do words[#words + 1] = word end
  words[#words + 1] = script
  print(say("submitting", count, #names, table.concat(words, " ")))
  local status, why = core.spawn(words, { stdout = slurm .. "/sbatch.out", stderr = slurm .. "/sbatch.err" })
  if status ~= 0 then
    local said = core.read_file(slurm .. "/sbatch.err") or ""
    error(say("sbatch_failed", tostring(status or why), shown(g.clean((said:gsub("%s+$", ""):gsub("\n", "; "))), 2000)), 0)
  end
  local slices = {}
  for index = 0, count - 1 do
    local text = core.read_file(fmt("%s/slice-%d.json", slurm, index))
    if not text then error(say("slice_missing", index, fmt("%s/task-%d.out", slurm, index)), 0) end
    slices[#slices + 1] = json.decode(text)
  end
  print(say("merged", count, (core.read_file(slurm .. "/sbatch.out") or "?"):match("%S+") or "?"))
  return write_report(merged(slices, collected.problems), out)
end

-- Grades every submission under folder and writes the report into out
-- (made when missing), here or as a Slurm job array (slurm: sbatch's
-- options, a string, "" for none), against the labs there are and `lab`
-- (--lab: a name or a lab file), each submission within time_limit seconds
-- of CPU and of wall time; true when every file under folder was graded.
function core.grade(folder, out, slurm, lab, time_limit)
  out = out and out ~= "" and out or "report"
  time_limit = time_limit or DEFAULT_TIME_LIMIT
  if slurm then return grade_on_slurm(folder, out, slurm, lab, time_limit) end
  local catalogue = lab_catalogue(lab)
  local collected = collect(folder)
  local graded = grade_collected(collected, catalogue, time_limit)
  if graded.submissions == 0 and #graded.problems == 0 then error(say("no_submissions", folder), 0) end
  return write_report(graded, out)
end
