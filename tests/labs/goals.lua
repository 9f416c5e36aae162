-- goals.lua: a goal's feedback comes from the student's launch, not from the
-- attempt count (issue 31, item 1). Each part of ask.needs is listed, met or
-- missed, with what warp 0 shows (the buffer, how far apart its lanes are,
-- how many words share a bank, the first wrong element), and the hint shown
-- is the one attached to the first cause missed.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local labs = core.labs
require("warplab.progress").use_memory()

local lab_file = os.tmpname() .. ".lua"
local file = assert(io.open(lab_file, "w"))
file:write([=[
lab { title = "goals" }
step { text = "stride", run = [[r = launch("strided", {stride = 2, n = 1 << 16})]],
       ask = { goal = "strided at 4 sectors a request", solution = [[launch("strided", {stride = 1, n = 1 << 16})]],
               needs = { kernel = "strided", load_sectors = 4 } },
       hint = { { en = "HINT-GENERAL" }, { en = "HINT-SECTORS", zh = "提示-扇区", cause = "load_sectors" },
                { en = "HINT-KERNEL", cause = "kernel" } },
       explain = "EXPLAIN-STRIDE" }
step { text = "align", run = [[launch("offset", {offset = 1, n = 262144})]],
       ask = { goal = "aligned", solution = [[launch("offset", {offset = 0, n = 262144})]],
               needs = { kernel = "offset", params = { n = 262144 }, load_sectors = 4 } },
       hint = { { en = "HINT-ALIGN", cause = "load_sectors" }, { en = "HINT-N", cause = "params" } } }
step { text = "banks", run = [[launch("transpose", {variant = "shared", tile = 32, rows = 256, cols = 256})]],
       ask = { goal = "no conflicts", solution = [[launch("transpose", {variant = "padded", tile = 32, rows = 256, cols = 256})]],
               needs = { kernel = "transpose", shared = true, bank_conflicts = 0 } },
       hint = { { en = "HINT-CONFLICTS-FIRST" }, { en = "HINT-PAD", cause = "bank_conflicts" } } }
step { text = "own",
       kernel = { name = "tripled", params = { n = { default = 4096, min = 32, max = 1 << 20 } },
                  skeleton = [[extern "C" __global__ void tripled(const float *in, float *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 2.0f * in[i]; }]],
                  solution = [[extern "C" __global__ void tripled(const float *in, float *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 3.0f * in[i]; }]],
                  buffers = { ["in"] = { type = "float", count = function(p) return p.n end },
                              out = { type = "float", count = function(p) return p.n end, output = true } },
                  args = { "in", "out", "n" }, grid = function(p) return (p.n + 255) // 256 end, block = 256,
                  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = 3 * b["in"][i] end end },
       run = [[r = launch("tripled")]],
       ask = { goal = "tripled, correct", solution = [[launch("tripled")]], needs = { kernel = "tripled", correct = true } },
       hint = { { en = "HINT-OUTPUT", cause = "output" }, { en = "HINT-SECTORS-OWN", cause = "load_sectors" } },
       explain = "EXPLAIN-OWN" }
step { text = "custom", run = [[launch("copy", {n = 1 << 14})]],
       ask = { goal = "a check of its own", solution = [[launch("copy", {n = 1 << 15})]],
               check = function(ctx)
                 if ctx.result.params.n < 1 << 15 then return false, "too_small" end
                 return true
               end },
       hint = { { en = "HINT-ANY" }, { en = "HINT-TOO-SMALL", cause = "too_small" } } }
step { text = "slow", run = [[launch("copy", {n = 1 << 14})]],
       ask = { goal = "fast", solution = [[launch("copy", {n = 1 << 14})]], needs = { time_ms = 1e-9 } } }
]=])
file:close()

local function said(fn)   -- what fn printed, and the error it raised if it did
  local text, ok, value = t.said(fn)
  return ok and text or text .. tostring(value)
end
local function has(text, pattern)   -- as the student reads it: lines wrapped to the terminal joined again
  text = text:gsub("%s+", " ")
  local found = text:find(pattern, 1, true) ~= nil
  if not found and os.getenv("GOALS_DEBUG") then print("# wanted: " .. pattern); print((text:gsub("\n", "\n# "))) end
  return found
end

said(function() labs.open(lab_file) end)

-- Step 1: a stride of 2 floats; then the kernel wrong.
said(labs.run)
local text = said(function() labs.answer("x") end)
t.ok(has(text, "Not quite (attempt 1).") and has(text, "kernel strided") and
     has(text, "loads: 8.00 sectors per request, the goal at most 4.") and
     has(text, "In warp 0, in[]: neighbouring lanes are 8 bytes apart, so its 32 lanes touch 8 sectors where 4 would hold their bytes."),
     "a stride: the loads part missed, naming the buffer, the distance between lanes and the sectors against the ideal")
t.ok(has(text, "HINT-SECTORS") and not has(text, "HINT-GENERAL"), "... and the hint attached to that cause, not the first in the list")
t.ok(not has(text, "EXPLAIN-STRIDE"), "... without the explanation, which waits for the solution")
said(function() return load([[launch("copy", {n = 1 << 14})]])() end)
text = said(function() labs.answer("x") end)
t.ok(has(text, "this launch ran copy; the goal is about strided") and has(text, "HINT-KERNEL") and not has(text, "loads:"),
     "another kernel launched: the kernel part missed, its hint, and no other part read off another kernel")
text = said(labs.hint)
t.ok(has(text, "HINT-GENERAL"), ":hint when the cause's hints are spent: the next hint attached to no cause")
text = said(labs.hint)
t.ok(has(text, "No more hints for this step."), "... and then no more: not a hint for another cause")
for _ = 1, 2 do text = said(function() labs.answer("x") end) end
t.ok(has(text, "Not quite (attempt 4).") and not has(text, "EXPLAIN-STRIDE"), "a goal missed three times gives no explanation as if it were met")
said(function() return load([[launch("strided", {stride = 1, n = 1 << 16})]])() end)
text = said(function() labs.answer("x") end)
t.ok(has(text, "Correct.") and has(text, "EXPLAIN-STRIDE"), "met: correct, and the explanation")

-- Step 2: misaligned, then a parameter changed.
said(labs.next); said(labs.run)
text = said(function() labs.answer("x") end)
t.ok(has(text, "In warp 0, a[]: its lanes' bytes are contiguous but start 4 bytes into a sector, so they span 5 sectors, not 4.") and
     has(text, "HINT-ALIGN"), "misaligned: where the warp starts in its sector, and the sectors it spans")
said(function() return load([[launch("offset", {offset = 0, n = 1024})]])() end)
text = said(function() labs.answer("x") end)
t.ok(has(text, "n = 1024; the goal keeps n = 262144") and has(text, "HINT-N"), "a parameter the goal keeps: its value against the goal's")
said(function() return load([[launch("offset", {offset = 0, n = 262144})]])() end)
t.ok(has(said(function() labs.answer("x") end), "Correct."), "... and met")

-- Step 3: a 32-way bank conflict.
said(labs.next); said(labs.run)
text = said(function() labs.answer("x") end)
t.ok(has(text, "shared loads: ") and has(text, "bank conflicts, the goal at most 0.") and
     has(text, "its lanes' words are 128 bytes apart, a multiple of 128, so 32 of them fall in one bank. Padding each row"),
     "bank conflicts: which access, how many words share a bank, and why padding helps")
t.ok(has(text, "HINT-PAD") and not has(text, "HINT-CONFLICTS-FIRST"), "... and the pad hint, chosen by the cause")

-- Step 4: a kernel of the student's with the wrong output (a goal not met: :next twice).
said(labs.next); said(labs.next); said(labs.run)
text = said(function() labs.answer("x") end)
t.ok(has(text, "its output is wrong: out[") and has(text, "HINT-OUTPUT") and not has(text, "HINT-SECTORS-OWN"),
     "wrong output: the first wrong element, and the hint for output, not the one for sectors")
t.ok(not has(text, "EXPLAIN-OWN"), "... and no explanation")

-- Step 5: a check of the lab's own gives its cause beside false.
said(labs.next); said(labs.next); said(labs.run)
text = said(function() labs.answer("x") end)
t.ok(has(text, "HINT-TOO-SMALL") and not has(text, "HINT-ANY"), "a lab's check returns false and a cause: the hint attached to it")

-- Step 6: a time goal.
said(labs.next); said(labs.next); said(labs.run)
text = said(function() labs.answer("x") end)
t.ok(text:find("time [%d.e%-]+ ms, the goal at most 1e%-09 ms") ~= nil, "a time part missed: the launch's time against the goal's")

-- In Chinese.
core.lang("zh")
said(function() labs.reset(lab_file) end)
said(function() labs.reset(lab_file) end)
said(labs.run)
text = said(function() labs.answer("x") end)
local joined = text:gsub("%s+", "")   -- Chinese wraps between characters
t.ok(has(joined, "按目标的各个部分看你最近的一次启动：") and has(joined, "读取：每请求8.00个扇区，目标是至多4。") and
     has(joined, "相邻线程的地址相隔8字节") and has(joined, "提示-扇区"), "in Chinese: the parts, the pattern and the hint")
core.lang("en")
os.remove(lab_file)

-- What a lab declares is checked when it loads.
local function load_error(needs, hint)
  local source = ([[lab { title = "bad" }
step { text = "x", ask = { goal = "g", needs = %s }, hint = %s }]]):format(needs, hint or "nil")
  local ok, why = pcall(require("warplab.lab_definition").load, "bad", source)
  return not ok and tostring(why) or ""
end
t.ok(has(load_error("{ sectors = 4 }"), "ask.needs.sectors is not a part a goal can have (kernel, params, correct, shared, load_sectors,"),
     "an unknown part is named, with the parts a goal can have")
t.ok(has(load_error("{ load_sectors = '4' }"), "ask.needs.load_sectors must be a number, 0 or more, got string"),
     "a part's value of the wrong kind is named, with what it must be")
t.ok(has(load_error("{ correct = false }"), "ask.needs.correct must be true, got boolean"), "correct = false is refused")
t.ok(has(load_error("{ load_sectors = 4 }", "{ { en = 'x', cause = 3 } }"), "'hint' must be a list of texts, each with an optional cause"),
     "a hint's cause must be a name")
t.ok(has(load_error("{ load_sectors = 4 }", "{ { en = 'x', cause = { 'load_sectors', 'output' } } }"), "") and
     load_error("{ load_sectors = 4 }", "{ { en = 'x', cause = { 'load_sectors', 'output' } } }") == "",
     "a hint may answer a list of causes")


t.done()
