-- lab_batch.lua (warplab.lab_batch): a lab run start to end without a
-- prompt (warplab --lab NAME --answers FILE [--save] [--submit OUT]): each
-- step shown, its experiment run, the next answer given (for a goal, a
-- line of code run as the student's own, then checked). The checker runs
-- it too, with the lab's own answers (lab_check.lua).
local core = require "warplab.core"
local text = require "warplab.text"
local progress = require "warplab.progress"
local lab_text = require "warplab.lab_text"
local lab_catalogue = require "warplab.lab_catalogue"
local lab_submission = require "warplab.lab_submission"
local labs = require "warplab.labs"

local visible = lab_text.visible
local runner = labs.runner

local messages = {
  prediction_line = { en = "> :answer %s   (prediction)", zh = "> :answer %s   （预测）" },
  no_answer_for = { en = "the answers file has no answer for step %d", zh = "答案文件里没有第 %d 步的答案" },
}
local say = text.messages("lab_batch", messages)

local function read_answers(path)
  local source = lab_catalogue.read_or_fail("answers", path)
  local answers = {}
  for line in (source .. "\n"):gmatch("(.-)\r?\n") do
    if not line:match("^%s*#") and line:match("%S") then answers[#answers + 1] = line end
  end
  return answers
end

-- One step of a batch run: shows it, runs its experiment, gives the next
-- answer (for a goal, a line of code to run, then it is checked). Returns
-- whether the step went right (its experiment ran, its question was
-- answered right). next_answer(step, state) gives the answer, once the experiment
-- has run: from a file (a goal's code then runs as the student's own, with
-- full rights), or the lab's own (--check-lab), with the function that runs
-- a goal's code as the lab's, in its sandbox.
local function batch_step(state, step, next_answer)
  runner.show_step(state)
  local ask = step.ask
  if ask and ask.predict then   -- predicted first, then run; never right or wrong
    local prediction = next_answer(step, state)
    print(say("prediction_line", tostring(prediction)))
    labs.answer(prediction)
    return not step.run or runner.run_experiment(state, step.run)
  end
  local ran, why = true, nil
  if step.run then
    print("> " .. visible(step.run):gsub("\n", "\n> "))
    ran, why = runner.run_experiment(state, step.run)
  end
  if not ask then return ran, why end
  local given, run_goal_code = next_answer(step, state)
  if given == nil then error(say("no_answer_for", state.index), 0) end
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
-- of the experiments that failed, by step; and the run's state.
local function run_batch(definition, next_answer)
  core.sandbox_new_lab()
  progress.update(definition.id, "reset")
  local state = runner.start(definition)
  local wrong, run_errors = {}, {}
  for i, step in ipairs(definition.steps) do
    state.index = i
    local right, why = batch_step(state, step, next_answer)
    if not right then wrong[#wrong + 1] = i end
    run_errors[i] = why
  end
  state.warned = state.index   -- the batch is over: finish, answered or not
  labs.next()
  return wrong, run_errors, state
end

-- Runs every step with the answers from a file; true when every question was
-- answered right. The student's saved progress is left alone unless save.
local function batch(name, answers_path, save, submit_path)
  local answers, given = read_answers(answers_path), 0
  if not save then progress.use_memory() end
  if submit_path then lab_submission.student_or_fail() end
  local wrong, _, state = run_batch(lab_catalogue.find_lab(name), function() given = given + 1; return answers[given] end)
  if submit_path then lab_submission.submit(state, submit_path) end
  return #wrong == 0
end

return { batch = batch, run_batch = run_batch }
