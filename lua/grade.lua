-- grade.lua — warplab --grade DIR: every submission under DIR graded again
-- against its lab, and the class's report (docs/instructors.md, "Grading a
-- class"): grades.csv and grades.json, a row per student and question, and
-- report.html, one page with its charts, readable without a network.
local core = require "warplab.core"
local u = require "warplab.text"
local files = require "warplab.files"
local json = require "warplab.json"
local export = require "warplab.export"
local user_kernels = require "warplab.kernel"
local grade_report = require "warplab.report"
local sweep = require "warplab.sweep"
local lab_text = require "warplab.lab_text"
local lab_sandbox = require "warplab.lab_sandbox"
local lab_answers = require "warplab.lab_answers"
local lab_catalogue = require "warplab.lab_catalogue"
local lab_submission = require "warplab.lab_submission"
local runner = require("warplab.labs").runner   -- answers judged as the runner judges them

local grade = {}
local fmt = string.format

local messages = {
  not_submission = { en = "not a warplab submission of version 1", zh = "不是第 1 版的 warplab 提交文件" },
  unreadable = { en = "cannot read it: %s", zh = "无法读取：%s" },
  not_json = { en = "not JSON: %s", zh = "不是 JSON：%s" },
  no_lab = { en = "its lab cannot be loaded: %s", zh = "无法载入它的实验：%s" },
  unknown_lab = { en = "lab '%s' not found (named by %d submissions, this one first): looked among the built-in labs, %s",
                  zh = "找不到实验 '%s'（%d 份提交用到它，这是第一份）：找过内置实验、%s" },
  looked_in = { en = "in WARPLAB_LABS_PATH (%s), in %s, and --lab (%s)", zh = "WARPLAB_LABS_PATH（%s）、%s 和 --lab（%s）" },
  unset = { en = "unset", zh = "未设置" }, not_given = { en = "not given", zh = "未给出" },
  lab_path = { en = "its lab is named by a path ('%s'), not by a name: the grader finds labs itself (built in, WARPLAB_LABS_PATH, --lab)",
               zh = "它用路径指明实验（'%s'），而不是实验名：实验由评判程序自己去找（内置实验、WARPLAB_LABS_PATH、--lab）" },
  bad_lab_option = { en = "--lab %s: %s", zh = "--lab %s：%s" },
  other_version = { en = "submitted for another version of the lab (%s; now %s)", zh = "提交时的实验版本不同（%s；现在是 %s）" },
  duplicate = { en = "replaced: of %s's submissions for %s, the one that arrived last counts (%s, %s)",
                zh = "已被取代：%s 对 %s 的提交中，以最后到达的为准（%s，%s）" },
  no_submissions = { en = "no submissions under %s (files NAME.json written by :submit)", zh = "%s 下没有提交文件（:submit 写出的 NAME.json）" },
  tampering = { en = "suspected tampering: step %d: %s", zh = "疑似篡改：第 %d 步：%s" },
  bad_deadline = { en = "--deadline %s: expected an ISO date and time such as 2026-12-03T08:00Z",
                   zh = "--deadline %s：应为日期和时间，例如 2026-12-03T08:00Z" },
  -- evidence
  differs = { en = "differs: %s", zh = "不符：%s" },
  not_rerun = { en = "not rerun: %s", zh = "未重新运行：%s" },
  differs_field = { en = "%s is %s in the file, %s when run again", zh = "%s 在文件中为 %s，重新运行为 %s" },
  outside_bounds = { en = "%s is %s in the file: a GPU cannot measure that where the model gives %s (docs/instructors.md, \"Grading from evidence\")",
                     zh = "%s 在文件中为 %s：模型给出 %s 时，GPU 测不出这个值（见 docs/instructors.md“依据证据评判”）" },
  no_launch = { en = "the file holds no launch for this step", zh = "文件中没有这一步的启动" },
  own_kernel = { en = "kernel '%s' was declared at the prompt: its source is not in the file", zh = "核函数 '%s' 是在提示符下声明的：文件中没有它的源代码" },
  launch_failed = { en = "the launch failed: %s", zh = "启动失败：%s" },
  not_own = { en = "%s = %s is not this student's own number (theirs is %s)", zh = "%s = %s 不是这位学生自己的数（应为 %s）" },
  whose = { en = "; it is %s's", zh = "；它属于 %s" },
  nobodys = { en = "; no classmate's either (a launch of the student's own at the prompt?)",
              zh = "；也不是任何同学的（是学生自己在提示符下运行的？）" },
  ratio = { en = "×%s", zh = "×%s" },
  no_answer_here = { en = "an assessed question: this copy of the lab has no answer for it (a released copy?); grade with the instructor's copy (--lab)",
                     zh = "计分题：这份实验中没有它的答案（是发给学生的版本？）；请用教师的版本评判（--lab）" },
  same_answers = { en = "answers and results", zh = "答案和结果" },
  same_kernel = { en = "kernel %s", zh = "核函数 %s" },
  rerun_failed = { en = "the kernel did not run again: %s", zh = "核函数没能再次运行：%s" },
  disagrees = { en = "the submitted verdict is %s, graded again it is %s", zh = "提交中的判定是 %s，重新评判为 %s" },
  stopped = { en = "grading stopped after %.0f s: it ran past its %s s of %s (--time-limit)",
              zh = "评判在 %.0f 秒后停止：超过了 %s 秒的%s上限（--time-limit）" },
  stopped_by_limit = { en = "grading stopped: %s", zh = "评判停止：%s" },
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
  want_sources = { en = "an object of at most %d kernel names, each with a source of at most %d bytes",
                   zh = "至多 %d 个核函数名的对象，每个对应至多 %d 字节的源代码" },
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
  step_kernels = 8,               -- kernels whose sources a step's launches ran
  data_depth = 12, data_values = 100000,   -- a submitted result, a device
}
local DEFAULT_TIME_LIMIT = 60     -- seconds of CPU time, and of wall time, per submission

-- Text from a submission, a file name or a lab as it may be printed or
-- written: control characters spelled out (\27, \n), bad bytes as \xNN, and
-- at most limit bytes (default LIMITS.text_bytes).
local visible = lab_text.visible
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
-- following symbolic links and within LIMITS, with when it arrived there
-- (its mtime): {path=, arrived=}; what was not walked or is too large to
-- read is a problem each: {file=, problem=}.
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
        found[#found + 1] = { path = child, arrived = entry.mtime or 0 }
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

-- The sources a step's launches ran: kernel name -> source.
function check.sources(v, at)
  local function wrong() refuse(at, say("want_sources", LIMITS.step_kernels, LIMITS.source_bytes), v) end
  if not is_object(v) then wrong() end
  local out, count = {}, 0
  for name, source in pairs(v) do
    count = count + 1
    if count > LIMITS.step_kernels or type(name) ~= "string" or not name:match("^[%a_][%w_]*$") or #name > 128
       or type(source) ~= "string" or #source > LIMITS.source_bytes then wrong() end
    out[name] = source
  end
  return out
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
                                      verdict = optional(check.one_of("right", "wrong", "recorded")) }, LIMITS.attempts)),
    first_try = optional(check.boolean),
    gap = optional(check.gap),
    predicted = optional(check.number),
    measured = optional(check.number),
    result = optional(check.data),
    results = optional(list(check.data, LIMITS.results)),
    kernel = optional(object { source = optional(text(LIMITS.source_bytes)) }),
    sources = optional(check.sources),
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
-- Evidence: every launch a submission records, run again on the model
---------------------------------------------------------------------------

-- Parts of a result the grader never compares: measured noise, the
-- device the file names once, sentences in one language, and where a
-- count came from (the counts themselves are compared).
local NOT_COMPARED = { wall_ms = true, device = true, map = true, warnings = true, write_note = true, limit = true,
                       limit_zh = true, samples = true, time_min_ms = true, time_max_ms = true, time_iqr = true,
                       sm_clock_mhz = true, counters = true, counters_missing = true, counters_unavailable = true,
                       mismatch = true, correct = true, source = true }

-- How far a modelled number may lie from the re-run's (docs/instructors.md,
-- "Grading from evidence"): the model is deterministic, so a sim result
-- must be the re-run's up to the rounding of its JSON digits; a GPU's
-- measurement is held to the model's documented error (docs/model.md):
-- counts exact, DRAM bytes at most twice the model's (gather's re-reads,
-- the worst, are 1.64x) and bytes read at least half of them from a cold
-- L2 (bytes written have no floor: the H200 wrote 0 to 46,336 bytes of
-- coalescing's launches, whose output stayed in L2, where the model's
-- upper bound says 1 to 16 MB; a warm L2 may serve every read), kernel
-- time from half the model's time (the model is never more than 19%
-- slower than the H200) to 200 times it (histogram's contended atomics
-- are 120 times it).
local SIM_RELATIVE = 1e-9
local GPU_DRAM_FACTOR = 2
local GPU_TIME_RANGE = { 0.5, 200 }

-- The counts a GPU's result measures, by their part and field; equal to the model's.
local MEASURED_PARTS = { "load", "store", "shared_load", "shared_store", "atomic", "reduction", "ldgsts" }
local MEASURED_COUNTS = { "requests", "sectors", "wavefronts" }

-- "load.sectors": a leaf's place in a result.
local function path_of(prefix, key) return prefix == "" and tostring(key) or prefix .. "." .. tostring(key) end

local function near(a, b, relative)
  if a == b then return true end
  return math.abs(a - b) <= relative * math.max(math.abs(a), math.abs(b))
end

-- The parts of a result compared first, so that a difference is named by
-- the count a student reads (load.sectors) before what follows from it.
local COMPARED_FIRST = { kernel = 1, params = 2, load = 3, store = 4, shared_load = 5, shared_store = 6, atomic = 7,
                         reduction = 8, ldgsts = 9, dram = 10, useful_bytes = 11, model = 100 }

local function compared_before(a, b)
  local x, y = COMPARED_FIRST[a] or 50, COMPARED_FIRST[b] or 50
  if x ~= y then return x < y end
  return tostring(a) < tostring(b)
end

-- The first leaf of `claimed` that `rerun` does not hold (numbers within
-- relative; false and absent alike): its path, the claimed value and the
-- re-run's; nil when all agree.
local function first_difference(claimed, rerun, prefix, relative)
  local keys = {}
  for k in pairs(claimed) do if not NOT_COMPARED[k] then keys[#keys + 1] = k end end
  table.sort(keys, compared_before)
  for _, k in ipairs(keys) do
    local mine, theirs, at = claimed[k], type(rerun) == "table" and rerun[k] or nil, path_of(prefix, k)
    if type(mine) == "table" then
      if type(theirs) ~= "table" then return at, "{...}", theirs end
      local where, a, b = first_difference(mine, theirs, at, relative)
      if where then return where, a, b end
    elseif type(mine) == "number" and type(theirs) == "number" then
      if not near(mine, theirs, relative) then return at, mine, theirs end
    elseif mine ~= theirs and not (mine == false and theirs == nil) then
      return at, mine, theirs
    end
  end
end

-- Why a GPU's measurement cannot be this launch's on the model's bounds, or nil.
local function outside_gpu_bounds(claimed, model)
  for _, part in ipairs(MEASURED_PARTS) do
    local measured, modelled = claimed[part], model[part]
    if type(measured) == "table" and measured.source == "hardware" and type(modelled) == "table" then
      for _, count in ipairs(MEASURED_COUNTS) do
        if measured[count] ~= nil and measured[count] ~= modelled[count] then
          return part .. "." .. count, measured[count], modelled[count]
        end
      end
    end
  end
  local dram, modelled = claimed.dram, model.dram or {}
  if type(dram) == "table" and dram.source == "hardware" then
    local floored = { read_bytes = claimed.cache ~= "warm" }
    for _, field in ipairs({ "read_bytes", "write_bytes" }) do
      local a, b = tonumber(dram[field]), tonumber(modelled[field])
      if a and b and b > 0 and (a > b * GPU_DRAM_FACTOR or (floored[field] and a < b / GPU_DRAM_FACTOR)) then
        return "dram." .. field, a, b
      end
    end
  end
  local time, model_time = tonumber(claimed.time_ms), tonumber(model.time_ms)
  if time and model_time and (time < model_time * GPU_TIME_RANGE[1] or time > model_time * GPU_TIME_RANGE[2]) then
    return "time_ms", time, model_time
  end
end

-- A value as a note shows it: numbers in their shortest form.
local function value_text(v)
  if type(v) == "number" then return export.csv_cell(v) end
  return shown(tostring(v), 80)
end

-- Why a submitted result is not what its launch gives on the model, or nil:
-- a sim result leaf by leaf, a GPU one by its model part and the bounds.
local function result_difference(claimed, rerun)
  local where, mine, theirs
  if claimed.backend == "gpu" then
    where, mine, theirs = first_difference(claimed.model or {}, rerun.model or {}, "model", SIM_RELATIVE)
  else
    where, mine, theirs = first_difference(claimed, rerun, "", SIM_RELATIVE)
  end
  if where then return say("differs_field", shown(where, 120), value_text(mine), value_text(theirs)) end
  if claimed.backend == "gpu" then
    where, mine, theirs = outside_gpu_bounds(claimed, rerun.model or {})
    if where then return say("outside_bounds", where, value_text(mine), value_text(theirs)) end
  end
end

-- The parts of a result the model gives on a GPU too, under result.model.
local MODELLED_PARTS = { "load", "store", "atomic", "reduction", "shared_atomic", "ldgsts", "dram" }

-- A re-run as the model gives it: a launch the grader measured on its own
-- GPU, seen with the model's counts and bytes in place of the measured ones
-- (a submission from the model is compared with, and judged on, the model).
local function model_view(rerun)
  if rerun.backend ~= "gpu" or type(rerun.model) ~= "table" then return rerun end
  local view = {}
  for k, v in pairs(rerun) do view[k] = v end
  view.backend = "sim"
  for _, part in ipairs(MODELLED_PARTS) do view[part] = rerun.model[part] end
  return view
end

-- Launches run again, by what decides their numbers (the kernel, its
-- params, the profile, the submitted sources of the lab's kernels): the
-- same launch in another submission is not run twice.
local reruns = {}

-- The options of a launch as the file gives them, added to its params so
-- the re-run is that launch: the device profile, the model it ran on.
local function rerun_params(data)
  local params = {}
  for k, v in pairs(data.params) do params[k] = v end
  local model = type(data.model) == "table" and data.model or {}
  if type(model.profile) == "string" then params.profile = model.profile end
  if data.cache == "warm" or data.cache == "cold" then params.cache = data.cache end
  if model.source == "emulator" then params.model = "emulator" end
  return params
end

-- A lab's kernel declared from `source` (a step's own, the student's final
-- one by default): nil, or why it cannot run.
local function declare_ran(name, source, evidence)
  local kernel = evidence.kernels[name]
  if not kernel or evidence.declared[name] == source then return evidence.failures[name] end
  local ok, why = pcall(user_kernels.declare_lab_kernel, kernel.declaration, kernel.lab_id, { source = source })
  evidence.declared[name] = source
  evidence.failures[name] = not ok and say("rerun_failed", shown(lab_text.clean(tostring(why)), 1000)) or nil
  return evidence.failures[name]
end

-- The submitted result `data` run again from its kernel and params (a lab's
-- kernel from the source the step says it ran, else evidence.sources): the
-- re-run's data, or nil and why not.
local function rerun_launch(data, evidence, step_sources)
  if type(data) ~= "table" or type(data.kernel) ~= "string" or type(data.params) ~= "table" then
    return nil, say("no_launch")
  end
  if user_kernels.kernel_is_students(data.kernel) then return nil, say("own_kernel", shown(data.kernel)) end
  local source = type(step_sources) == "table" and type(step_sources[data.kernel]) == "string"
                 and step_sources[data.kernel] or evidence.sources[data.kernel]
  local params = rerun_params(data)
  local key = json.encode({ data.kernel, params, source or false })
  if reruns[key] == nil then
    local failure = source and declare_ran(data.kernel, source, evidence)
    if failure then return nil, failure end
    local ok, r = pcall(core.globals.launch, data.kernel, params)
    reruns[key] = ok and { data = export.result_data(r) } or { why = shown(lab_text.clean(tostring(r)), 300) }
  end
  local done = reruns[key]
  if done.why then return nil, say("launch_failed", done.why) end
  return done.data
end

-- A step's launches run again: {result=, results=, check = "same" |
-- "differs: why" | "not rerun: why"}; result and results what answers are
-- judged on: the re-run's, a GPU's measurement within the model's bounds
-- (the model cannot measure it again), the submitted ones where a launch
-- could not run.
local function rerun_step(submitted, evidence)
  if not submitted.result and not submitted.results then return { check = say("not_rerun", say("no_launch")) } end
  local differs, not_rerun
  local function again(data)
    local rerun, why = rerun_launch(data, evidence, submitted.sources)
    if not rerun then not_rerun = not_rerun or why; return data end
    if data.backend ~= "gpu" then rerun = model_view(rerun) end
    local difference = result_difference(data, rerun)
    differs = differs or difference
    if data.backend == "gpu" and not difference then return data end
    return rerun
  end
  local result = submitted.result and again(submitted.result)
  local results
  if submitted.results then
    results = {}
    for i, data in ipairs(submitted.results) do results[i] = again(data) end
  end
  local check = differs and say("differs", differs) or not_rerun and say("not_rerun", not_rerun) or "same"
  return { result = result or (results and results[#results]), results = results, check = check, differs = differs ~= nil or nil }
end

-- The submitted sources of the lab's kernels, declared before any launch is
-- run again (a skeleton where a step has none): name -> source, or the
-- notes of those that did not compile.
local declared = {}   -- put back to their skeletons before the next submission
local function declare_sources(doc, definition)
  local evidence = { sources = {}, failures = {}, kernels = {}, declared = {} }
  for i, step in ipairs(definition.steps) do
    local submitted = doc.steps[i]
    local source = submitted and submitted.kernel and submitted.kernel.source
    if step.kernel and type(source) == "string" then
      local kernel = { declaration = step.kernel, lab_id = definition.id }
      declared[#declared + 1] = kernel
      evidence.kernels[step.kernel.name], evidence.sources[step.kernel.name] = kernel, source
      declare_ran(step.kernel.name, source, evidence)
    end
  end
  return evidence
end

---------------------------------------------------------------------------
-- Each student's own numbers
---------------------------------------------------------------------------

local STOPPED = setmetatable({}, { __tostring = function() return "stopped at the first launch" end })

-- The first launch a step's experiment asks for when `student` runs it:
-- {kernel=, params=}, found without launching (launch and sweep stop the
-- code there), the code run as lab code under the sandbox's budget.
local function first_launch(lab_name, code, student)
  local asked
  local function stop(name, params) asked = { kernel = name, params = params }; error(STOPPED, 0) end
  local env = { random = lab_sandbox.student_random(lab_name, student), launch = stop, sweep = stop, pow2 = sweep.pow2,
                range = sweep.range, device = core.globals.device, pairs = pairs, ipairs = ipairs, tostring = tostring, tonumber = tonumber,
                select = select, type = type }
  for _, name in ipairs({ "string", "table", "math", "utf8" }) do env[name] = core.sandbox_library(name) end
  local chunk = core.load_experiment(code, env)
  if chunk then pcall(core.sandbox_body, chunk) end
  if asked and type(asked.kernel) == "string" and type(asked.params) == "table" then return asked end
end

local draws = {}   -- lab name, step, student -> the first launch, or false

local function drawn(definition, i, student)
  local key = definition.name .. "\0" .. i .. "\0" .. student
  if draws[key] == nil then draws[key] = first_launch(definition.name, definition.steps[i].run, student) or false end
  return draws[key] or nil
end

-- The params of a step's experiment that come from random(): those that
-- differ between this student's draw and two made-up students'.
local function drawn_params(definition, i, student)
  local own = drawn(definition, i, student)
  if not own then return nil end
  local keys = {}
  for _, other in ipairs({ "\1probe-a", "\1probe-b" }) do
    local theirs = drawn(definition, i, other)
    for k, v in pairs(own.params) do
      if type(v) ~= "table" and theirs and theirs.params[k] ~= v then keys[k] = true end
    end
  end
  if next(keys) == nil then return nil end
  return own, keys
end

-- Why a step's launch does not have the student's own numbers, or nil:
-- "stride = 6 is not this student's own number (theirs is 5); it is
-- gina's", and whether it is a classmate's (else a launch of the student's
-- own at the prompt may explain it).
local function not_own_numbers(definition, i, student, data, classmates)
  if not definition.steps[i].run or not definition.steps[i].run:find("random", 1, true) then return nil end
  if type(data) ~= "table" or type(data.params) ~= "table" then return nil end
  local own, keys = drawn_params(definition, i, student)
  if not own or data.kernel ~= own.kernel then return nil end
  local names = {}
  for k in pairs(keys) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do
    if data.params[k] ~= own.params[k] then
      local whose = {}
      for _, other in ipairs(classmates) do
        local theirs = other ~= student and drawn(definition, i, other)
        if theirs and theirs.params[k] == data.params[k] then whose[#whose + 1] = shown(other) end
      end
      local text = say("not_own", tostring(k), value_text(data.params[k]), value_text(own.params[k]))
      if #whose == 0 then return text .. say("nobodys"), false end
      return text .. say("whose", table.concat(whose, ", ")), true
    end
  end
end

---------------------------------------------------------------------------
-- Grading one step again
---------------------------------------------------------------------------

-- What a lab function sees when it judges a submitted step again: the
-- re-run results and the submitted device, the student's own random numbers.
local function context_of(doc, definition, result, results)
  return runner.context_for(definition.name, doc.student, result, results or (result and { result }) or nil,
                       doc.device or core.globals.device())
end

local function verdict(right) return right and "right" or "wrong" end

-- A question's points in the gradebook: its `points`, else 1.
local function points_of(ask)
  local p = ask.points
  return math.type(p) and p == p and p >= 0 and p < math.huge and p or 1
end

-- An answer as the report counts it among the wrong ones: a choice by the
-- option it names ("c) the text"), a number by its ratio to this student's
-- own expected value ("x0.5"), else the text.
local function answer_shape(ask, text, want)
  if ask.choices then
    local n = lab_answers.read_choice(text, ask.choices)
    if n then return fmt("%s) %s", string.char(96 + n), shown(lab_text.text_of(ask.choices[n]) or "", 200)) end
    return shown(text, 200)
  end
  local got = lab_answers.read_number(text)
  if got and type(want) == "number" and want ~= 0 then return say("ratio", export.csv_cell(tonumber(fmt("%.3g", got / want)))) end
  return shown(text, 200)
end

-- Every attempt of a question judged against the expected value of the
-- re-run: {answer, right, shape} each.
local function judged_attempts(ask, attempts, want)
  local list = json.list()
  for k, attempt in ipairs(attempts) do
    local text = tostring(attempt.answer or "")
    local right = want ~= nil and lab_answers.answer_right(ask, text, want) or false
    list[k] = { answer = shown(text, LIMITS.text_bytes), right = right, shape = answer_shape(ask, text, want) }
  end
  return list
end

-- Lab code that one of the sandbox's limits stopped (a loop that never ends,
-- launches past their budget) stops its submission's grading as the deadline
-- does: the same rows whichever limit comes first.
local function stop_if_tripped(ok, ...)
  if not ok and core.sandbox_lab_tripped() then error({ tripped = shown(lab_text.clean(tostring((...)))) }, 0) end
  return ok, ...
end

-- A prediction's row: what was predicted, and its gap to the launch as run
-- again (to the student's measurement, for a GPU's).
local function prediction_row(row, submitted, step, ctx, where)
  row.gap, row.answer, row.measured = submitted.gap, submitted.predicted, submitted.measured
  local gpu = type(submitted.result) == "table" and submitted.result.backend == "gpu"
  if submitted.predicted and ctx.result and not gpu then
    local ok, measured = stop_if_tripped(pcall(lab_sandbox.judging, where, step.ask.measure, ctx))
    if ok and type(measured) == "number" and measured == measured then
      row.measured = measured
      row.gap = math.abs(submitted.predicted - measured) / (measured ~= 0 and math.abs(measured) or 1)
    end
  end
  row.graded, row.first_try = row.gap and "predicted" or "missing", nil
  return row
end

-- The expected value of a question on the re-run, and every attempt judged
-- against it; an assessed question in a copy without its answer (a released
-- lab) is left "recorded" with a note.
local function question_verdict(row, ask, attempts, where, ctx)
  if ask.answer == nil and ask.assessed then
    row.notes[#row.notes + 1] = say("no_answer_here")
    return true, nil, "recorded"
  end
  local ok, want = stop_if_tripped(pcall(runner.expected_in, ask, where, ctx))
  if not ok then return false, want end
  row.expected = type(want) == "number" and want or want ~= nil and shown(want) or nil
  row.attempt_list = judged_attempts(ask, attempts, want)
  row.first_try = row.attempt_list[1] ~= nil and row.attempt_list[1].right
  return true, row.attempt_list[#row.attempt_list].right
end

-- The row of one student's step: the submitted answers, each judged again
-- against the step's launches run again on the model (evidence: the
-- submission's kernel sources and failures, the class's student IDs).
local function grade_step(doc, definition, i, step, evidence)
  local submitted = doc.steps[i] or {}
  local ask, kind = step.ask, lab_submission.ask_kind(step.ask)
  local attempts = submitted.attempts or {}
  local last = attempts[#attempts]
  local row = { student = doc.student, lab = shown(definition.name), step = i, kind = kind,
                question = shown(lab_text.text_of(ask.question or ask.predict or ask.goal) or "", LIMITS.text_bytes),
                attempts = #attempts, answer = last and last.answer and shown(last.answer, LIMITS.text_bytes) or nil,
                submitted = last and last.verdict or nil, first_try = submitted.first_try == true, notes = {},
                points_possible = kind ~= "prediction" and points_of(ask) or nil, assessed = ask.assessed == true or nil }
  local rerun = rerun_step(submitted, evidence)
  row.result_check, row.result_differs = rerun.check, rerun.differs
  local other, classmates = not_own_numbers(definition, i, doc.student, submitted.result, evidence.classmates)
  if other and classmates then
    row.result_check, row.result_differs = say("differs", other), true
  elseif other then
    row.notes[#row.notes + 1] = other
  end
  local failure = step.kernel and evidence.failures[step.kernel.name]
  if failure then row.notes[#row.notes + 1], row.kernel_failed = failure, true end
  local where = runner.where_of(definition.name, i)
  local ctx = context_of(doc, definition, rerun.result, rerun.results)
  if kind == "prediction" then return prediction_row(row, submitted, step, ctx, where) end
  if not last then row.graded, row.first_try = "missing", false; return row end
  local ok, right, graded
  if kind == "goal" then
    ok, right = stop_if_tripped(pcall(lab_sandbox.judging, where, ask.check, ctx))
    if step.kernel and rerun.result then
      row.rerun_backend, row.rerun_correct = rerun.result.backend, rerun.result.correct
      if rerun.result.correct == false then right, row.kernel_failed = false, true end
    end
    row.first_try = #attempts == 1 and ok and right and true or false
  else
    ok, right, graded = question_verdict(row, ask, attempts, where, ctx)
  end
  if not ok then row.notes[#row.notes + 1] = shown(lab_text.clean(tostring(right))); right = false end
  row.graded = graded or verdict(right and true or false)
  local judged_by_student = row.submitted == "right" or row.submitted == "wrong"
  if judged_by_student then row.agrees = row.graded == row.submitted end
  if judged_by_student and row.agrees == false and graded == nil then
    row.notes[#row.notes + 1] = say("disagrees", tostring(row.submitted), row.graded)
  end
  if row.graded ~= "right" then row.first_try = false end
  row.points = row.graded == "right" and row.points_possible or 0
  return row
end

---------------------------------------------------------------------------
-- The class
---------------------------------------------------------------------------

-- Seconds since 1970 (UTC) of an ISO 8601 date and time as --deadline takes
-- it: 2026-12-03T08:00, :SS optional, Z or +HH:MM / -HH:MM (UTC without).
local function epoch_of(text)
  local y, mo, d, h, mi, rest = text:match("^(%d%d%d%d)-(%d%d)-(%d%d)[T ](%d%d):(%d%d)(.*)$")
  if not y then return nil end
  local sec, zone = rest:match("^:(%d%d)(.*)$")
  zone = zone or rest
  local sign, zh, zm = zone:match("^([+-])(%d%d):?(%d%d)$")
  if not (zone == "" or zone == "Z" or sign) then return nil end
  y, mo, d = tonumber(y), tonumber(mo), tonumber(d)
  if mo < 1 or mo > 12 or d < 1 or d > 31 or tonumber(h) > 23 or tonumber(mi) > 59 then return nil end
  local yy = mo <= 2 and y - 1 or y   -- days from civil (H. Hinnant's algorithm)
  local era = yy // 400
  local yoe = yy - era * 400
  local doy = (153 * (mo + (mo > 2 and -3 or 9)) + 2) // 5 + d - 1
  local days = era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
  local offset = sign and (sign == "+" and 1 or -1) * (tonumber(zh) * 3600 + tonumber(zm) * 60) or 0
  return days * 86400 + tonumber(h) * 3600 + tonumber(mi) * 60 + tonumber(sec or 0) - offset
end

-- An arrival time as UTC text: 2026-12-03T08:00:00Z.
local function utc_text(seconds) return os.date("!%Y-%m-%dT%H:%M:%SZ", seconds) end

-- The submissions under folder, the latest of each student and lab by
-- arrival (a time the student cannot set in the file; its `submitted` field
-- decides nothing), those after deadline (seconds, or nil) marked late:
-- {latest = {key = {doc=, path=, arrived=, late=}}, keys = sorted keys, problems = {...}}.
local function collect(folder, deadline)
  local latest = {}
  local files, problems = json_files(folder)
  local function problem(path, text) problems[#problems + 1] = { file = shown(path), problem = text } end
  table.sort(files, function(a, b) return a.arrived < b.arrived or a.arrived == b.arrived and a.path < b.path end)
  for _, file in ipairs(files) do
    local path = file.path
    local doc, why = read_submission(path)
    if not doc then
      problem(path, why)
    else
      local key = doc.student .. "\0" .. doc.lab.name
      local earlier = latest[key]
      if earlier then
        problem(earlier.path, say("duplicate", shown(doc.student), shown(doc.lab.name), shown(path), utc_text(file.arrived)))
      end
      latest[key] = { doc = doc, path = path, arrived = file.arrived, late = deadline and file.arrived > deadline or nil }
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
local function gradable_labs(lab_option)
  local known = {}
  for _, name in ipairs(lab_catalogue.names()) do known[name] = function() return lab_catalogue.find_lab(name) end end
  if lab_option then
    local ok, definition = pcall(lab_catalogue.find_lab, lab_option)
    if not ok then error(say("bad_lab_option", shown(lab_option), shown(tostring(definition))), 0) end
    known[definition.name] = function() return lab_catalogue.find_lab(lab_option) end
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
  for _, d in ipairs(previous) do pcall(user_kernels.declare_lab_kernel, d.declaration, d.lab_id, "skeleton") end
end

-- The rows of one submission, each step that asks graded again, its lab
-- loaded afresh (what a lab keeps between calls is never another student's).
-- Keeps the lab in progress.definition, for the rows of a stopped grading.
local function submission_rows(doc, path, load_lab, progress, classmates)
  start_afresh()
  local loaded, definition = pcall(load_lab)
  if not loaded then error({ problem = say("no_lab", shown(lab_text.clean(tostring(definition)))) }, 0) end
  progress.definition = definition
  local evidence = declare_sources(doc, definition)
  evidence.classmates = classmates
  local rows = {}
  local version_note = doc.lab.hash ~= definition.hash and say("other_version", shown(tostring(doc.lab.hash)), definition.hash)
  for i, step in ipairs(definition.steps) do
    if step.ask then
      local row = grade_step(doc, definition, i, step, evidence)
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
      rows[#rows + 1] = { student = doc.student, lab = shown(definition.name), step = i, kind = lab_submission.ask_kind(step.ask),
                          question = shown(lab_text.text_of(step.ask.question or step.ask.predict or step.ask.goal) or "",
                                           LIMITS.text_bytes),
                          attempts = 0, graded = "stopped", notes = { note }, file = shown(path) }
    end
  end
  return rows
end

-- Grades one submission under its deadline: its rows (or nil), the problem
-- line (or nil) and its lab. Ctrl-C (not a deadline) stops the whole grading.
local function grade_one(doc, path, load_lab, time_limit, classmates)
  local progress = {}
  local status, value = core.with_deadline(time_limit, time_limit, submission_rows, doc, path, load_lab, progress,
                                           classmates)
  if status == "ok" then return value, nil, progress.definition end
  if status == "interrupted" then error("interrupted!", 0) end
  local note
  if status == "cpu" or status == "wall" then   -- value: the wall seconds it ran
    note = say("stopped", value, fmt("%g", time_limit), say(status == "cpu" and "cpu_time" or "wall_time"))
  elseif type(value) == "table" and value.tripped then
    note = say("stopped_by_limit", value.tripped)
  end
  if note then return stopped_rows(doc, path, progress.definition, note), note, progress.definition end
  return nil, type(value) == "table" and value.problem or say("failed", shown(tostring(value)))
end

-- Where labs were looked for, for the line of a lab not found.
local function where_looked(lab_option)
  local folders = {}
  for folder in (os.getenv("WARPLAB_LABS_PATH") or ""):gmatch("[^:]+") do folders[#folders + 1] = shown(folder) end
  local data = core.data_path("labs")
  return say("looked_in", #folders > 0 and table.concat(folders, ":") or say("unset"), data and shown(data) or say("unset"),
             lab_option and shown(lab_option) or say("not_given"))
end

-- One problem line per lab that no submission's name could be found for:
-- the lab, how many files named it, and where it was looked for.
local function unknown_lab_problems(unknown, lab_option)
  local names, problems = {}, {}
  for name in pairs(unknown) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local files = unknown[name]
    problems[#problems + 1] = { file = shown(files[1]), problem = say("unknown_lab", shown(name), #files, where_looked(lab_option)) }
  end
  return problems
end

-- A kernel's source as copies are compared: without comments and blanks.
local function normalised_source(source)
  return (source:gsub("/%*.-%*/", ""):gsub("//[^\n]*", ""):gsub("%s+", ""))
end

-- Whether list holds value.
local function holds(list, value)
  for _, v in ipairs(list) do if v == value then return true end end
  return false
end

-- The normalised sources a step of a submission holds for its kernel: the
-- final one and those its launches ran, each a skeleton handed in as it is
-- aside, added to the kernel's list in `kernels`.
local function add_written_sources(kernels, step, submitted)
  local name = step.kernel.name
  local candidates = { submitted.kernel and submitted.kernel.source,
                       type(submitted.sources) == "table" and submitted.sources[name] or nil }
  local skeleton = normalised_source(step.kernel.skeleton)
  for _, source in pairs(candidates) do
    local normalised = type(source) == "string" and normalised_source(source)
    if normalised and normalised ~= skeleton then
      local list = kernels[name] or json.list()
      kernels[name] = list
      if not holds(list, normalised) then list[#list + 1] = normalised end
    end
  end
end

-- What two copies of a submission share: the normalised sources of each
-- kernel the student wrote, and the answers and launches of every step,
-- byte for byte.
local function fingerprint(doc, definition)
  local kernels, evidence = {}, {}
  for i, step in ipairs(definition and definition.steps or {}) do
    if step.kernel and type(doc.steps[i]) == "table" then add_written_sources(kernels, step, doc.steps[i]) end
  end
  local answered = false
  for i = 1, #doc.steps do
    local submitted = doc.steps[i] or {}
    local answers = {}
    for k, attempt in ipairs(submitted.attempts or {}) do answers[k] = attempt.answer or "" end
    answered = answered or #answers > 0 or submitted.result ~= nil
    evidence[i] = { answers, submitted.result or false, submitted.results or false, submitted.predicted or false }
  end
  return { kernels = kernels, evidence = answered and json.encode(evidence) or nil }
end

-- For each submission graded ({student, lab, print}), the other
-- students whose submission of that lab is the same or nearly: "bob
-- (answers and results)", "carol (kernel my_transpose)".
local function similar_submissions(graded)
  local similar = {}
  for a = 1, #graded do
    for b = a + 1, #graded do
      local x, y = graded[a], graded[b]
      if x.lab == y.lab and x.student ~= y.student then
        local why = {}
        if x.print.evidence and x.print.evidence == y.print.evidence then why[#why + 1] = say("same_answers") end
        for name, sources in pairs(x.print.kernels) do
          local shared = false
          for _, source in ipairs(sources) do shared = shared or holds(y.print.kernels[name] or {}, source) end
          if shared then why[#why + 1] = say("same_kernel", shown(name)) end
        end
        table.sort(why)
        if #why > 0 then
          local text = table.concat(why, ", ")
          similar[x] = similar[x] or {}
          similar[y] = similar[y] or {}
          table.insert(similar[x], fmt("%s (%s)", shown(y.student), text))
          table.insert(similar[y], fmt("%s (%s)", shown(x.student), text))
        end
      end
    end
  end
  return similar
end

-- A problem line for each submission one of whose launches is not what it
-- claims (a result the model does not give, another student's numbers).
local function tampering_problems(rows, path)
  local problems = {}
  for _, row in ipairs(rows) do
    if row.result_differs then
      problems[#problems + 1] = { file = shown(path), problem = say("tampering", row.step, row.result_check), tampering = true }
    end
  end
  return problems
end

-- Grades the submissions collected (those of the students in `only`, when
-- given) against the labs of catalogue: {rows=, problems=, submissions=, students=}.
local function grade_collected(collected, catalogue, time_limit, only, lab_option)
  local problems, rows, students, count, unknown, graded_list = {}, {}, {}, 0, {}, {}
  local classmates = students_in(collected)
  if not only then for _, p in ipairs(collected.problems) do problems[#problems + 1] = p end end
  for _, key in ipairs(collected.keys) do
    local entry = collected.latest[key]
    local doc, path = entry.doc, entry.path
    if not only or only[doc.student] then
      local load_lab, graded, problem, definition = catalogue[doc.lab.name], nil, nil, nil
      if load_lab then
        graded, problem, definition = grade_one(doc, path, load_lab, time_limit, classmates)
      else
        unknown[doc.lab.name] = unknown[doc.lab.name] or {}
        table.insert(unknown[doc.lab.name], path)
      end
      if problem then problems[#problems + 1] = { file = shown(path), problem = problem } end
      if graded then
        count = count + 1
        students[doc.student] = true
        for _, row in ipairs(graded) do
          row.late, row.arrived = entry.late and "late" or nil, utc_text(entry.arrived)
          rows[#rows + 1] = row
        end
        for _, p in ipairs(tampering_problems(graded, path)) do problems[#problems + 1] = p end
        graded_list[#graded_list + 1] = { student = doc.student, lab = shown(doc.lab.name),
                                          print = fingerprint(doc, definition) }
      end
    end
  end
  for _, p in ipairs(unknown_lab_problems(unknown, lab_option)) do problems[#problems + 1] = p end
  local names = {}
  for name in pairs(students) do names[#names + 1] = name end
  table.sort(names)
  return { rows = rows, problems = problems, submissions = count, students = names, prints = graded_list }
end

---------------------------------------------------------------------------
-- warplab --grade DIR [--report OUT] [--slurm OPTIONS]
---------------------------------------------------------------------------

local write, make_folder = files.write_or_raise, files.make_folder_or_raise

-- Each row's similar_to: the students whose submission of its lab is a
-- copy of this one's (over the whole class, slices merged).
local function mark_copies(graded)
  local by_submission = {}
  for submission, others in pairs(similar_submissions(graded.prints or {})) do
    table.sort(others)
    by_submission[submission.student .. "\0" .. submission.lab] = table.concat(others, "; ")
  end
  for _, row in ipairs(graded.rows) do row.similar_to = by_submission[row.student .. "\0" .. row.lab] end
end

-- Writes the report of what was graded into out (lua/report.lua), copies
-- marked over the whole class; true when every file was graded.
local function write_report(graded, out)
  mark_copies(graded)
  return grade_report.write(graded, out)
end

-- A slice's grading as data for the merge: rows with their notes as lists.
local function slice_data(graded)
  local prints = json.list()
  for i, p in ipairs(graded.prints) do
    prints[i] = { student = p.student, lab = p.lab, print = { kernels = p.print.kernels, evidence = p.print.evidence } }
  end
  return { submissions = graded.submissions, students = json.list(graded.students), problems = json.list(graded.problems),
           rows = grade_report.json_rows(graded.rows), prints = prints }
end

-- The slices' grading, merged as one grading of the whole class would be.
local function merged(slices, problems)
  local all = { rows = {}, problems = {}, submissions = 0, students = {}, prints = {} }
  for _, p in ipairs(problems) do all.problems[#all.problems + 1] = p end
  for _, slice in ipairs(slices) do
    for _, p in ipairs(slice.problems) do all.problems[#all.problems + 1] = p end
    all.submissions = all.submissions + slice.submissions
    for _, name in ipairs(slice.students) do all.students[#all.students + 1] = name end
    for _, row in ipairs(slice.rows) do all.rows[#all.rows + 1] = row end
    for _, p in ipairs(slice.prints or {}) do
      p.print.kernels = p.print.kernels or {}
      all.prints[#all.prints + 1] = p
    end
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
function grade.grade_slice(folder, index, count, out, lab, time_limit, deadline)
  local catalogue = gradable_labs(lab)
  local collected = collect(folder, deadline and epoch_of(deadline))
  local graded = grade_collected(collected, catalogue, time_limit or DEFAULT_TIME_LIMIT,
                                 slice_of(students_in(collected), index, count), lab)
  write(fmt("%s/slice-%d.json", out, index), json.encode(slice_data(graded), 2) .. "\n")
  print(say("slice_done", index, count, graded.submissions))
end

local STUDENTS_PER_TASK = 10

-- The job script each task runs: a Lua script warplab itself reads (its
-- first line names this warplab), so no shell starts anywhere.
local function job_script(folder, count, slices, lab, time_limit, deadline)
  return fmt("#!%s\n-- warplab --grade --slurm: one task of the job array grades its slice of the class.\n" ..
             "require(\"warplab.grade\").grade_slice(%q, tonumber(os.getenv(\"SLURM_ARRAY_TASK_ID\")), %d, %q, %s, %s, %s)\n",
             core.program_path(), folder, count, slices, lab and fmt("%q", lab) or "nil", fmt("%.17g", time_limit),
             deadline and fmt("%q", deadline) or "nil")
end

-- Grades the class as a Slurm job array (sbatch --wait, one task per slice
-- of students), then merges the slices into the report.
local function grade_on_slurm(folder, out, options, lab, time_limit, deadline)
  gradable_labs(lab)   -- a bad --lab is said here, not by every task
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
  local script = write(slurm .. "/grade-job.lua", job_script(folder, count, slurm, lab, time_limit, deadline))
  core.chmod_executable(script)
  local words = { "sbatch", "--wait", "--parsable", fmt("--array=0-%d", count - 1), "--job-name=warplab-grade",
                  "--output=" .. slurm .. "/task-%a.out" }
  for word in (options or ""):gmatch("%S+") do words[#words + 1] = word end
  words[#words + 1] = script
  print(say("submitting", count, #names, table.concat(words, " ")))
  local status, why = core.spawn(words, { stdout = slurm .. "/sbatch.out", stderr = slurm .. "/sbatch.err" })
  if status ~= 0 then
    local said = core.read_file(slurm .. "/sbatch.err") or ""
    error(say("sbatch_failed", tostring(status or why), shown(lab_text.clean((said:gsub("%s+$", ""):gsub("\n", "; "))), 2000)), 0)
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
function grade.grade(folder, out, slurm, lab, time_limit, deadline)
  out = out and out ~= "" and out or "report"
  time_limit = time_limit or DEFAULT_TIME_LIMIT
  local deadline_at = deadline and epoch_of(deadline)
  if deadline and not deadline_at then error(say("bad_deadline", shown(deadline)), 0) end
  if slurm then return grade_on_slurm(folder, out, slurm, lab, time_limit, deadline) end
  local catalogue = gradable_labs(lab)
  local collected = collect(folder, deadline_at)
  local graded = grade_collected(collected, catalogue, time_limit, nil, lab)
  if graded.submissions == 0 and #graded.problems == 0 then error(say("no_submissions", folder), 0) end
  return write_report(graded, out)
end

return grade
