-- lab_submission.lua (warplab.lab_submission): what a student hands in
-- (:submit [FILE], warplab --lab NAME --answers FILE --submit OUT): a lab's
-- steps with each attempt, its verdict and what it was judged on, as one
-- JSON file that names the lab's hash and the device (docs/instructors.md,
-- "Submissions"); lua/grade.lua reads them.
local core = require "warplab.core"
local text = require "warplab.text"
local files = require "warplab.files"
local json = require "warplab.json"
local export = require "warplab.export"
local progress = require "warplab.progress"
local user_kernels = require "warplab.kernel"
local lab_text = require "warplab.lab_text"
local lab_sandbox = require "warplab.lab_sandbox"

local fmt = text.fmt
local clean = lab_text.clean

local messages = {
  submit_needs_id = { en = "a submission needs the student's ID: warplab --student ID, or WARPLAB_STUDENT=ID",
                      zh = "提交需要学生的学号：warplab --student 学号，或 WARPLAB_STUDENT=学号" },
  submit_failed = { en = "cannot write the submission %s: %s", zh = "无法写入提交文件 %s：%s" },
  submitted = { en = "Submission written to %s: %d of %d questions right, %d on the first try.",
                zh = "提交已写入 %s：%d/%d 道题答对，其中 %d 道第一次就答对。" },
  -- what --check-lab finds
}
local say = text.messages("lab_submission", messages)

local SUBMISSION_VERSION = 1

-- The student a submission names (--student, $WARPLAB_STUDENT); else an error.
local function student_or_fail()
  local student = lab_sandbox.student_id()
  if student == "" then error(say("submit_needs_id"), 0) end
  return student
end

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
    student = student, submitted = files.utc_now(),
    lab = { name = definition.name, id = definition.id, hash = definition.hash, title = lab_sandbox.copy(definition.spec.title, {}),
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
  local student = student_or_fail()
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

return { submit = submit, ask_kind = ask_kind, student_or_fail = student_or_fail }
