-- report.lua — what warplab --grade writes from a graded class (lua/grade.lua
-- grades it): grades.csv, grades.json, gradebook.csv and report.html, a page
-- readable without a network that answers an instructor's questions
-- (docs/instructors.md, "What the grader prints").
local core = require "warplab.core"
local u = require "warplab.text"
local files = require "warplab.files"
local export = require "warplab.export"
local json = require "warplab.json"
local fmt = string.format
local grade_report = {}

local messages = {
  problem = { en = "warplab: %s: %s", zh = "warplab：%s：%s" },
  graded = { en = "Graded %s of %s (%s, %d of them suspected tampering; %s, %d late): %s, %s, %s, %s.",
             zh = "已评 %s 份提交、%s 名学生（%s 个问题，其中 %d 个疑似篡改；%s 份雷同，%d 份迟交）：%s、%s、%s、%s。" },
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
  gradebook_question = { en = "%s step %d (%s pt)", zh = "%s 第 %d 步（%s 分）" },
  gradebook_total = { en = "%s total (%s pt)", zh = "%s 总分（%s 分）" },
  gap_axis = { en = "gap between prediction and run", zh = "预测与运行之间的差距" },
  questions_heading = { en = "Questions", zh = "题目" },
  flags_heading = { en = "Flagged: tampering, copies, kernel failures, late files", zh = "标记：篡改、雷同、核函数失败、迟交" },
  every_student_heading = { en = "Every student's attempts", zh = "每位学生的每次作答" },
  students_order = { en = "Students struggling (2 or more attempts a question, under half right at the first) come first.",
                     zh = "有困难的学生（每题 2 次以上作答，第一次答对不到一半）排在前面。" },
  wrong_explained = { en = "Over every attempt, not only the last: a number as its ratio to the student's own expected value (×0.5: half of it), a choice by the option it names.",
                      zh = "统计所有作答，而不仅是最后一次：数值答案写成与该学生自己的正确值之比（×0.5：正确值的一半），选择题按所选的选项。" },
  summary_line = { en = "%d problems, %d of them suspected tampering (a launch the model does not give, or another student's numbers).",
                   zh = "%d 个问题，其中 %d 个疑似篡改（模型给不出的启动结果，或别的学生的数字）。" },
  col_attempts = { en = "attempts a question", zh = "每题作答次数" }, col_struggling = { en = "struggling", zh = "有困难" },
  col_flags = { en = "flags", zh = "标记" }, col_points = { en = "points", zh = "分数" }, col_kind = { en = "kind", zh = "类型" },
  col_final = { en = "right in the end", zh = "最终答对" }, col_times = { en = "attempts", zh = "次数" },
  col_flag = { en = "flag", zh = "标记" }, col_all_attempts = { en = "every attempt", zh = "每次作答" },
  col_graded = { en = "graded", zh = "评判" }, col_result_check = { en = "result check", zh = "结果核对" },
  yes = { en = "yes", zh = "是" },
  flag_tampering = { en = "suspected tampering", zh = "疑似篡改" }, flag_copy = { en = "copy", zh = "雷同" },
  flag_kernel_failure = { en = "kernel failed", zh = "核函数失败" }, flag_late = { en = "late", zh = "迟交" },
  kind_question = { en = "number", zh = "数值" }, kind_choice = { en = "choice", zh = "选择" },
  kind_goal = { en = "goal", zh = "目标" }, kind_prediction = { en = "prediction", zh = "预测" },
  students_axis = { en = "predictions", zh = "预测数" },
  rate_axis = { en = "first try", zh = "第一次答对" },
}
local say = u.messages("report", messages)

local write, make_folder = files.write_or_raise, files.make_folder_or_raise

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

-- Whether a row's launch is not what the submission claims.
local function tampered(row) return row.result_differs == true end

-- Per question: its text, kind and points; how many answered, right in the
-- end and at the first attempt; the wrong answers over every attempt, as
-- answer_shape counts them (a choice by its option, a number by its ratio).
local function questions_of(rows)
  local list = grouped(rows, function(row) return row.lab .. "\0" .. row.step end,
    function(row)
      return { lab = row.lab, step = row.step, kind = row.kind, question = row.question, points = row.points_possible,
               assessed = row.assessed, students = 0, right = 0, first_try = 0, missing = 0, wrong = {}, gaps = {} }
    end,
    function(q, row)
      q.students = q.students + 1
      if row.graded == "right" then q.right = q.right + 1 end
      if row.first_try then q.first_try = q.first_try + 1 end
      if row.graded == "missing" then q.missing = q.missing + 1 end
      local seen = {}
      for _, attempt in ipairs(row.attempt_list or {}) do
        if not attempt.right then
          local w = q.wrong[attempt.shape] or { answer = attempt.shape, count = 0, students = 0 }
          q.wrong[attempt.shape], w.count = w, w.count + 1
          if not seen[attempt.shape] then seen[attempt.shape], w.students = true, w.students + 1 end
        end
      end
      if row.gap then q.gaps[#q.gaps + 1] = row.gap end
    end)
  for _, q in ipairs(list) do
    local wrong = {}
    for _, w in pairs(q.wrong) do wrong[#wrong + 1] = w end
    table.sort(wrong, function(a, b) return a.count > b.count or a.count == b.count and a.answer < b.answer end)
    q.wrong_answers, q.wrong = json.list(wrong), nil
    q.first_try_rate = q.students > 0 and q.first_try / q.students or 0
    q.right_rate = q.students > 0 and q.right / q.students or 0
    q.gaps = json.list(q.gaps)
  end
  return list
end

-- A student's flags, each a word: tampering, copy, kernel failure, late.
local FLAGS = {
  { "tampering", function(row) return tampered(row) end },
  { "copy", function(row) return row.similar_to ~= nil end },
  { "kernel_failure", function(row) return row.kernel_failed or row.rerun_correct == false end },
  { "late", function(row) return row.late ~= nil end },
}

-- Per student and lab: questions, right, first try, missing, attempts,
-- points, flags and the mean prediction gap; those struggling (many
-- attempts a question, few right at the first) first.
local function students_of(rows)
  local list = grouped(rows, function(row) return row.student .. "\0" .. row.lab end,
    function(row)
      return { student = row.student, lab = row.lab, questions = 0, right = 0, first_try = 0, missing = 0, attempts = 0,
               points = 0, points_possible = 0, predictions = 0, gap_sum = 0, notes = 0, flags = {},
               similar_to = row.similar_to, late = row.late }
    end,
    function(s, row)
      if row.kind == "prediction" then
        if row.gap then s.predictions, s.gap_sum = s.predictions + 1, s.gap_sum + row.gap end
      else
        s.questions, s.attempts = s.questions + 1, s.attempts + (row.attempts or 0)
        s.points, s.points_possible = s.points + (row.points or 0), s.points_possible + (row.points_possible or 0)
        if row.graded == "right" then s.right = s.right + 1 end
        if row.first_try then s.first_try = s.first_try + 1 end
        if row.graded == "missing" then s.missing = s.missing + 1 end
      end
      for _, flag in ipairs(FLAGS) do if flag[2](row) then s.flags[flag[1]] = true end end
      s.notes = s.notes + #row.notes
    end)
  for _, s in ipairs(list) do
    s.mean_gap = s.predictions > 0 and s.gap_sum / s.predictions or nil
    s.gap_sum = nil
    s.attempts_per_question = s.questions > 0 and s.attempts / s.questions or 0
    s.first_try_rate = s.questions > 0 and s.first_try / s.questions or 0
    s.struggling = s.questions > 0 and s.attempts_per_question >= 2 and s.first_try_rate < 0.5 or nil
    local flags = {}
    for _, flag in ipairs(FLAGS) do if s.flags[flag[1]] then flags[#flags + 1] = flag[1] end end
    s.flags = json.list(flags)
  end
  table.sort(list, function(a, b)
    if (a.struggling or false) ~= (b.struggling or false) then return a.struggling == true end
    if a.struggling and a.first_try_rate ~= b.first_try_rate then return a.first_try_rate < b.first_try_rate end
    if a.student ~= b.student then return a.student < b.student end
    return a.lab < b.lab
  end)
  return list
end

---------------------------------------------------------------------------
-- The files
---------------------------------------------------------------------------

local CSV_COLUMNS = { "student", "lab", "step", "kind", "question", "answer", "attempts", "first_try", "submitted",
                      "graded", "agrees", "expected", "gap", "rerun_correct", "rerun_backend", "notes", "file",
                      "result_check", "similar_to", "late", "arrived", "points", "points_possible" }

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
  if type(v) == "number" then return export.csv_cell(v) end
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

-- The columns of gradebook.csv before the questions' (docs/instructors.md,
-- "The gradebook"): Canvas's own five, by which Moodle maps a student too.
local GRADEBOOK_IDENTITY = { "Student", "ID", "SIS User ID", "SIS Login ID", "Section" }

-- gradebook.csv: a row per student, the points of each question and each
-- lab's total, as Moodle's and Canvas's grade imports read them.
local function gradebook_text(rows, questions)
  local header, columns = {}, {}
  for i, name in ipairs(GRADEBOOK_IDENTITY) do header[i] = name end
  local labs, lab_order = {}, {}
  for _, q in ipairs(questions) do
    if q.kind ~= "prediction" then
      columns[#columns + 1] = { lab = q.lab, step = q.step }
      header[#header + 1] = text_cell(say("gradebook_question", q.lab, q.step, export.csv_cell(q.points or 1)))
      if not labs[q.lab] then labs[q.lab], lab_order[#lab_order + 1] = 0, q.lab end
      labs[q.lab] = labs[q.lab] + (q.points or 1)
    end
  end
  for _, lab in ipairs(lab_order) do header[#header + 1] = text_cell(say("gradebook_total", lab, export.csv_cell(labs[lab]))) end
  local points, names = {}, {}
  for _, row in ipairs(rows) do
    if not points[row.student] then points[row.student], names[#names + 1] = {}, row.student end
    if row.points then points[row.student][row.lab .. "\0" .. row.step] = row.points end
  end
  table.sort(names)
  local lines = { table.concat(header, ",") }
  for _, name in ipairs(names) do
    local id = text_cell(name)
    local cells, totals = { id, "", id, id, "" }, {}
    for _, c in ipairs(columns) do
      local p = points[name][c.lab .. "\0" .. c.step]
      cells[#cells + 1] = p and csv_cell(p) or ""
      if p then totals[c.lab] = (totals[c.lab] or 0) + p end
    end
    for _, lab in ipairs(lab_order) do cells[#cells + 1] = totals[lab] and csv_cell(totals[lab]) or "" end
    lines[#lines + 1] = table.concat(cells, ",")
  end
  return table.concat(lines, "\n") .. "\n"
end

function grade_report.json_rows(rows)
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

local function question_label(q) return fmt("%s %d", q.lab, q.step) end

local function paragraph(text) return "<p>" .. escape(text) .. "</p>" end
local function heading(key, id) return fmt('<h2 id="%s">%s</h2>', id, escape(say(key))) end

-- The anchor of a student's section (IDs are letters, digits, . _ - @).
local function anchor(student) return "student-" .. student:gsub("[^%w%._%-]", "_") end

-- A table whose first column links to a student's section.
local function student_link(student) return fmt('<a href="#%s">%s</a>', escape(anchor(student)), escape(student)) end

-- A table of cells already made HTML (the first column of each row is a student link, or escaped text).
local function html_table(class, headers, rows)
  local parts = { fmt('<table class="%s"><tr>', class) }
  for _, h in ipairs(headers) do parts[#parts + 1] = "<th>" .. escape(h) .. "</th>" end
  parts[#parts + 1] = "</tr>"
  for _, row in ipairs(rows) do parts[#parts + 1] = "<tr><td>" .. table.concat(row, "</td><td>") .. "</td></tr>" end
  parts[#parts + 1] = "</table>"
  return table.concat(parts)
end

local function flag_words(flags)
  local words = {}
  for i, flag in ipairs(flags) do words[i] = say("flag_" .. flag) end
  return table.concat(words, ", ")
end

local function percent(x) return fmt("%.0f%%", 100 * x) end

-- The students, those struggling first: their scores, attempts and flags.
local function students_section(report)
  local rows = {}
  for _, s in ipairs(report.students) do
    rows[#rows + 1] = { student_link(s.student), escape(s.lab), fmt("%d/%d", s.right, s.questions),
                        fmt("%d/%d", s.first_try, s.questions), fmt("%.1f", s.attempts_per_question),
                        escape(s.struggling and say("yes") or ""), tostring(s.missing),
                        s.mean_gap and percent(s.mean_gap) or "-", escape(flag_words(s.flags)),
                        escape(export.csv_cell(s.points) .. "/" .. export.csv_cell(s.points_possible)) }
  end
  return heading("students_heading", "students") .. paragraph(say("students_order")) ..
         html_table("students", { say("col_student"), say("col_lab"), say("col_right"), say("col_first"),
                                  say("col_attempts"), say("col_struggling"), say("col_missing"), say("col_gap"),
                                  say("col_flags"), say("col_points") }, rows)
end

-- Each question: its text, kind and points, first-try and final rates.
local function questions_section(report)
  local rows, bars = {}, {}
  for _, q in ipairs(report.questions) do
    local graded = q.kind ~= "prediction"
    rows[#rows + 1] = { escape(question_label(q)), escape(say("kind_" .. q.kind)), escape(q.question or ""),
                        graded and escape(export.csv_cell(q.points or 1)) or "-",
                        graded and percent(q.first_try_rate) or "-", graded and percent(q.right_rate) or "-" }
    if graded then bars[#bars + 1] = { label = question_label(q), value = q.first_try_rate } end
  end
  return heading("questions_heading", "questions") ..
         html_table("questions", { say("col_step"), say("col_kind"), say("col_question"), say("col_points"), say("col_first"),
                                   say("col_final") }, rows) ..
         "<h3>" .. escape(say("first_try_heading")) .. "</h3>" .. (#bars > 0 and bar_chart(bars) or paragraph(say("none")))
end

-- The most common wrong answers of each question over every attempt.
local function wrong_section(report)
  local rows = {}
  for _, q in ipairs(report.questions) do
    for k, w in ipairs(q.wrong_answers) do
      if k <= 3 then
        rows[#rows + 1] = { escape(question_label(q)), escape(q.question or ""), escape(w.answer), tostring(w.count),
                            tostring(w.students) }
      end
    end
  end
  return heading("wrong_heading", "wrong") .. paragraph(say("wrong_explained")) ..
         (#rows > 0 and html_table("wrong", { say("col_step"), say("col_question"), say("col_answer"), say("col_times"),
                                               say("col_count") }, rows) or paragraph(say("none")))
end

-- What a row flags, in words: tampering and its reason, a copy, a kernel failure, late.
local function row_flags(row)
  local flags = {}
  if tampered(row) then flags[#flags + 1] = say("flag_tampering") .. ": " .. row.result_check end
  if row.similar_to then flags[#flags + 1] = say("flag_copy") .. ": " .. row.similar_to end
  if row.kernel_failed or row.rerun_correct == false then flags[#flags + 1] = say("flag_kernel_failure") end
  if row.late then flags[#flags + 1] = say("flag_late") .. " (" .. tostring(row.arrived) .. ")" end
  return flags
end

-- Every flag of the class, a line per student and step.
local function flags_section(rows)
  local list, seen = {}, {}
  for _, row in ipairs(rows) do
    for _, flag in ipairs(row_flags(row)) do
      local key = row.student .. "\0" .. row.lab .. "\0" .. flag
      if not seen[key] or flag:find("^" .. say("flag_tampering")) then
        seen[key] = true
        list[#list + 1] = { student_link(row.student), escape(row.lab), tostring(row.step), escape(flag) }
      end
    end
  end
  return heading("flags_heading", "flags") ..
         (#list > 0 and html_table("flags", { say("col_student"), say("col_lab"), say("col_step"), say("col_flag") }, list)
                    or paragraph(say("none")))
end

-- Every attempt of a row, each marked right or wrong as graded again.
local function attempts_text(row)
  if row.kind == "prediction" then return row.answer and export.csv_cell(row.answer) or "" end
  local parts = {}
  for _, a in ipairs(row.attempt_list or {}) do parts[#parts + 1] = (a.right and "✓ " or "✗ ") .. a.answer end
  if #parts == 0 and row.answer then parts[1] = row.answer end
  return table.concat(parts, " · ")
end

-- "1 copy", "2 copies": a count with its noun in English; the number alone
-- in Chinese, whose message has the measure word.
local function counted(n, one, many)
  if core.lang() == "zh" then return tostring(n) end
  return string.format("%d %s", n, n == 1 and one or many)
end

-- A section per student: every question, every attempt, the notes and flags.
local function per_student_sections(report)
  local by_student, order = {}, {}
  for _, row in ipairs(report.rows) do
    if not by_student[row.student] then by_student[row.student], order[#order + 1] = {}, row.student end
    table.insert(by_student[row.student], row)
  end
  local parts = { heading("every_student_heading", "every-student") }
  for _, student in ipairs(order) do
    local rows = {}
    for _, row in ipairs(by_student[student]) do
      local notes = {}
      for _, n in ipairs(row.notes) do notes[#notes + 1] = n end
      for _, f in ipairs(row_flags(row)) do notes[#notes + 1] = f end
      rows[#rows + 1] = { escape(fmt("%s %d", row.lab, row.step)), escape(row.question or ""), escape(attempts_text(row)),
                          escape(row.graded or ""), escape(row.result_check or ""), escape(table.concat(notes, "; ")) }
    end
    parts[#parts + 1] = fmt('<section class="student" id="%s"><h3>%s</h3>', escape(anchor(student)), escape(student)) ..
      html_table("attempts", { say("col_step"), say("col_question"), say("col_all_attempts"), say("col_graded"),
                               say("col_result_check"), say("col_notes") }, rows) .. "</section>"
  end
  return table.concat(parts, "\n")
end

local function html_page(report)
  local gaps, tampering, problem_rows = {}, 0, {}
  for _, q in ipairs(report.questions) do for _, gap in ipairs(q.gaps) do gaps[#gaps + 1] = gap end end
  for _, p in ipairs(report.problems) do
    if p.tampering then tampering = tampering + 1 end
    problem_rows[#problem_rows + 1] = { escape(p.file), escape(p.problem) }
  end
  local body = {
    "<!doctype html>", fmt('<html lang="%s"><head><meta charset="utf-8"><title>%s</title>', core.lang and core.lang() or "en",
                           escape(say("title"))),
    "<style>body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:1em 0}" ..
    "th,td{border:1px solid #bbb;padding:.2em .6em;text-align:left;vertical-align:top}th{background:#eee}" ..
    "h2{margin-top:1.5em}.summary{font-weight:bold}</style></head><body>",
    "<h1>" .. escape(say("title")) .. "</h1>",
    paragraph(say("generated", report.submissions, #report.student_names, report.graded, report.warplab, report.device)),
    fmt('<p class="summary">%s</p>', escape(say("summary_line", #report.problems, tampering))),
    students_section(report), flags_section(report.rows), questions_section(report), wrong_section(report),
    heading("gaps_heading", "gaps"), gap_histogram(gaps),
    per_student_sections(report),
  }
  if #problem_rows > 0 then
    body[#body + 1] = heading("problems_heading", "problems")
    body[#body + 1] = html_table("problems", { say("col_file"), say("col_notes") }, problem_rows)
  end
  body[#body + 1] = "</body></html>\n"
  return table.concat(body, "\n")
end

-- grade_report.write(graded, out): writes the report of what was graded into out
-- (made when missing); true when every file was graded.
function grade_report.write(graded, out)
  local d = core.globals.device()
  local report = { format = "warplab-grades", version = 1, graded = files.utc_now(), warplab = core.version,
                   device = d.name, backend = d.backend, submissions = graded.submissions,
                   student_names = graded.students, problems = graded.problems,
                   questions = questions_of(graded.rows), students = students_of(graded.rows), rows = graded.rows }
  make_folder(out)
  local csv = write(out .. "/grades.csv", csv_text(graded.rows))
  local data = {}
  for k, v in pairs(report) do data[k] = v end
  data.rows, data.problems = grade_report.json_rows(graded.rows), json.list(graded.problems)
  data.questions, data.students, data.student_names = json.list(report.questions), json.list(report.students),
                                                      json.list(graded.students)
  local json_path = write(out .. "/grades.json", json.encode(data, 2) .. "\n")
  local html = write(out .. "/report.html", html_page(report))
  local gradebook = write(out .. "/gradebook.csv", gradebook_text(graded.rows, report.questions))
  local tampering, copies, late = 0, 0, 0
  for _, p in ipairs(graded.problems) do
    io.stderr:write(say("problem", p.file, p.problem), "\n")   -- each made visible where it was found
    if p.tampering then tampering = tampering + 1 end
  end
  for _, s in ipairs(report.students) do
    if s.similar_to then copies = copies + 1 end
    if s.late then late = late + 1 end
  end
  print(say("graded", counted(graded.submissions, "submission", "submissions"),
            counted(#graded.students, "student", "students"), counted(#graded.problems, "problem", "problems"),
            tampering, counted(copies, "copy", "copies"), late, csv, json_path, html, gradebook))
  return #graded.problems == 0
end

return grade_report
