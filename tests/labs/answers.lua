-- lab_answers.lua: answers read as people write them, and predictions that
-- are taken before the run, set beside it after, and never judged.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local labs = core.labs
local lab_answers = require "warplab.lab_answers"
local lab_text = require "warplab.lab_text"
require("warplab.progress").use_memory()

-- Numbers as people write them.
for _, case in ipairs({
  { "4", 4 }, { " 4 ", 4 }, { "4 sectors", 4 }, { "5.00 sectors/request", 5 }, { "25%", 25 }, { "25 %", 25 },
  { "32,768", 32768 }, { "32 768", 32768 }, { "1,048,576", 1048576 }, { "1.5e3", 1500 }, { "2^20", 1048576 },
  { "-3", -3 }, { "12.5", 12.5 }, { "62.9 MB", 62.9 }, { "4814 GB/s", 4814 },
}) do
  t.is(lab_answers.read_number(case[1]), case[2], "the number in '" .. case[1] .. "'")
end
for _, text in ipairs({ "one", "", "four sectors", "32,76", "12,5", "1,2,3", "nan", "inf", "--4" }) do
  t.is(lab_answers.read_number(text), nil, "'" .. text .. "' is not a number")
end
t.ok(select(2, lab_answers.read_number("25%")), "a % is noticed")

-- Numbers as a Chinese input method types them (issue 31, item 8): full-width digits and signs, Chinese units and commas.
for _, case in ipairs({
  { "4 个扇区", 4 }, { "4个", 4 }, { "４", 4 }, { "２５％", 25 }, { "32，768", 32768 }, { "１２．５", 12.5 },
  { "－3", -3 }, { "4096 字节", 4096 }, { "62.9 兆字节", 62.9 }, { "3 倍", 3 }, { "\u{3000}8\u{3000}", 8 },
}) do
  t.is(lab_answers.read_number(case[1]), case[2], "the number in '" .. case[1] .. "'")
end
t.ok(select(2, lab_answers.read_number("25％")), "a full-width ％ is noticed")
t.is(lab_answers.read_number("四"), nil, "'四' is not read as a number")
t.is(lab_answers.read_choice("ｂ", { "x", "y" }), 2, "a full-width letter names a choice")

-- Units as each language writes them.
local units = {}
for _, lang in ipairs({ "en", "zh" }) do
  core.lang(lang)
  units[lang] = {}
  for _, unit in ipairs({ "sectors/request", "sectors", "bytes", "requests/warp", "floats/pixel", "MB", "%" }) do
    units[lang][#units[lang] + 1] = lab_text.unit_text(unit)
  end
end
core.lang("en")
t.is(table.concat(units.en, "; "), "sectors/request; sectors; bytes; requests/warp; floats/pixel; MB; %", "units in English as the lab gives them")
t.is(table.concat(units.zh, "; "), "扇区/请求; 个扇区; 字节; 请求/warp; float/像素; MB; %", "units in Chinese from the glossary's words")

-- Choices by number, letter or text.
local choices = { { en = "DRAM", zh = "显存" }, { en = "the L2 cache", zh = "L2 缓存" }, { en = "L1", zh = "L1" } }
for _, case in ipairs({ { "2", 2 }, { "b", 2 }, { "B", 2 }, { "the L2 cache", 2 }, { "THE L2", 2 }, { "显存", 1 },
                        { "L1", 3 }, { "dram", 1 } }) do
  t.is(lab_answers.read_choice(case[1], choices), case[2], "choice '" .. case[1] .. "'")
end
for _, text in ipairs({ "4", "z", "L", "cache", "" }) do
  t.is(lab_answers.read_choice(text, choices), nil, "'" .. text .. "' names no one choice")
end

-- A lab with a number question, a choice and a prediction, driven as at the prompt.
-- The usual slips of a wrong number are named, where the unit makes them slips.
local slips = {
  { { tolerance = 0.02, relative = true }, "0.66", 1.52, "inverse" },
  { { tolerance = 0.02, relative = true, unit = "times" }, "1.5", 1.52, nil },          -- within the tolerance: right
  { { tolerance = 0.03, unit = "MB" }, "2.00", 2.097152, "mib_for_mb" },
  { { tolerance = 0.5, unit = "MiB" }, "16.8", 16, "mb_for_mib" },
  { { tolerance = 0, unit = "bytes" }, "1024", 4096, "by_element_size" },
  { { tolerance = 0, unit = "sectors/request" }, "1", 4, nil },                         -- no bytes: no element size
  { { tolerance = 0.01 }, "12.5", 0.125, "percent_for_fraction" },
  { { tolerance = 1, unit = "%" }, "0.25", 25, "fraction_for_percent" },
  { { tolerance = 0, unit = "bytes" }, "777", 4096, nil },
  { { choices = { "a", "b" } }, "1", 2, nil },
}
for _, case in ipairs(slips) do
  t.is(lab_answers.slip_of(case[1], case[2], case[3]), case[4],
       string.format("'%s' for %s (%s): %s", case[2], case[3], tostring(case[1].unit), tostring(case[4] or "no slip")))
end

local dir = os.tmpname()
local lab_file = dir .. ".lua"
local file = assert(io.open(lab_file, "w"))
file:write([=[
lab { title = "answers" }
step { text = "n", run = [[r = launch("copy", {n = 1 << 15})]],
       ask = { question = "requests?", answer = function(ctx) return ctx.result.load.requests end, unit = "requests" } }
step { text = "half", run = [[launch("copy", {n = 1024})]],
       ask = { question = "12.5?", answer = function() return 12.5 end, tolerance = 0.5, unit = "%" } }
step { text = "c", ask = { question = "where?", choices = { "DRAM", "the L2 cache", "L1" }, answer = 2 } }
step { text = "p", run = [[p = launch("strided", {stride = 2, n = 1 << 16})]],
       ask = { predict = "sectors?", unit = "sectors/request",
               measure = function(ctx) return ctx.result.load.sectors_per_request, ctx.result.model.load.sectors_per_request end },
       explain = "why: 8 sectors" }
]=])
file:close()

local said = t.said
local function attempts(step) return require("warplab.progress").get("file:" .. core.realpath(lab_file)).attempts[tostring(step)] end

said(function() labs.open(lab_file) end)
said(labs.run)
local text = said(function() labs.answer("one") end)
t.ok(text:find("Answer with a number") and attempts(1) == nil, "a non-number gets a hint and costs no attempt")
text = said(function() labs.answer("1,024 requests") end)
t.ok(text:find("Correct") and attempts(1) == 1, "1,024 requests, with separator and unit, is right at the first attempt")
said(labs.next); said(labs.run)
for _, wrong in ipairs({ "12", "13" }) do
  text = said(function() labs.answer(wrong) end)
  t.ok(text:find("Not quite") and not text:find("looks like"), wrong .. " is not 12.5, whatever the tolerance of 0.5")
end
text = said(function() labs.answer("0.125") end)
t.ok(text:find("Not quite") and text:find("That looks like a fraction; the question asks for a percentage", 1, true),
     "a fraction where a percentage is asked is named as that slip")
said(labs.next); said(labs.next)   -- unanswered: the second :next skips it
text = said(function() labs.answer("x") end)
t.ok(text:find("choice's number, letter or text") and attempts(3) == nil, "a letter beyond the choices costs no attempt")
text = said(function() labs.answer("b") end)
t.ok(text:find("Correct"), "a choice by its letter")

said(labs.next)
text = said(function() labs.answer("17") end)
t.ok(text:find("Prediction noted: 17") and not text:find("Correct") and not text:find("Not quite"),
     "a prediction before the run is noted, never judged")
text = said(labs.run)
t.ok(text:find("You predicted 17 sectors/request; your run: 8 sectors/request %(modelled%): 53%%") and
     text:find("less than you predicted") and text:find("why: 8 sectors"), "after the run: the prediction, the run, the gap and why")
text = said(function() labs.answer("8") end)
t.ok(text:find("A prediction comes before the run"), "a prediction after the run is refused")
said(labs.back); said(labs.next)
said(function() labs.answer("8") end)
text = said(function() return load("q = launch('strided', {stride = 2, n = 1 << 16})")() end)
core.capture(true); core.chunk_done("q = launch(...)", ""); text = core.capture(false)
t.ok(text:find("You predicted 8 .*just%sas you predicted"), "a run the student types is reflected on too")
text = said(labs.next)
t.ok(text:find("2 of 3 questions right on the first try") and text:find("Predictions: 1 of 1 within 10%%"),
     "the summary counts no prediction as a question (nor a non-answer as an attempt), and says how close they were")
t.is(select(3, said(function() return answer(3) end)), nil, "answer() returns nothing to print")

-- The flow: what to type next, a step without an experiment, an unanswered
-- question skipped only when asked twice, nearest lab names, the next lab.
said(function() labs.reset(lab_file) end)   -- step 1 again, nothing answered
text = said(labs.next)
t.ok(text:find("not answered yet") and not text:find("step 2 of 4"), ":next on an unanswered question asks first")
text = said(labs.next)
t.ok(text:find("step 2 of 4"), "... and a second :next skips it")
said(labs.next); said(labs.next)
text = said(labs.run)
t.ok(text:find("This step has no experiment to run"), ":run on a step without an experiment says so")
said(labs.next); said(labs.next); said(labs.back)
text = said(function() labs.answer("2") end)
t.ok(text:find("Correct%.") and text:find(":next goes on%."), "a right answer says what to type next")
for _, case in ipairs({ { "coalesce", "coalescing" }, { "aos_soa", "aos-soa" }, { "workingset", "working-set" } }) do
  local _, ok, message = said(function() labs.open(case[1]) end)
  t.ok(not ok and message:find("did you mean '" .. case[2] .. "'?", 1, true), "':lab " .. case[1] .. "' suggests " .. case[2])
end
require("warplab.progress").use_memory()
text = said(function() labs.batch("tour", (os.getenv("srcdir") or ".") .. "/tests/labs/answers/tour.txt") end)
t.ok(text:find("Next: :lab alignment %(Alignment"), "the end of a lab suggests the next one")
os.remove(lab_file); os.remove(dir)

-- A wrong choice that says why a student might pick it gets that why; a wrong one without says nothing more.
local why_file = os.tmpname() .. ".lua"
file = assert(io.open(why_file, "w"))
file:write([=[
lab { title = "why" }
step { text = "c", ask = { question = "where?", answer = 2,
       choices = { { en = "DRAM", zh = "显存", why = { en = "WHY-DRAM", zh = "为什么-显存" } }, "the L2 cache", "L1" } },
       hint = { "HINT" } }
]=])
file:close()
said(function() labs.open(why_file) end)
text = said(function() labs.answer("a") end)
t.ok(text:find("Not quite") and text:find("WHY-DRAM", 1, true), "a wrong choice shows its why")
text = said(function() labs.answer("c") end)
t.ok(text:find("Not quite") and not text:find("WHY-DRAM", 1, true), "... and another wrong choice does not show it")
os.remove(why_file)

-- Answers far from an extreme expected value: the difference is taken in
-- floats (as integers, 0 - math.mininteger wrapped to itself and read as right).
local right = lab_answers.answer_right
t.ok(not right({ question = "q" }, "0", math.mininteger) and right({ question = "q" }, tostring(math.mininteger), math.mininteger) and
     not right({ question = "q", tolerance = 0.1, relative = true }, "0", math.mininteger) and
     not right({ question = "q" }, tostring(math.maxinteger), math.mininteger),
     "an answer of 0 to an expected math.mininteger is wrong; the value itself is right")
t.done()
