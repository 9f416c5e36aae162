-- errors.lua: every kind of bad input gives one clear line naming the
-- argument and what was expected, and warplab carries on.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local function one_line(message) return not message:find("\n") end

local m = t.raises(function() launch("strided2") end,
  {"bad argument #1 to 'launch'", "unknown kernel 'strided2'", "did you mean 'strided'?"},
  "unknown kernel names the nearest one")
t.ok(one_line(m), "... in one line")
t.raises(function() launch("zzzzzz") end, {"unknown kernel 'zzzzzz'", "kernels: copy, offset, strided"},
  "unknown kernel with nothing near lists the kernels")
t.raises(function() launch(42) end, {"bad argument #1 to 'launch'"}, "a kernel name must be a string")
t.raises(function() launch() end, {"bad argument #1 to 'launch'", "string expected"}, "a kernel name is required")
t.raises(function() launch("strided", {strid = 4}) end,
  {"bad argument #2 to 'launch'", "unknown parameter 'strid' for 'strided'", "did you mean 'stride'?",
   "valid: n, block, stride"}, "unknown parameter lists the valid ones")
t.raises(function() launch("strided", {stride = "four"}) end,
  {"bad argument #2", "'stride' must be an integer, got string"}, "wrong type")
t.raises(function() launch("strided", {stride = 1.5}) end,
  {"'stride' must be an integer, got 1.5"}, "a fraction is not an integer")
t.raises(function() launch("strided", {stride = 0}) end,
  {"'stride' must be an integer from 1 to 1024, got 0"}, "out of range")
t.raises(function() launch("copy", {vec = 3}) end, {"'vec' must be 1, 2 or 4, got 3"}, "not an allowed value")
t.raises(function() launch("copy", {block = 100}) end,
  {"'block' must be a multiple of 32 from 32 to 1024, got 100"}, "block not a multiple of 32")
t.raises(function() launch("copy", {4}) end, {"parameter names must be strings"}, "positional params")
t.raises(function() launch("copy", 4) end, {"bad argument #2 to 'launch'", "table of parameters expected"},
  "params must be a table")
local huge = t.raises(function() launch("strided", {n = 1 << 30, stride = 1024}) end,
  {"bad argument #2 to 'launch'", "n=1073741824 needs 4.4 TB of device memory", "has 150.1 GB"},
  "n too large for memory names the sizes")
t.ok(one_line(huge), "... in one line")
t.raises(function() launch("offset", {{offset = 1}, {ofset = 2}}) end,
  {"bad argument #2 to 'launch'", "unknown parameter 'ofset'"}, "a bad item in a list of launches")
t.raises(function() info("nope") end, {"bad argument #1 to 'info'", "unknown kernel 'nope'"}, "info of an unknown kernel")
t.raises(function() help("nope") end, {"unknown topic 'nope'"}, "help of an unknown topic")

-- What the student sees at the prompt: core.prompt_call runs a call as the
-- prompt runs a chunk (the same message handler), so tracebacks show too.
local core = debug.getregistry()["warplab.core"]
local at_prompt = load("return (...)(select(2, ...))", "=stdin")
local function prompt_error(fn, ...)
  core.capture(true)
  local status, message = core.prompt_call(30, at_prompt, fn, ...)
  core.capture(false)
  return status == "error" and message or "(no error: " .. status .. ")"
end
-- Passes when the message is one line holding every text and no internal name.
local function clean_line(message, texts, name)
  local passed = not message:find("\n") and not message:find("launch_many", 1, true) and #message < 600
  for _, module in ipairs({ "prelude", "text", "registry", "result", "card", "warp_map", "device", "families", "help",
                            "values", "files", "chart", "export", "record", "json", "plot", "sweep", "progress", "labs",
                            "lab_release" }) do
    passed = passed and not message:find("%f[%w]" .. module .. ":%d")   -- a position in a built-in module
  end
  for _, text in ipairs(texts) do passed = passed and message:find(text, 1, true) ~= nil end
  t.ok(passed, name)
  if not passed then print("#   message: " .. message:gsub("\n", "\n#   ")) end
end

local r = launch("copy", {n = 1024})
core.capture(true)
local rs = sweep("offset", {offset = range(0, 3), n = 1024})
core.capture(false)
local changed = setmetatable({}, getmetatable(r))
for k, v in next, r do changed[k] = v end
changed.load = nil

clean_line(prompt_error(record), {"nothing is being recorded"}, "record() misused: one line, no traceback")
clean_line(prompt_error(sweep, "offset", {offset = range(0, 3), block = 7, n = 1024}),
  {"bad argument #2 to 'sweep'", "'block' must be a multiple of 32 from 32 to 1024, got 7"},
  "a sweep's bad parameter names sweep and the parameter, not an internal function")
clean_line(prompt_error(sweep, "offset", {offset = {1, "x"}, n = 1024}),
  {"bad argument #2 to 'sweep'", "'offset' must be an integer, got string"}, "... also for a bad value in a list")
clean_line(prompt_error(sweep, "nope", {offset = range(0, 3)}), {"bad argument #1 to 'sweep'", "unknown kernel 'nope'"},
  "sweep of an unknown kernel names sweep")
clean_line(prompt_error(sweep, "copy", {n = {}}), {"bad argument #2 to 'sweep'", "the list for 'n' is empty"},
  "sweep of an empty list")
clean_line(prompt_error(compare, nil, r), {"bad argument #1 to 'compare' (result of launch() expected, got nil)"},
  "compare(nil, r)")
clean_line(prompt_error(compare, r, nil), {"bad argument #2 to 'compare' (result of launch() expected, got nil)"},
  "compare(r, nil)")
clean_line(prompt_error(compare, changed, r), {"bad argument #1 to 'compare'", "whose 'load' is missing"},
  "compare of a result with a field removed names the field")
clean_line(select(2, pcall(tostring, changed)), {"whose 'load' is missing, so it cannot be shown"},
  "a result with a field removed prints one line saying so")
clean_line(prompt_error(show, changed), {"bad argument #1 to 'show'", "'load' is missing"}, "show of a changed result")
clean_line(prompt_error(rs.chart_text, rs, "bogus"), {"bad argument #1 to 'chart_text'", "got \"bogus\""},
  "results:chart_text of an unknown metric")
clean_line(prompt_error(rs.column, rs, 5), {"bad argument #1 to 'column'"}, "results:column of a number")
clean_line(prompt_error(config, {profile = r}), {"'profile' must be a device profile", "got warplab.result"},
  "config{profile = r}: one short line, the result not printed in it")
local budget = config().budget_ms
clean_line(prompt_error(config, {budget_ms = 0 / 0}), {"'budget_ms' must be a number of milliseconds", "got nan"},
  "config{budget_ms = 0/0} is refused")
t.is(config().budget_ms, budget, "... and the budget stays as it was")
local long = prompt_error(launch, ("x"):rep(300))
clean_line(long, {"unknown kernel '" .. ("x"):rep(40) .. "'..."}, "a long name is cut short in the message")
clean_line(prompt_error(help, ("y"):rep(300)), {"unknown topic '" .. ("y"):rep(40) .. "'..."}, "... in help's too")
clean_line(prompt_error(launch, "a\nb\27[2J"), {"unknown kernel 'a\\nb\\27[2J'"},
  "control characters in a name are shown as escapes, on one line")
clean_line(prompt_error(launch, "copy\0x"), {"kernel name 'copy\\0x' contains a NUL byte"}, "a kernel name with a NUL byte")
clean_line(prompt_error(info, "copy\0"), {"bad argument #1 to 'info'", "contains a NUL byte"}, "info of a name with a NUL byte")
clean_line(prompt_error(sweep, "copy\0", {n = {1, 2}}), {"bad argument #1 to 'sweep'", "contains a NUL byte"},
  "sweep of a name with a NUL byte")
clean_line(prompt_error(launch, "gather", {pattern = "random\0x", n = 1024}),
  {"'pattern' must be \"random\", \"sorted\" or \"window\", got \"random\\0x\""}, "a choice value with a NUL byte")
clean_line(prompt_error(launch, "strided", {["stride\0"] = 4, n = 1024}), {"unknown parameter 'stride\\0'"},
  "a parameter name with a NUL byte")
clean_line(prompt_error(config, {cache = "warm\0"}), {"'cache' must be", "got \"warm\\0\""}, "a setting value with a NUL byte")
clean_line(prompt_error(config, {["cache\0"] = "warm"}), {"unknown option 'cache\\0'"}, "an option name with a NUL byte")
clean_line(prompt_error(explain, "ideal\0"), {"unknown term 'ideal\\0'"}, "explain of a term with a NUL byte")

-- An error inside the student's own function keeps a traceback to it, and
-- only to it (no frame of the built-in modules).
local function mine() error("mine") end
local function misuse() sweep("offset", {offset = {1, "x"}, n = 1024}) end
local own = prompt_error(mine)
t.ok(own:find("traceback:", 1, true) and own:find("errors.lua:%d+: in") and not own:find("%[C%]"),
  "an error in the student's own function has a traceback to it")
local inside = prompt_error(misuse)
t.ok(inside:find("traceback:", 1, true) and inside:find("errors.lua:%d+: in") and not inside:find("sweep:%d"),
  "an API misuse inside the student's function: a traceback of their frames only")

-- Under --lang zh the shell words every error in Chinese as it shows it:
-- lauxlib's "bad argument" frame, Lua's runtime and syntax errors, the
-- traceback, and the C side's own messages; names and positions stay.
-- core.lang switches this run's language, as --lang zh would have set it.
local function chunk_error(code)   -- a chunk typed at the prompt, failing to load or to run
  local chunk, message = load(code, "=stdin")
  if not chunk then return core.error_text(message) end
  return prompt_error(chunk)
end
local function printed(fn, ...)
  core.capture(true)
  fn(...)
  return core.capture(false)
end
local function has_all(text, texts, name)
  local passed = true
  for _, expected in ipairs(texts) do passed = passed and text:find(expected, 1, true) ~= nil end
  t.ok(passed, name)
  if not passed then print("#   text: " .. text:gsub("\n", "\n#   ")) end
end
core.lang("zh")
clean_line(prompt_error(launch, "strided", {strid = 4, n = 1024}),
  {"第 2 个参数错误（launch）：未知参数 'strid'（核函数 'strided'）；你是不是想用 'stride'？", "可用参数：n, block, stride"},
  "zh: an unknown parameter, lauxlib's frame in Chinese")
clean_line(prompt_error(launch, "strided", {stride = 0, n = 1024}), {"'stride' 必须是 从 1 到 1024 的整数，实际为 0"},
  "zh: a parameter out of range")
clean_line(prompt_error(launch, "copy", 4), {"第 2 个参数错误（launch）：应为参数表，实际为数字"},
  "zh: lauxlib's 'expected, got' with the type in Chinese")
clean_line(chunk_error("local lanch; lanch('copy')"), {"stdin:1: 试图调用空值（局部变量 'lanch'）"}, "zh: calling a nil local")
clean_line(chunk_error("lanch('copy')"), {"stdin:1: 'lanch' 未定义；你是不是想用 'launch'？"}, "zh: a global nobody set, and the name it may have meant")
clean_line(chunk_error("local r = nil; return r.load"), {"stdin:1: 试图索引空值（局部变量 'r'）"}, "zh: indexing nil")
clean_line(chunk_error("return 1 + {}"), {"stdin:1: 试图对表做算术运算"}, "zh: arithmetic on a table")
clean_line(chunk_error("return 1 < 'x'"), {"stdin:1: 试图比较数字与字符串"}, "zh: comparing a number with a string")
clean_line(chunk_error("return 'a' .. {}"), {"stdin:1: 试图连接表"}, "zh: concatenating a table")
clean_line(chunk_error("x = = 1"), {"stdin:1: '=' 附近有意外的符号"}, "zh: an unexpected symbol")
clean_line(chunk_error("function f()\n  x = 1"), {"stdin:2: 代码结束时仍缺少 'end'（与第 1 行的 'function' 配对）"},
  "zh: a missing end names the line it closes")
clean_line(chunk_error("print(\"abc)"), {"stdin:1: 字符串到代码结束时仍未结束"}, "zh: an unfinished string")
clean_line(core.error_text("stdin:1: interrupted!"), {"stdin:1: 已中断！"}, "zh: interrupted!")
local own_zh = prompt_error(mine)
t.ok(own_zh:find("调用栈：", 1, true) and own_zh:find("errors.lua:%d+: 在") and not own_zh:find("traceback"),
  "zh: the traceback's header and frames in Chinese")
-- wrapped to the terminal: read as one text (a break between Latin words was a blank)
has_all((printed(explain, "sectors_per_request"):gsub("(%w)\n *(%w)", "%1 %2"):gsub("\n *", "")),
  {"sectors_per_request：每个 warp 请求访问的扇区数", "判断合并访问时", "Nsight Compute：l1tex__"}, "zh: explain() of a term")
has_all(printed(explain), {"explain(term) 能解释：sectors_per_request, ideal"}, "zh: explain()'s list of terms")
has_all(printed(core.command, ":zz"), {"错误：未知命令 ':zz'（命令： :help"}, "zh: an unknown colon command")
has_all(printed(core.command, ":lab"), {"用法：:lab 实验名"}, "zh: a colon command's usage")
core.lang("en")
clean_line(chunk_error("local lanch; lanch('copy')"), {"stdin:1: attempt to call a nil value (local 'lanch')"},
  "back in English, Lua's own words are left as they were")

-- A feature the device does not have: one clear line naming the need, on a
-- profile as on a GPU; the other variants of the family still run.
config{profile = "t4"}
t.raises(function() launch("prefetch", {variant = "cp_async", n = 1024}) end,
         {"'prefetch' with variant = \"cp_async\" uses cp.async, which needs sm_80 or newer; Tesla T4 (modelled) is sm_75"},
         "cp.async on a T4 names the need")
t.ok(pcall(launch, "prefetch", {variant = "register", n = 1024}), "... and the register variant runs on a T4")
config{profile = "h200"}
t.ok(pcall(launch, "prefetch", {variant = "cp_async", n = 1024}), "... and cp.async runs on the H200")

-- A global nobody set: one line naming it, and what it may have meant.
local function run(code) return function() assert(load(code, "=prompt"))() end end
t.raises(run("launch(strided)"), { "'strided' is not defined; did you mean the string \"strided\" (a kernel's name)? Quotes make a name a string" },
         "an unquoted kernel name: the string it meant")
t.raises(run("launch('strided', {load = cg})"), { "'cg' is not defined; did you mean the string \"cg\" (a value of the parameter 'load')?" },
         "an unquoted choice: the string it meant (not a silent default)")
t.raises(run("lauch('copy')"), { "'lauch' is not defined; did you mean 'launch'?" }, "a misspelt function: the one it meant")
t.raises(run("launch(stridd)"), { "'stridd' is not defined; did you mean the string \"strided\"" }, "a misspelt kernel name, unquoted: the string")
local plain = t.raises(run("print(zz)"), { "'zz' is not defined" }, "a short name with nothing near: no guess")
t.ok(not plain:find("did you mean", 1, true), "... not even io (" .. plain .. ")")
t.ok(pcall(run("defined_here = 5; assert(defined_here == 5 and rawget(_G, 'never_set') == nil)")),
     "a global set is read back, and rawget still gives nil")

-- After all that the session still works.
t.is(launch("copy", {n = 1024}).load.sectors_per_request, 4.0, "launches still work after errors")
t.done()
