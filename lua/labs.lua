-- labs.lua: the lab runner. A lab is a Lua script (labs/NAME.lua, or any
-- file an instructor names) that calls lab{...} once and step{...} for each
-- step. Everything a lab runs (its body, its experiments, its answer, check
-- and claim functions) runs in a sandbox: an allow-listed environment with
-- its own copies of the standard tables, under core.sandbox_call's budget.
-- The runner shows a step's text between prompts, offers its experiment as
-- code to run or edit, checks answers against the student's own results,
-- gives hints in stages, and saves progress after every change (warplab.progress).
local core = require "warplab.core"
local u = require "warplab.prelude"
local fmt = u.fmt

local json = require "warplab.json"
local export = require "warplab.export"
local recorder = require "warplab.record"
local sweep = require "warplab.sweep"
local progress = require "warplab.progress"
local user_kernels = require "warplab.kernel"
local goals = require "warplab.goals"

local labs = {}
local C = core.globals   -- the API's functions in C that students call by name

---------------------------------------------------------------------------
-- Text in the session's language, wrapped to the terminal
---------------------------------------------------------------------------

-- text with every invalid UTF-8 byte replaced by replace(byte).
local function valid_utf8(text, replace)
  local parts, i = {}, 1
  while true do
    local length, bad = utf8.len(text, i)
    if length then parts[#parts + 1] = text:sub(i); break end
    parts[#parts + 1] = text:sub(i, bad - 1)
    parts[#parts + 1] = replace(text:byte(bad))
    i = bad + 1
  end
  return table.concat(parts)
end

-- Characters a terminal acts on rather than shows: C0 and C1 controls (but
-- tab and newline), and the bidirectional overrides that reorder what is shown.
local CONTROL = "[%z\1-\8\11-\31\127]"
local C1_CONTROL = "\194[\128-\159]"
local BIDI = { "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
               "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}" }

-- A lab's text as it may reach the terminal: controls removed, bad bytes as U+FFFD.
local function clean(text)
  text = valid_utf8(tostring(text), function() return "\u{FFFD}" end)
  text = text:gsub(CONTROL, ""):gsub(C1_CONTROL, "")
  for _, mark in ipairs(BIDI) do text = text:gsub(mark, "") end
  return text
end
labs.clean = clean

local NAMED_CONTROLS = { ["\0"] = "\\0", ["\a"] = "\\a", ["\b"] = "\\b", ["\f"] = "\\f", ["\r"] = "\\r",
                         ["\v"] = "\\v", ["\27"] = "\\27" }

-- Characters that show as blank space (or as nothing) but are not a plain
-- space or tab: in code they can only pad or hide, so they are spelled out.
-- Ranges of code points: no-break and typographic spaces, zero-width and
-- direction marks, soft hyphen, fillers (Hangul, Braille blank), variation
-- selectors, invisible operators and tags.
local INVISIBLE_RANGES = {
  { 0xA0, 0xA0 }, { 0xAD, 0xAD }, { 0x34F, 0x34F }, { 0x61C, 0x61C }, { 0x115F, 0x1160 }, { 0x1680, 0x1680 },
  { 0x17B4, 0x17B5 }, { 0x180B, 0x180E }, { 0x2000, 0x200F }, { 0x2028, 0x202F }, { 0x205F, 0x206F },
  { 0x2800, 0x2800 }, { 0x3000, 0x3000 }, { 0x3164, 0x3164 }, { 0xFE00, 0xFE0F }, { 0xFEFF, 0xFEFF },
  { 0xFFA0, 0xFFA0 }, { 0xFFF0, 0xFFF8 }, { 0x1D159, 0x1D159 }, { 0x1D173, 0x1D17A }, { 0xE0000, 0xE0FFF },
}

local function is_invisible(code_point)
  for _, range in ipairs(INVISIBLE_RANGES) do
    if code_point >= range[1] and code_point <= range[2] then return true end
  end
  return false
end

-- Padding wider than this is shown as a count, so that a payload it pushes
-- off screen shows: blanks inside a line, the indentation of one (in columns,
-- a tab as 8), empty lines in a row.
local MAX_SHOWN_BLANKS, MAX_SHOWN_INDENT, MAX_SHOWN_EMPTY_LINES = 16, 64, 2
local BLANK_MARKS = { [" "] = "\u{2420}", ["\t"] = "\u{2409}" }   -- ␠ and ␉

-- Blanks as counts: ␠×N / ␉×N for each run of one kind.
local function counted_blanks(run)
  return (run:gsub("( *)(\t*)", function(spaces, tabs)
    return (#spaces > 0 and BLANK_MARKS[" "] .. "\u{D7}" .. #spaces or "") ..
           (#tabs > 0 and BLANK_MARKS["\t"] .. "\u{D7}" .. #tabs or "")
  end))
end

-- A line as shown: its indentation and blanks as written when short, else counted.
local function shown_line(line)
  local indent, rest = line:match("^([ \t]*)(.*)$")
  local _, tabs = indent:gsub("\t", "")
  if #indent + 7 * tabs > MAX_SHOWN_INDENT then indent = counted_blanks(indent) end
  return indent .. rest:gsub("[ \t]+", function(run) return #run > MAX_SHOWN_BLANKS and counted_blanks(run) or run end)
end

-- Lines as shown: more than MAX_SHOWN_EMPTY_LINES empty ones in a row become one line "␤×N".
local function shown_lines(code)
  local lines, empty = {}, 0
  local function flush()
    if empty > MAX_SHOWN_EMPTY_LINES then lines[#lines + 1] = "\u{2424}\u{D7}" .. empty
    else for _ = 1, empty do lines[#lines + 1] = "" end end
    empty = 0
  end
  for line in (code .. "\n"):gmatch("(.-)\n") do
    if line:match("^[ \t]*$") then empty = empty + 1 else flush(); lines[#lines + 1] = shown_line(line) end
  end
  flush()
  return table.concat(lines, "\n")
end

-- A lab's code as it is shown: every character it holds, controls and blank
-- look-alikes spelled out as Lua escapes (a \r cannot hide what comes before
-- it), long padding and runs of empty lines counted (what comes after shows).
local function visible(code)
  code = valid_utf8(code, function(byte) return fmt("\\x%02X", byte) end)
  code = code:gsub(CONTROL, function(c) return NAMED_CONTROLS[c] or fmt("\\%d", c:byte()) end)
  code = code:gsub(C1_CONTROL, function(c) return fmt("\\u{%X}", utf8.codepoint(c)) end)
  code = code:gsub("[\xC2-\xF4][\x80-\xBF]+", function(c)   -- valid UTF-8 by now: one character
    local code_point = utf8.codepoint(c)
    if is_invisible(code_point) then return fmt("\\u{%X}", code_point) end
  end)
  return shown_lines(code)
end
labs.visible = visible

-- What a lab's text may name of the device in use, as ${name}: the GPU, or
-- the profile the model describes, so the text is true of the student's own.
local device_facts = {
  device = function(d) return (d.name:gsub(" %(modelled%)$", "")) end,
  cc = function(d) return d.compute_capability end,
  sm_threads = function(d) return u.commas(d.max_threads_per_sm) end,
  sm_blocks = function(d) return u.commas(d.max_blocks_per_sm) end,
  sm_shared_kib = function(d) return u.commas(d.shared_bytes_per_sm // 1024) end,
  l2_mib = function(d) return u.commas(d.l2_bytes // (1024 * 1024)) end,
  blocks_of_1024 = function(d) return u.commas(d.max_threads_per_sm // 1024) end,
  -- the threads an SM holds in blocks of 32, its block limit reached
  threads_in_blocks_of_32 = function(d) return u.commas(math.min(32 * d.max_blocks_per_sm, d.max_threads_per_sm)) end,
}

local function with_device_facts(text)
  if not text:find("${", 1, true) then return text end
  local d = C.device()
  return (text:gsub("%${([%w_]+)}", function(name)
    local fact = device_facts[name]
    return fact and fact(d) or "${" .. name .. "}"
  end))
end

-- A text field is a string or {en=, zh=}; the session's language, else English;
-- the device's facts filled in; cleaned.
local function text_of(value)
  if type(value) == "table" then value = value[core.lang()] or value.en end
  if value == nil then return nil end
  return clean(type(value) == "string" and with_device_facts(value) or tostring(value))
end
labs.text_of = text_of

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
  unknown_lab = { en = "unknown lab '%s'%s (labs: %s)", zh = "没有名为 '%s' 的实验%s（实验：%s）" },
  did_you_mean = { en = "; did you mean '%s'?", zh = "；是不是 '%s'？" },
  wrong = { en = "Not quite (attempt %d).", zh = "还不对（第 %d 次尝试）。" },
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
  claim_needs_gpu = { en = "measured on a GPU only", zh = "只能在 GPU 上测量" },
  claim_needs_counters = { en = "needs hardware counters: %s", zh = "需要硬件计数器：%s" },
  lacks = { en = "%s needs sm_%d or newer; %s is sm_%s", zh = "%s 需要 sm_%d 或更新的 GPU；%s 是 sm_%s" },
  no_hint = { en = "No more hints for this step.", zh = "这一步没有更多提示了。" },
  finished = { en = "Lab finished: %d of %d questions right on the first try.",
               zh = "实验完成：%d/%d 道题第一次就答对。" },
  reset_confirm = { en = "Resetting lab '%s' deletes %s, and forgets your progress in it. Nothing is changed yet: %s again within %d s resets it.",
                    zh = "重置实验“%s”会删除%s，并清除你在其中的进度。现在还没有改动：再输入一次 %s（%d 秒内）就会重置。" },
  reset_edited_kernel = { en = "your own source of kernel %s (%s)", zh = "你自己的内核 %s 的源代码（%s）" },
  list_and = { en = " and ", zh = "和" },
  no_lab = { en = "No lab is open: :labs lists them, :lab NAME opens one.",
             zh = "没有打开的实验：:labs 列出实验，:lab 名称 打开一个。" },
  where = { en = "Lab %s, step %d of %d.", zh = "实验 %s，第 %d 步，共 %d 步。" },
  -- the status column of :labs
  steps = { en = "%d steps", zh = "%d 步" },
  finished_status = { en = "finished", zh = "已完成" },
  answered = { en = "%d/%d answered", zh = "已回答 %d/%d" },
  does_not_load = { en = "(does not load)", zh = "（无法加载）" },
  from_file = { en = "from %s", zh = "来自 %s" },
  hidden_lab = { en = "  (%s is not listed: the name %s is taken by %s)", zh = "  （%s 没有列出：名字 %s 已被 %s 占用）" },
  built_in = { en = "a built-in lab", zh = "一个内置实验" },
  reloaded = { en = "Lab %s read again; you are at step %d of %d.", zh = "已重新读取实验 %s；你在第 %d 步，共 %d 步。" },
  -- where lab code went wrong, and what a batch run shows
  error = { en = "error: %s", zh = "错误：%s" },
  error_at = { en = "%s: %s", zh = "%s：%s" },   -- where in the lab, and what went wrong there
  error_value = { en = "the lab raised an error whose value is a %s, not a message", zh = "实验抛出的错误值是 %s，而不是一条消息" },
  answer_not_number = { en = "%s: ask.answer must give a finite number, got %s", zh = "%s：ask.answer 必须给出有限的数字，得到 %s" },
  measure_not_number = { en = "%s: ask.measure must return a finite number (and the model's, a finite number, or nothing), got %s",
                         zh = "%s：ask.measure 必须返回有限的数字（以及模型的值：有限的数字，或不返回），得到 %s" },
  students_kernel = { en = "bad argument #1 to 'info' (kernel '%s' is the student's own: a lab cannot read it)",
                      zh = "bad argument #1 to 'info' (内核 '%s' 是学生自己的：实验不能读取它)" },
  at_step = { en = "lab %s, step %d", zh = "实验 %s，第 %d 步" },
  prediction_line = { en = "> :answer %s   (prediction)", zh = "> :answer %s   （预测）" },
  no_answer_for = { en = "the answers file has no answer for step %d", zh = "答案文件里没有第 %d 步的答案" },
  cannot_read = { en = "cannot read %s %s", zh = "无法读取%s %s" },
  what_answers = { en = "answers", zh = "答案文件" },
  what_lab = { en = "lab", zh = "实验" },
  bad_name = { en = "bad lab name (a name or a .lua file expected, got %s)", zh = "实验名不对（需要名字或 .lua 文件，得到 %s）" },
  name_with_nul = { en = "a name with a NUL byte", zh = "含 NUL 字节的名字" },
  -- a lab that is not well formed: for its author
  field_must_be = { en = "%s: '%s' must be %s, got %s", zh = "%s：'%s' 必须是%s，得到 %s" },
  must_text_64k = { en = "text (a string or {en=, zh=}, at most 64 KiB)", zh = "文本（字符串或 {en=, zh=}，至多 64 KiB）" },
  must_code = { en = "Lua code (a string without NUL bytes, at most 64 KiB)", zh = "Lua 代码（不含 NUL 字节的字符串，至多 64 KiB）" },
  must_table = { en = "a table", zh = "表" },
  must_texts = { en = "a list of texts", zh = "文本列表" },
  must_hints = { en = "a list of texts, each with an optional cause = \"name\" or list of names",
                 zh = "文本列表，每条可带 cause = \"名称\" 或名称列表" },
  must_kernel = { en = "a kernel{} declaration with name= and skeleton= (the source the student starts from), without source= or file= (solution=, the lab's own answer, is source too)",
                  zh = "一个带 name= 和 skeleton=（学生起步的源代码）的 kernel{} 声明，不能有 source= 或 file=（solution= 是实验自己的答案，也是源代码）" },
  write_kernel = { en = "You write kernel '%s' here: :edit opens its source in your editor, and it is compiled again when you save and quit.",
                   zh = "这一步由你来写内核 '%s'：:edit 在你的编辑器里打开它的源代码，保存并退出后会重新编译。" },
  lab_kernel_failed = { en = "%s: its kernel could not be declared: %s", zh = "%s：无法声明它的内核：%s" },
  own_kernel_failed = { en = "%s\nYour kernel is as it was before: :edit to fix it.", zh = "%s\n你的内核保持原样：用 :edit 修改它。" },
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
  at_line = { en = "line %s: ", zh = "第 %s 行：" },
  in_ask = { en = "%s, ask", zh = "%s，ask" },
  random_key = { en = "random(key, ...): the key must be a string or a whole number, got %s",
                 zh = "random(key, ...)：key 必须是字符串或整数，得到 %s" },
  random_list = { en = "random(key, list): the list is empty", zh = "random(key, list)：列表是空的" },
  random_range = { en = "random(key, m, n): m and n must be whole numbers with m <= n, got %s and %s",
                   zh = "random(key, m, n)：m 和 n 必须是整数且 m <= n，得到 %s 和 %s" },
  submit_needs_id = { en = "a submission needs the student's ID: warplab --student ID, or WARPLAB_STUDENT=ID",
                      zh = "提交需要学生的学号：warplab --student 学号，或 WARPLAB_STUDENT=学号" },
  submit_failed = { en = "cannot write the submission %s: %s", zh = "无法写入提交文件 %s：%s" },
  submitted = { en = "Submission written to %s: %d of %d questions right, %d on the first try.",
                zh = "提交已写入 %s：%d/%d 道题答对，其中 %d 道第一次就答对。" },
  -- what --check-lab finds
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
                         zh = "要写的内核没有 solution（能达到目标的源代码）" },
  experiment_fails = { en = "the experiment fails", zh = "实验代码运行失败" },
  claim_fails = { en = "the claim '%s' does not hold", zh = "论断“%s”不成立" },
  it_read = { en = "it read %s", zh = "它读到 %s" },
  zh_is_en = { en = "the 'zh' text is the 'en' text: not translated", zh = "'zh' 文本与 'en' 文本相同：没有翻译" },
  unknown_field = { en = "a field warplab does not read: it is ignored", zh = "warplab 不读取这个字段：它被忽略" },
  unknown_field_near = { en = "a field warplab does not read (did you mean '%s'?): it is ignored",
                         zh = "warplab 不读取这个字段（是不是 '%s'？）：它被忽略" },
  skeleton_not_declared = { en = "the kernel cannot be declared from its skeleton: %s", zh = "无法用骨架代码声明内核：%s" },
  solution_not_declared = { en = "the kernel cannot be declared from its solution: %s", zh = "无法用 solution 声明内核：%s" },
  skeleton_meets_goal = { en = "the skeleton already meets the goal (launched as the goal's solution launches it): the student has nothing to do",
                          zh = "骨架代码已经达到目标（按目标的 solution 的方式启动）：学生无事可做" },
  goal_not_met = { en = "the goal's check is false on the launch of the lab's own solution",
                   zh = "在实验自己的 solution 的启动结果上，目标的 check 为假" },
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

local say = u.messages("labs", messages)
local display_width = u.display_width
labs.display_width = display_width

-- Wraps text to the terminal's width (u.wrap), lab text at most 100 columns wide.
local function wrap(text, width)
  return u.wrap(text, width or math.max(40, math.min(core.columns() - 2, 100)))
end
labs.wrap = wrap

---------------------------------------------------------------------------
-- The sandbox
---------------------------------------------------------------------------

local time_of, bandwidth_of = sweep.time_of, sweep.bandwidth_of   -- measured, else modelled

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
    local v = type(r.params) == "table" and r.params[param]
    if type(v) == "number" and holds(r) and (best == nil or (largest and v > best) or (not largest and v < best)) then
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

-- lacks(ctx, feature, compute_capability): for a claim's skip, why the device
-- in use (a GPU, or the profile the model describes) cannot run a feature
-- that needs that compute capability (80 for cp.async), or nil when it can.
local function lacks(ctx, feature, compute_capability)
  local d = ctx.device
  local major, minor = tostring(d.compute_capability):match("^(%d+)%.(%d+)$")
  if major and 10 * tonumber(major) + tonumber(minor) < compute_capability then
    return say("lacks", feature, compute_capability, d.name, major .. minor)
  end
end

-- print() for lab code: what it prints cannot drive the terminal.
local function lab_print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = clean(tostring((select(i, ...)))) end
  print(table.concat(parts, "\t"))
end

local host_info, host_kernels = u.info, u.kernels

-- info() for lab code: a kernel the student declared is theirs, its source too.
local function lab_info(name, ...)
  if type(name) == "string" and user_kernels.kernel_is_students(name) then error(say("students_kernel", name), 2) end
  return host_info(name, ...)
end

-- kernels() for lab code: the list without the kernels the student declared.
local function lab_kernels()
  local list = host_kernels()
  for i = #list, 1, -1 do
    if user_kernels.kernel_is_students(list[i].name) then table.remove(list, i) end
  end
  return list
end

-- What lab code may use, taken when warplab starts (a student who redefines
-- launch at the prompt does not change what labs run).
local allowed = {
  pairs = pairs, ipairs = ipairs, next = next, select = select, type = type, tostring = tostring,
  tonumber = tonumber, error = error, assert = assert, rawequal = rawequal, rawlen = rawlen,
  launch = C.launch, can = C.can, sweep = sweep.sweep, range = sweep.range, pow2 = sweep.pow2, device = C.device,
  info = lab_info, kernels = lab_kernels, compare = sweep.compare, explain = C.explain, show = u.show,
  alloc_alignment = C.alloc_alignment,
  find = find, extreme = extreme, time_of = time_of, bandwidth_of = bandwidth_of, lacks = lacks,
}
local LIBRARIES = { "string", "table", "math", "utf8" }

-- The student doing the labs (--student, $WARPLAB_STUDENT), or "" for nobody in particular.
-- The checker (--check-lab --students N) is each of its students in turn.
local checked_student
local function student_id() return checked_student or os.getenv("WARPLAB_STUDENT") or "" end

-- The random numbers the checker's student drew, by key (nil when not checking).
local drawn

-- A 64-bit hash of the parts (FNV-1a, a separator after each, then
-- SplitMix64's finaliser): the same on every machine and in every session.
local function hash(parts)
  local h = 0xcbf29ce484222325
  for _, part in ipairs(parts) do
    for i = 1, #part do h = (h ~ part:byte(i)) * 0x100000001b3 end
    h = (h ~ 0xff) * 0x100000001b3
  end
  h = (h ~ (h >> 30)) * 0xbf58476d1ce4e5b9
  h = (h ~ (h >> 27)) * 0x94d049bb133111eb
  return h ~ (h >> 31)
end

-- A lab's random(key [, m, n | list]): a number of the student's own, the
-- same for one student, lab and key whenever it is asked (so a re-run, a
-- later session and the grader all see it), another for another student.
-- random(key): in [0, 1); random(key, m, n): a whole number from m to n;
-- random(key, list): one of the list's values.
local function student_random(lab_name, student)
  return function(key, m, n)
    if type(key) ~= "string" and math.type(key) ~= "integer" then
      error(say("random_key", type(key)), 2)
    end
    local unit = (hash({ student or student_id(), lab_name, tostring(key) }) >> 11) / 2.0 ^ 53
    local value
    if m == nil then
      value = unit
    elseif type(m) == "table" then
      if #m == 0 then error(say("random_list"), 2) end
      value = m[1 + math.floor(unit * #m)]
    else
      if math.type(m) ~= "integer" or math.type(n) ~= "integer" or m > n then
        error(say("random_range", tostring(m), tostring(n)), 2)
      end
      value = m + math.floor(unit * (n - m + 1))
    end
    if drawn then drawn[tostring(key)] = value end
    return value
  end
end
labs.student_random = student_random   -- for the tests
labs.hash = hash   -- for the folder of a lab file's kernels (kernel.lua)

-- A fresh environment for lab code: the allowed functions, the lab's own
-- copies of the standard tables, a pcall that cannot catch the budget, and
-- the student's own random numbers for the lab (by its name, not its file:
-- the numbers stay when the lab moves to another folder).
local function sandbox(lab_name)
  local env = { random = student_random(lab_name or "") }
  for name, value in pairs(allowed) do env[name] = value end
  for _, name in ipairs(LIBRARIES) do env[name] = core.sandbox_library(name) end
  env.print, env.pcall, env.xpcall = lab_print, core.sandbox_pcall, core.sandbox_xpcall
  env._G = env
  return env
end

local MESSAGE_BYTES = 2000   -- of a lab's error message, at most

local function is_finite(v) return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge end

-- What a lab function gave, for a message: a number as it prints (inf, nan), else its type.
local function what_it_gave(value)
  return type(value) == "number" and tostring(value) or type(value)
end

-- A lab code's error as the student reads it: in their language, an
-- experiment's line named as such (its chunk is the prompt's, "stdin"); an
-- error value that is no message (error(r) with a result) named by its type.
local function lab_error(message)
  if type(message) ~= "string" and type(message) ~= "number" then return say("error_value", type(message)) end
  message = tostring(message):gsub("stdin:(%d+): ", function(line) return say("at_line", line) end)
  return core.translate_error(message)
end

-- Runs fn(...) as lab code; an error comes back as one clean line naming where.
local function guarded(where, fn, ...)
  local results = table.pack(pcall(core.sandbox_call, fn, ...))
  if not results[1] then error(say("error_at", where, clean(lab_error(results[2]):sub(1, MESSAGE_BYTES))), 0) end
  return table.unpack(results, 2, results.n)
end

-- Runs a lab function that judges the student's results: what it launches
-- for itself never becomes the student's last result.
local function judging(where, fn, ctx)
  local result, results = core.last_result(), core.last_results()
  local outcome = table.pack(pcall(guarded, where, fn, ctx))
  core.set_last_results(result, results)
  if not outcome[1] then error(outcome[2], 0) end
  return table.unpack(outcome, 2, outcome.n)
end

-- A copy of a value, metatables kept, each string through string_map when
-- given: what lab functions get of the student's results.
local function copy(value, seen, string_map)
  if string_map and type(value) == "string" then return string_map(value) end
  if type(value) ~= "table" then return value end
  if seen[value] then return seen[value] end
  local result = {}
  seen[value] = result
  for k, v in next, value do result[copy(k, seen, string_map)] = copy(v, seen, string_map) end
  return setmetatable(result, getmetatable(value))
end

---------------------------------------------------------------------------
-- What a lab declares, checked when it loads
---------------------------------------------------------------------------

-- What one lab may hold, at most: warplab wraps and shows all of it.
local MAX_TEXT_BYTES, MAX_LIST, MAX_STEPS = 64 * 1024, 100, 500

local function is_string(v) return type(v) == "string" and #v <= MAX_TEXT_BYTES end

local function is_text(v)
  return is_string(v) or type(v) == "table" and is_string(v.en) and (v.zh == nil or is_string(v.zh))
end

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
-- A tolerance as a percentage of the expected value: "2%", "0.5 %"; the fraction, else nil.
local function percentage(v)
  local number = type(v) == "string" and tonumber(v:match("^%s*(%d+%.?%d*)%s*%%%s*$"))
  return number and number / 100
end

local function is_tolerance(v) return is_finite(v) and v >= 0 or percentage(v) ~= nil end

local ask_fields = {
  { "question", optional(is_text), "must_text" }, { "predict", optional(is_text), "must_text" },
  { "goal", optional(is_text), "must_text" },
  { "choices", optional(function(v) return is_list_of(v, is_text) end), "must_texts" },
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
local function validate(definition)
  local name = definition.name
  if #definition.steps > MAX_STEPS then error(say("too_many_steps", name, MAX_STEPS), 0) end
  if not is_text(definition.spec.title) then error(say("title_text", name, type(definition.spec.title)), 0) end
  check_fields(say("in_lab", name), definition.spec, lab_fields)
  local released = definition.spec.released_from ~= nil
  for i, step in ipairs(definition.steps) do
    local where = say("at_step", name, i)
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

---------------------------------------------------------------------------
-- Loading a lab
---------------------------------------------------------------------------

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
function labs.load(name, text, id)
  name = clean(name)
  local definition = { name = name, id = id or name, steps = {}, hash = fmt("fnv1a64:%016x", hash({ text })) }
  local env = sandbox(name)
  env.lab = function(spec) definition.spec = spec end
  env.step = function(spec) definition.steps[#definition.steps + 1] = spec end
  local chunk, why = load(text, "=" .. name, "t", env)
  if not chunk then error(say("does_not_compile", name, clean(core.explain_syntax_error(text, why))), 0) end
  guarded(say("in_lab", name), core.sandbox_body, chunk)   -- a body only declares: a small budget
  if type(definition.spec) ~= "table" then error(say("no_lab_call", name), 0) end
  if #definition.steps == 0 then error(say("no_steps", name), 0) end
  validate(definition)
  with_needs(definition)
  -- a released copy answers for the instructor's: its submissions name that lab's hash
  definition.text_hash, definition.hash = definition.hash, definition.spec.released_from or definition.hash
  return definition
end

-- The text of a file, or a clear error with the reason ("cannot read lab PATH: reason").
-- A lab or answers file over MAX_FILE_BYTES is refused before it is read.
local MAX_FILE_BYTES = 1024 * 1024
local function read_or_fail(what, path)
  local text, why = core.read_file(path, MAX_FILE_BYTES)
  if not text then error(say("cannot_read", say("what_" .. what), clean(why)), 0) end
  return text
end

-- Labs from files, beside the built-in ones: those opened by path this
-- session (--lab FILE.lua, :lab FILE.lua), then the *.lua files in each folder
-- of WARPLAB_LABS_PATH (colon-separated), then in $XDG_DATA_HOME/warplab/labs.
local opened_files = {}   -- paths, in the order they were opened

local function lab_folders()
  local folders = {}
  for folder in (os.getenv("WARPLAB_LABS_PATH") or ""):gmatch("[^:]+") do folders[#folders + 1] = folder end
  local data = core.data_path("labs")
  if data then folders[#folders + 1] = data end
  return folders
end

local function file_lab_name(path) return path:match("([^/]+)%.lua$") end

-- Every lab there is, in :labs order: {name=, path=} (path nil for a built-in
-- one). The first of a name wins; a later file of a taken name is listed in
-- `hidden` with the path that took it.
local function catalogue()
  local list, by_name, hidden = {}, {}, {}
  local function add(name, path)
    if by_name[name] then
      if path and by_name[name].path ~= path then hidden[#hidden + 1] = { path = path, by = by_name[name] } end
      return
    end
    by_name[name] = { name = name, path = path }
    list[#list + 1] = by_name[name]
  end
  for _, name in ipairs(core.lab_names()) do add(name) end
  for _, path in ipairs(opened_files) do add(file_lab_name(path), path) end
  for _, folder in ipairs(lab_folders()) do
    for _, entry in ipairs(core.folder_entries(folder)) do
      if not entry.folder and entry.name:match("^[^.].*%.lua$") then add(file_lab_name(entry.name), folder .. "/" .. entry.name) end
    end
  end
  return list, by_name, hidden
end

local function lab_names()
  local names = {}
  for i, entry in ipairs(catalogue()) do names[i] = entry.name end
  return names
end
labs.names = lab_names   -- for completion

-- The lab whose name is nearest to name (aos_soa: aos-soa; coalesce: coalescing), or nil.
local function nearest_lab(name)
  local wanted, best, best_distance = name:lower():gsub("_", "-"), nil, 4
  for _, lab in ipairs(lab_names()) do
    local distance = lab:sub(1, #wanted) == wanted and 0 or core.edit_distance(wanted, lab)
    if distance < best_distance then best, best_distance = lab, distance end
  end
  return best
end

-- A lab file, known by its real path: its progress is its own.
local function load_file(path)
  local real = core.realpath and core.realpath(path) or path
  local definition = labs.load(file_lab_name(path), read_or_fail("lab", path), "file:" .. real)
  definition.path = path
  return definition
end

-- The lab called name: built in, a file path, or a lab file found by name.
local function find_lab(name)
  if type(name) ~= "string" or name:find("%z") then
    error(say("bad_name", type(name) == "string" and say("name_with_nul") or type(name)), 0)
  end
  local text = core.lab_source(name)
  if text then return labs.load(name, text) end
  if name:find("%.lua$") then
    local definition = load_file(name)
    local known = false
    for _, path in ipairs(opened_files) do known = known or path == name end
    if not known then opened_files[#opened_files + 1] = name end
    return definition
  end
  local _, by_name = catalogue()
  if by_name[name] then return load_file(by_name[name].path) end
  local near = nearest_lab(name)
  local names = lab_names()
  for i, each in ipairs(names) do names[i] = visible(each) end
  error(say("unknown_lab", visible(name), near and say("did_you_mean", visible(near)) or "", table.concat(names, ", ")), 0)
end

---------------------------------------------------------------------------
-- Steps
---------------------------------------------------------------------------

local current   -- {definition=, index=, hint=, globals=, shown_result=, prediction=}

local function step_of(state) return state.definition.steps[state.index] end

-- "lab tour, step 3": where an error in lab code came from.
local function where_of(lab_name, index) return say("at_step", lab_name, index) end
local function where(state) return where_of(state.definition.name, state.index) end

-- What a lab's function judges from: copies of the results, the device, and
-- the student's own random numbers (of a lab, by its name).
local function context_for(lab_name, student, result, results, d)
  local seen = {}
  return { result = copy(result, seen), results = copy(results, seen), device = d,
           random = student_random(lab_name, student), student = student }
end

-- The context of the open step: the student's own last results.
local function context(state)
  return context_for(state.definition.name, student_id(), core.last_result(), core.last_results(), C.device())
end

-- The words of the labs' units in Chinese (docs/glossary.md); a unit may
-- also be given as {en=, zh=}. Words not here (MB, warp) stay as they are.
local UNIT_WORDS_ZH = {
  sectors = "个扇区", sector = "个扇区", request = "请求", requests = "个请求", bytes = "字节", byte = "字节",
  lines = "个缓存行", line = "缓存行", floats = "个 float", times = "倍", wavefronts = "个 wavefront",
  pixel = "像素",
}

-- A unit as the session's language writes it: "sectors/request" is 扇区/请求 in Chinese.
local function unit_text(unit)
  if type(unit) == "table" then return clean(text_of(unit) or "") end
  unit = clean(tostring(unit))
  if core.lang() ~= "zh" then return unit end
  local parts = {}
  for part in (unit .. "/"):gmatch("([^/]*)/") do
    local words = {}
    for word in part:gmatch("%S+") do words[#words + 1] = UNIT_WORDS_ZH[word] or word end
    parts[#parts + 1] = table.concat(words, " ")
  end
  return (table.concat(parts, "/"):gsub("^个%s*(.-)/", "%1/"))   -- 扇区/请求: a measure word only where nothing divides
end
labs.unit_text = unit_text   -- for the tests

local function format_value(value, unit)
  if type(value) == "number" then
    local text = math.type(value) == "integer" and u.commas(value) or fmt("%.4g", value)
    return unit and text .. " " .. unit_text(unit) or text
  end
  return clean(tostring(value))
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
    if type(name) == "string" and allowed[name] == nil and name ~= "_G" and is_data(value, {}, 0) and
       (theirs == nil or is_data(theirs, {}, 0)) then
      rawset(_G, name, is_dirty(value, {}) and copy(value, {}, clean) or value)
    end
  end
end

-- Prints what an experiment returned, as the prompt does, cleaned.
local function print_values(...)
  for i = 1, select("#", ...) do print(clean(u.value_line((select(i, ...))))) end
end

local reflect   -- reflect(state): a waiting prediction set beside the run (below)

-- Runs a step's experiment as lab code in the lab's own globals, printing
-- its values as the prompt does; an error is printed, not raised. True when
-- it ran; else false and the error.
function run_experiment(state, code)
  state.globals = state.globals or sandbox(state.definition.name)
  local chunk, why = core.load_experiment(code, state.globals)
  if not chunk then
    why = say("error_at", where(state), clean(lab_error(why)))
    print(say("error", why))
    return false, why
  end
  local results = table.pack(pcall(guarded, where(state), chunk))
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
    value = judging(where_text, value, ctx)
  end
  if value ~= nil and not is_finite(value) then error(say("answer_not_number", where_text, what_it_gave(value)), 0) end
  return value
end

local function expected(ask, state) return expected_in(ask, where(state), context(state)) end

---------------------------------------------------------------------------
-- Answers read as people write them
---------------------------------------------------------------------------

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
labs.read_number = read_number

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
labs.read_choice = read_choice

-- Checks a number against the expected value: within tolerance (absolute, or
-- relative when given). An absolute tolerance never takes in a neighbouring
-- whole number: a whole-number answer must be less than half of one away.
-- The tolerance an ask allows (default 0: exact) and whether it is a fraction
-- of the expected value: "2%" is 0.02, relative; a number, relative = true.
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

-- Judges one answer; returns passed (nil: not judged, and nothing counted),
-- what to say, the expected value, and for a goal missed, its cause (the
-- first part of ask.needs missed, or what the lab's check gave beside false).
local function judge(state, value)
  local ask = step_of(state).ask
  if ask.goal then
    local ctx = context(state)
    if not ctx.result then return nil, say("no_result") end
    local met, cause = judging(where(state), ask.check, ctx)
    return met and true or false, nil, nil, not met and cause or nil
  end
  if ask.choices and not read_choice(value, ask.choices) then return nil, say("choice_expected") end
  if not ask.choices and not read_number(value) then return nil, say("number_expected") end
  local want = expected(ask, state)
  if want == nil then return nil, say("no_result") end
  return answer_right(ask, value, want), nil, want
end

---------------------------------------------------------------------------
-- Predictions: taken before the run, never judged, set beside the run after it
---------------------------------------------------------------------------

-- "25%" between a prediction and the run, and whether the run was more.
local function gap_text(predicted, measured)
  if measured == predicted then return say("gap_none") end
  local base = predicted ~= 0 and math.abs(predicted) or math.abs(measured)
  local fraction = math.abs(measured - predicted) / base
  return say(measured > predicted and "gap_more" or "gap_less", u.percent(fraction))
end

-- Takes a prediction for the step, before its experiment runs in this step.
local function take_prediction(state, value)
  local n = read_number(value)
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
  local ok, measured, model = pcall(judging, where(state), ask.measure, context(state))
  if not ok then return print(say("error", core.error_text(tostring(measured)))) end
  if measured == nil then return end   -- nothing to measure in this run
  if not is_finite(measured) or model ~= nil and not is_finite(model) then
    local gave = what_it_gave(measured) .. (model ~= nil and ", " .. what_it_gave(model) or "")
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
  elseif is_text(cause) and type(cause) == "table" then
    print(wrap(text_of(cause)))
  end
end

-- After a wrong answer: why, for a goal; the hint for its cause (else the
-- next one); after three answers to a question, the answer. A goal has no
-- answer to give away: its explanation says why the solution works, and
-- waits for it.
local function after_wrong(state, step, p, key, want, cause)
  print(say("wrong", p.attempts[key]))
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
  elseif ask.choices and not read_choice(value, ask.choices) then
    return print(say("choice_expected"))
  elseif not ask.choices and not read_number(value) then
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
    after_wrong(state, step, p, key, want, cause)
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
  local definition = old.path and load_file(old.path) or find_lab(old.name)
  current.definition, current.shown, current.cause = definition, {}, nil
  current.index = math.min(current.index, #definition.steps)
  print(say("reloaded", definition.name, current.index, #definition.steps))
  show_step(current)
end

function labs.open(name)
  if name == "reload" then return labs.reload() end
  open(find_lab(name))
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
      local ok, following = pcall(find_lab, names[i + 1])
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
  if name and name ~= "" and not (definition and definition.name == name) then definition = find_lab(name) end
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
local function status_text(p, definition)
  if not definition then return "" end
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

function labs.list()
  local lines, all = {}, progress.all()
  local entries, _, hidden = catalogue()
  for _, entry in ipairs(entries) do
    local ok, definition = pcall(entry.path and load_file or find_lab, entry.path or entry.name)
    local title = ok and text_of(definition.spec.title) or say("does_not_load")
    local pad = (" "):rep(math.max(1, 52 - display_width(title)))   -- by columns: Chinese titles line up
    local status = status_text(ok and all[definition.id], ok and definition)
    lines[#lines + 1] = fmt("  %-12s %s%s%s", visible(entry.name), title, pad, status)
    if entry.path then lines[#lines + 1] = "               " .. say("from_file", visible(entry.path)) end
  end
  for _, h in ipairs(hidden) do
    lines[#lines + 1] = say("hidden_lab", visible(h.path), visible(h.by.name), h.by.path and visible(h.by.path) or say("built_in"))
  end
  print(table.concat(lines, "\n"))
end

-- answer(value): the same as :answer VALUE (and, like it, returns nothing to print).
function labs.answer_global(value)
  labs.answer(value)
end

---------------------------------------------------------------------------
-- Claims: what a lab's text says about the hardware, checked on a GPU
---------------------------------------------------------------------------

-- What a lab function read of its ctx, for a checker's finding that says why
-- it was false: the function run again on a ctx that notes each plain value
-- read ("ctx.result.load.sectors_per_request = 5, ..."); nil when it read
-- none or failed. Only the checker calls it, after the real run.
local MAX_READS_SHOWN = 4
local function reads_of(where_text, fn, ctx)
  local reads, seen = {}, {}
  local function note(path, value)
    if seen[path] or #reads >= MAX_READS_SHOWN then return end
    seen[path] = true
    reads[#reads + 1] = fmt("%s = %s", path, type(value) == "string" and u.quote(clean(value)) or format_value(value))
  end
  local function watched(value, path)
    if type(value) ~= "table" then return value end
    local function item_of(key, item)
      local item_path = path .. (type(key) == "string" and "." .. key or "[" .. tostring(key) .. "]")
      if type(item) ~= "table" and type(item) ~= "function" then note(item_path, item) end
      return watched(item, item_path)
    end
    return setmetatable({}, {
      __index = function(_, key) return item_of(key, value[key]) end,
      __len = function() return #value end,
      __pairs = function()
        return function(_, key)
          local next_key, item = next(value, key)
          if next_key ~= nil then return next_key, item_of(next_key, item) end
        end, nil, nil
      end,
    })
  end
  local ok = pcall(judging, where_text, fn, watched(ctx, "ctx"))
  if not ok or #reads == 0 then return nil end
  return say("it_read", table.concat(reads, ", "))
end

-- Why a claim does not apply to the device in use (its skip(ctx) says, for a
-- claim only some GPUs bear out), or nil.
local function skip_reason(state, claim, measured)
  if (claim.gpu or claim.counters) and not measured then return say("claim_needs_gpu") end
  local r = core.last_result()
  if claim.counters and r and not r.counters then   -- a build without them, or another profiler attached
    return say("claim_needs_counters", clean(tostring(r.counters_unavailable)))
  end
  if not claim.skip then return nil end
  local ok, reason = pcall(judging, where(state), claim.skip, context(state))
  return ok and reason and text_of(reason) or nil
end

-- Runs every step's experiment and evaluates its `claims`: a list of
-- {text = ..., holds = function(ctx) return true_or_false end, gpu = true (only
-- measured results can show it), skip = function(ctx) return why_not_here end}.
-- Returns {lab=, step=, text=, holds=, skipped=, reason=, read=} per claim
-- (read: what a claim that does not hold read of the result), and lists of
-- failed_steps and kernel_failures (a skeleton not declared), {step=, error=}.
function labs.check_claims(name)
  local definition = find_lab(name)
  core.sandbox_new_lab()
  local state = { definition = definition, index = 1, shown = {} }
  local measured = C.device().backend == "gpu"
  local outcomes = {}
  for i, step in ipairs(definition.steps) do
    state.index = i
    local not_declared = declare_step_kernel(state, "skeleton")
    if not_declared then
      outcomes.kernel_failures = outcomes.kernel_failures or {}
      outcomes.kernel_failures[#outcomes.kernel_failures + 1] = { step = i, error = not_declared }
    end
    local ran, why = true, nil
    if step.run then ran, why = run_experiment(state, step.run) end
    if not ran then
      outcomes.failed_steps = outcomes.failed_steps or {}
      outcomes.failed_steps[#outcomes.failed_steps + 1] = { step = i, error = why }
    end
    for _, claim in ipairs(step.claims or {}) do
      local outcome = { lab = definition.name, step = i, text = text_of(claim.text) }
      outcome.reason = skip_reason(state, claim, measured)
      if outcome.reason then
        outcome.skipped = true
      else
        core.take_missing_counter()
        local ok, holds = pcall(judging, where(state), claim.holds, context(state))
        local missing = not ok and core.take_missing_counter()
        if missing then   -- a counter this GPU does not have: the claim cannot be judged here
          outcome.skipped, outcome.reason = true, missing
        else
          outcome.holds = ok and holds == true
          if not ok then outcome.error = tostring(holds) end
          if ok and not outcome.holds then outcome.read = reads_of(where(state), claim.holds, context(state)) end
        end
      end
      outcomes[#outcomes + 1] = outcome
    end
  end
  return outcomes
end

---------------------------------------------------------------------------
-- Submissions: :submit [FILE], warplab --lab NAME --answers FILE --submit OUT
---------------------------------------------------------------------------

local SUBMISSION_VERSION = 1

-- What kind of ask a step has: "question", "choice", "goal", "prediction", or nil.
local function ask_kind(ask)
  if not ask then return nil end
  return ask.predict and "prediction" or ask.goal and "goal" or ask.choices and "choice" or "question"
end

-- One step of a submission: its kind, attempts with their verdicts, and what
-- they were judged on (docs/instructors.md, "Submissions").
local function submitted_step(definition, i, record)
  local step, key = definition.steps[i], tostring(i)
  local kind = ask_kind(step.ask)
  local evidence = (record.evidence or {})[key] or {}
  local entry = { step = i, kind = kind, done = record.done[key] == true }
  if kind == "prediction" then
    entry.gap = (record.predictions or {})[key]
    entry.predicted, entry.measured, entry.model = evidence.predicted, evidence.measured, evidence.model
  elseif kind then
    entry.attempts = json.list(evidence.attempts or {})
    entry.first_try = record.first_try[key] == true
    entry.right = entry.attempts[#entry.attempts] ~= nil and entry.attempts[#entry.attempts].verdict == "right"
    entry.expected = evidence.expected
  end
  entry.result, entry.results = evidence.result, evidence.results and json.list(evidence.results)
  entry.sources = evidence.sources
  if step.kernel then
    entry.kernel = { name = step.kernel.name, source = user_kernels.kernel_source(step.kernel.name) }
  end
  return entry
end

-- The whole submission of a lab by a student, as a table to write as JSON.
local function submission(definition, record, student)
  local steps, questions, first_try, right, predictions, close = {}, 0, 0, 0, 0, 0
  for i = 1, #definition.steps do
    local entry = submitted_step(definition, i, record)
    steps[i] = entry
    if entry.kind == "prediction" then
      predictions = predictions + 1
      if entry.gap and entry.gap <= 0.1 then close = close + 1 end
    elseif entry.kind then
      questions = questions + 1
      if entry.first_try then first_try = first_try + 1 end
      if entry.right then right = right + 1 end
    end
  end
  return {
    format = "warplab-submission", version = SUBMISSION_VERSION, warplab = core.version,
    student = student, submitted = u.utc_now(),
    lab = { name = definition.name, id = definition.id, hash = definition.hash, title = copy(definition.spec.title, {}),
            steps = #definition.steps },
    device = export.device_facts(),
    summary = { questions = questions, right = right, first_try = first_try, predictions = predictions,
                close_predictions = close, finished = record.finished ~= nil },
    steps = steps,
  }
end

-- Writes the open lab's submission (to path, a folder for it, or by default
-- LAB-STUDENT.json here); returns the file's path.
local function submit(state, path)
  local student = student_id()
  if student == "" then error(say("submit_needs_id"), 0) end
  local definition = state.definition
  local name = fmt("%s-%s.json", (definition.name:gsub("[^%w_%-]", "_")), student)
  if not path or path == "" then path = name elseif core.is_folder(path) then path = path .. "/" .. name end
  local document = submission(definition, progress.get(definition.id), student)
  local ok, why = core.write_file(path, json.encode(document, 2) .. "\n")
  if not ok then error(say("submit_failed", clean(path), clean(tostring(why))), 0) end
  local s = document.summary
  print(say("submitted", clean(path), s.right, s.questions, s.first_try))
  return path
end

-- What the grader (lua/grade.lua) needs to judge answers outside a session's lab.
labs.grading = {
  find_lab = find_lab, judging = judging, expected_in = expected_in, answer_right = answer_right,
  context_for = context_for, where_of = where_of, ask_kind = ask_kind, text_of = text_of, clean = clean,
}

function labs.submit(path)
  if not current then return print(say("no_lab")) end
  return submit(current, path)
end

---------------------------------------------------------------------------
-- Batch mode: warplab --lab NAME --answers FILE [--save]
---------------------------------------------------------------------------

local function read_answers(path)
  local text = read_or_fail("answers", path)
  local answers = {}
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    if not line:match("^%s*#") and line:match("%S") then answers[#answers + 1] = line end
  end
  return answers
end

-- One step of a batch run: shows it, runs its experiment, gives the next
-- answer (for a goal, a line of code to run, then it is checked). Returns
-- whether the step went right (its experiment ran, its question was
-- answered right). next_answer(step) gives the answer, once the experiment
-- has run: from a file (a goal's code then runs as the student's own, with
-- full rights), or the lab's own (--check-lab), with the function that runs
-- a goal's code as the lab's, in its sandbox.
local function batch_step(step, next_answer)
  show_step(current)
  local ask = step.ask
  if ask and ask.predict then   -- predicted first, then run; never right or wrong
    local prediction = next_answer(step)
    print(say("prediction_line", tostring(prediction)))
    labs.answer(prediction)
    return not step.run or run_experiment(current, step.run)
  end
  local ran, why = true, nil
  if step.run then
    print("> " .. visible(step.run):gsub("\n", "\n> "))
    ran, why = run_experiment(current, step.run)
  end
  if not ask then return ran, why end
  local given, run_goal_code = next_answer(step)
  if given == nil then error(say("no_answer_for", current.index), 0) end
  if ask.goal then
    print("> " .. visible(given))
    local run = run_goal_code or core.run_student_code   -- a file's line is the student's own: full rights
    run(given)
    given = ""
  else
    print("> :answer " .. given)
  end
  local verdict = labs.answer(given)
  return (verdict == true or verdict == "recorded") and ran, why
end

-- Runs every step of definition, answered by next_answer; the numbers of the
-- steps that did not go right (an empty list when all did), and the errors
-- of the experiments that failed, by step.
local function run_batch(definition, next_answer)
  core.sandbox_new_lab()
  progress.update(definition.id, "reset")
  current = { definition = definition, index = 1, shown = {} }
  local wrong, run_errors = {}, {}
  for i, step in ipairs(definition.steps) do
    current.index = i
    local right, why = batch_step(step, next_answer)
    if not right then wrong[#wrong + 1] = i end
    run_errors[i] = why
  end
  current.warned = current.index   -- the batch is over: finish, answered or not
  labs.next()
  return wrong, run_errors
end

-- Runs every step with the answers from a file; true when every question was
-- answered right. The student's saved progress is left alone unless save.
function labs.batch(name, answers_path, save, submit_path)
  local answers, given = read_answers(answers_path), 0
  if not save then progress.use_memory() end
  if submit_path and student_id() == "" then error(say("submit_needs_id"), 0) end
  local wrong = run_batch(find_lab(name), function() given = given + 1; return answers[given] end)
  if submit_path then submit(current, submit_path) end
  return #wrong == 0
end

---------------------------------------------------------------------------
-- The lab checker: warplab --check-lab FILE [--students N]
---------------------------------------------------------------------------

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
    for k, choice in ipairs(ask.choices or {}) do add(i, "ask.choices[" .. k .. "]", choice) end
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
  unknown_field_findings(definition.spec, lab_fields, 0, "", add)
  for i, step in ipairs(definition.steps) do
    unknown_field_findings(step, step_fields, i, "", add)
    unknown_field_findings(step.ask, ask_fields, i, "ask.", add)
    unknown_field_findings(step.kernel, kernel_fields(), i, "kernel.", add)
    for k, claim in ipairs(step.claims or {}) do unknown_field_findings(claim, claim_fields, i, fmt("claims[%d].", k), add) end
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
      add(i, "ask.answer", say("answer_not_a_choice", u.quote(ask.answer), #ask.choices))
    end
    if ask and ask.goal and not ask.solution then add(i, "ask.solution", say("goal_no_solution")) end
    if ask and ask.needs and own_check[ask] == false then
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
    if line:find("error") and line:find("%.cu[:(]") then return trim(line) end
  end
  return trim(why:match("^[^\n]*"))
end

-- message without the "lab NAME, step N: " of where it came from.
local function without_step(message, lab_name, step)
  local prefix = say("error_at", where_of(lab_name, step), "")
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
    local outcomes = labs.check_claims(name)
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
  local ok, met = pcall(judging, where(state), step_of(state).ask.check, context(state))
  return ok and met == true
end

-- A skeleton that already meets its goal (launched as the goal's solution
-- launches it) gives the student nothing to do: a finding.
local function skeleton_findings(step, add)
  if not (step.kernel and step.ask.solution) or declare_step_kernel(current, "skeleton") then return end
  if run_experiment(current, step.ask.solution) and goal_met(current) then
    add(current.index, "kernel.skeleton", say("skeleton_meets_goal"))
  end
end

-- A goal's own answer: its solution (its kernel's solution declared first),
-- with the function that runs it as lab code, in the lab's sandbox; what
-- goes wrong is a finding that says why (causes[step] then set).
local function own_goal_answer(step, add, causes, first_student)
  local i, ask = current.index, step.ask
  if first_student then skeleton_findings(step, add) end
  if step.kernel and step.kernel.solution then
    local failed = declare_step_kernel(current, "solution")
    if failed then add(i, "kernel.solution", say("solution_not_declared", first_error_line(failed))); causes[i] = true end
  end
  return ask.solution or "", function(code)
    local ran, why = run_experiment(current, code)
    if not ran then
      add(i, "ask.solution", say("solution_fails", without_where(why, current))); causes[i] = true
    elseif not goal_met(current) and not causes[i] then
      add(i, "ask", say("goal_not_met"), reads_of(where(current), ask.check, context(current))); causes[i] = true
    end
  end
end

-- The lab's own answers, as a student who knows them would give them: a
-- question's expected value from the run just made, a goal's solution, any
-- number for a prediction. An answer function that fails, or has no result
-- to read, is a finding (causes[step] set).
local function own_answer(step, add, causes, first_student)
  local ask, i = step.ask, current.index
  if ask.predict then return "1" end
  if ask.goal then return own_goal_answer(step, add, causes, first_student) end
  local ok, value = pcall(expected, ask, current)
  if not ok then add(i, "ask.answer", without_where(value, current)); causes[i] = true end
  if ok and value == nil then add(i, "ask.answer", say("answer_no_result")); causes[i] = true end
  if not ok or value == nil then return "" end
  if ask.choices and not ask.choices[value] then
    add(i, "ask.answer", say("answer_not_a_choice", u.quote(value), #ask.choices)); causes[i] = true
  end
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
    checked_student, drawn = id, {}
    scope.student = id
    local ok, why = pcall(function()
      local causes = {}
      local definition = find_lab(name)
      local wrong, run_errors = run_batch(definition, function(step) return own_answer(step, add, causes, k == 1) end)
      for _, i in ipairs(wrong) do
        if run_errors[i] then add(i, "run", say("experiment_fails"), without_step(run_errors[i], definition.name, i))
        elseif not causes[i] then add(i, "ask", say("batch_wrong")) end
      end
    end)
    scope.draws[id] = draws_text(drawn)
    local draws_nothing = next(drawn) == nil
    checked_student, drawn = nil, nil
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
function labs.check(name, students)
  students = math.tointeger(tonumber(students)) or DEFAULT_STUDENTS
  if students < 1 or students > MAX_STUDENTS then error(say("bad_students", MAX_STUDENTS, tostring(students)), 0) end
  progress.use_memory()
  local entries, add_entry = new_findings()
  local scope, notes, lines, lab_name = { profiles = 0, students = 1, draws = {} }, {}, {}, clean(tostring(name))
  local function add(step, field, message, detail) add_entry(scope, step, field, message, detail) end
  local ok, definition = pcall(find_lab, name)
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
    checked_student, drawn = nil, nil
    lines = finding_lines(entries, scope, lab_name)
    if not ran then lines[#lines + 1] = say("check_stopped", lab_name, clean(tostring(why))) end
  end
  for _, line in ipairs(lines) do print(line) end
  for _, line in ipairs(notes) do print(say("note", line)) end
  print(#lines == 0 and say("check_clean", lab_name) or say("check_found", lab_name, #lines))
  return #lines == 0
end

-- What the lab modules below this one use of it: the release (lab_release.lua).
labs.clean, labs.find_lab, labs.read_or_fail, labs.file_lab_name = clean, find_lab, read_or_fail, file_lab_name

return labs
