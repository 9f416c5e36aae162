-- fuzz.lua: random calls to every function a student has at the prompt,
-- with hostile values, each judged as the student would see it: through
-- core.prompt_call, which calls a function as the prompt calls a chunk (the
-- same message handler, a watchdog), then core.after_chunk and core.print_values
-- as the prompt does after a chunk. A call fails when it hangs, when its
-- message has a traceback for an error not raised in the test's own
-- functions, names an internal function or module, runs over one line or
-- embeds over 200 characters of a value; a crash ends the run (the TAP
-- driver reports it; WARPLAB_FUZZ_VERBOSE=1 shows each call before it runs).
--   WARPLAB_FUZZ_CALLS=N (default 5000), WARPLAB_FUZZ_SEED=S (default 13),
--   WARPLAB_FUZZ_LIMIT=seconds a call may run (default 30).
-- Files go only to names made from os.tmpname(), removed at the end; plot()
-- without a file of its own is given one there (else it writes ./plot.svg).
-- Launches that leave a size parameter out get a small one (else each takes
-- up to a second); hostile sizes are still tried.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local fmt = string.format

local CALLS = tonumber(os.getenv("WARPLAB_FUZZ_CALLS")) or 5000
local SEED = tonumber(os.getenv("WARPLAB_FUZZ_SEED")) or 13
local LIMIT = tonumber(os.getenv("WARPLAB_FUZZ_LIMIT")) or 30
local VERBOSE = os.getenv("WARPLAB_FUZZ_VERBOSE") == "1"
local MARK = "fuzz: raised by the test's own function"
math.randomseed(SEED)

local function pick(list) return list[math.random(#list)] end
local function chance(p) return math.random() < p end

---------------------------------------------------------------------------
-- Describing values (for the calls that fail), names for made-up values
---------------------------------------------------------------------------

local names = setmetatable({}, { __mode = "k" })
local function named(value, name) names[value] = name; return value end

local function sorted_keys(t)
  local keys = {}
  for k in next, t do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    if type(a) == "number" or type(a) == "string" then return a < b end
    return false   -- no tostring: a key's __tostring may raise
  end)
  return keys
end

local function describe(v, depth)
  depth = depth or 0
  if names[v] then return names[v] end
  local kind = type(v)
  if kind == "string" then
    local text = fmt("%q", #v > 40 and v:sub(1, 40) or v):gsub("\\\n", "\\n")
    text = text:gsub("[^\32-\126]", function(c) return fmt("\\%d", c:byte()) end)
    return #v > 40 and fmt("%s..(%d bytes)", text, #v) or text
  elseif kind == "number" then
    if v ~= v then return "0/0" end
    if v == math.huge then return "math.huge" elseif v == -math.huge then return "-math.huge" end
    return math.type(v) == "integer" and tostring(v) or fmt("%.17g", v)
  elseif kind == "table" then
    if depth >= 2 then return "{...}" end
    local parts = {}
    for i, k in ipairs(sorted_keys(v)) do
      if i > 6 then parts[#parts + 1] = "..."; break end
      local plain = type(k) == "string" and #k <= 40 and k:match("^[%a_][%w_]*$")
      local key = plain and k or "[" .. describe(k, depth + 1) .. "]"
      parts[#parts + 1] = key .. " = " .. describe(rawget(v, k), depth + 1)
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return tostring(kind)
end

local function describe_call(name, args)
  local parts = {}
  for i = 1, args.n do parts[i] = describe(args[i]) end
  return name .. "(" .. table.concat(parts, ", ") .. ")"
end

---------------------------------------------------------------------------
-- Temporary files
---------------------------------------------------------------------------

local base = os.tmpname()
local made = { base }
local function temp(suffix)
  local path = base .. "-" .. suffix
  made[#made + 1] = path
  return path
end
local paths = {
  temp("a.csv"), temp("b.json"), temp("c.svg"), temp("d.png"), temp("e.txt"), temp("f"),
  temp("g\0.csv"), temp("h.CSV"), temp("i.json.csv"),
  base .. "/under-a-file.csv", base .. "-missing/x.json", base .. "-missing/x.svg",
}
local function stray_files()   -- plot()'s default files in the current folder
  local found = {}
  for _, name in ipairs({ "plot.svg", "plot.png" }) do
    local file = io.open(name)
    if file then file:close(); found[#found + 1] = name end
  end
  return found
end
local strays_before = #stray_files()

---------------------------------------------------------------------------
-- The hostile values
---------------------------------------------------------------------------

local function raise() error(MARK) end
local function run_prompt(fn, ...) return core.prompt_call(LIMIT, fn, ...) end
local function quietly(fn, ...)
  core.capture(true)
  local results = table.pack(pcall(fn, ...))
  core.capture(false)
  assert(results[1], results[2])
  return table.unpack(results, 2, results.n)
end

local family_names, params_of, choices_of = {}, {}, {}
for i, k in ipairs(kernels()) do
  family_names[i] = k.name
  params_of[k.name] = info(k.name).params
  for _, p in ipairs(params_of[k.name]) do
    if p.type == "string" then
      for choice in p.allowed:gmatch('"([^"]*)"') do choices_of[#choices_of + 1] = choice end
    end
  end
end
local param_names = { "n", "block", "offset", "stride", "vec", "tile", "rows", "cols", "m", "k", "bytes",
                      "load", "pattern", "layout", "variant", "cache", "min_samples", "budget_ms", "check",
                      "counters", "profile", "strid", "x", "y" }
local metric_names = { "bandwidth", "time", "sectors_per_request", "store_sectors_per_request", "dram_read",
                       "useful_fraction", "bank_conflicts" }
local words = { "launch", "result", "show", "config", "ideal", "load_sectors", "h200", "rtx4060", "cold", "warm",
                "tour", "load.sectors", "params.offset" }

local strings = {
  "", " ", "\0", "copy\0", "offset\0x", "a\nb", "tab\there", "\27[2J\27]0;title\7", "\255\254", "\195\40",
  "é", "张量", "%s%d%%", "'", '"', "\\", ("x"):rep(300), ("a"):rep(100000), ("é"):rep(150),
  ("\255"):rep(300), ("line\n"):rep(100),
}
for _, list in ipairs({ family_names, param_names, metric_names, words, choices_of, paths }) do
  for _, s in ipairs(list) do strings[#strings + 1] = s end
end

local numbers = { 0, -1, 1, 2, 3, 4, 7, 8, 16, 31, 32, 33, 64, 100, 256, 1000, 1024, -1024, 1 << 31, -(1 << 31),
                  (1 << 31) - 1, 1 << 40, math.maxinteger, math.mininteger, 0.5, 1.5, -0.0, 2.0, 2 ^ 53,
                  1e308, -1e308, 0 / 0, math.huge, -math.huge, 1e-300 }

-- Real values the API made: results, lists of results, and the rest.
local r_copy = launch("copy", { n = 1024 })
local r_offset = launch("offset", { offset = 1, n = 4096 })
local r_bank = launch("bank", { n = 1024, stride = 2 })
local r_list = launch("offset", { { offset = 0, n = 1024 }, { offset = 1, n = 1024 } })
local r_sweep = quietly(sweep, "offset", { offset = range(0, 3), n = 1024 })
local r_sweep2 = quietly(sweep, "copy", { n = { 1024, 2048 }, block = { 32, 64 } })
named(r_copy, "launch('copy', {n=1024})"); named(r_offset, "launch('offset', {offset=1, n=4096})")
named(r_bank, "launch('bank', {n=1024, stride=2})"); named(r_list, "launch('offset', {{...}, {...}})")
named(r_sweep, "sweep('offset', {offset=range(0, 3), n=1024})")
named(r_sweep2, "sweep('copy', {n={1024, 2048}, block={32, 64}})")
local results = { r_copy, r_offset, r_bank }
local lists = { r_list, r_sweep, r_sweep2 }
local others = {
  named(compare(r_copy, r_offset), "compare(...)"), named(device(), "device()"), named(info("copy"), "info('copy')"),
  named(kernels(), "kernels()"), named(alloc_alignment(2), "alloc_alignment(2)"),
  named(range(0, 3), "range(0, 3)"), named(pow2(0, 4), "pow2(0, 4)"), named(range(0, 1023), "range(0, 1023)"),
}

-- A copy of a result (or list) with one field removed or replaced by a hostile value.
local scalar
local function damaged(value)
  local copy = {}
  for k, v in next, value do copy[k] = v end
  local keys = sorted_keys(copy)
  local key = keys[math.random(#keys)]
  local replaced = chance(0.5) and scalar() or nil
  copy[key] = replaced
  return named(setmetatable(copy, getmetatable(value)), fmt("<%s with %s %s>", describe(value), tostring(key),
               replaced == nil and "removed" or "= " .. describe(replaced)))
end

local function cyclic()
  local c = {}
  c.self, c[1], c.load, c.params = c, c, c, c
  return named(c, "<a table that contains itself>")
end

local hostile_meta = {
  __index = raise, __newindex = raise, __tostring = raise, __len = raise, __eq = raise, __lt = raise,
  __le = raise, __call = raise, __concat = raise, __pairs = raise, __close = raise, __name = "fuzz.hostile",
}
local functions = {
  named(function() end, "<function returning nothing>"),
  named(raise, "<function that raises>"),
  named(function() return 0 / 0, {} end, "<function returning 0/0, {}>"),
  named(function(...) return ... end, "<function returning its arguments>"),
  print, launch, tostring,
}

function scalar()
  local roll = math.random(10)
  if roll == 1 then return nil elseif roll == 2 then return chance(0.5) end
  if roll <= 5 then return pick(numbers) end
  if roll <= 9 then return pick(strings) end
  return pick(functions)
end

local value
local function table_value(depth)
  local roll = math.random(16)
  if roll == 1 then return {} end
  if roll == 2 then return cyclic() end
  if roll == 3 then return named(setmetatable({}, hostile_meta), "<a table whose metamethods raise>") end
  if roll == 4 then
    return named(setmetatable({}, { __tostring = function() return {} end, __name = 5 }),
                 "<a table whose __tostring returns a table>")
  end
  if roll == 5 then return named(setmetatable({ kernel = "copy" }, getmetatable(r_copy)), "<a result with only its kernel>") end
  if roll == 6 then return pick(results) end
  if roll == 7 then return pick(lists) end
  if roll == 8 then return damaged(pick(results)) end
  if roll == 9 then return damaged(pick(lists)) end
  if roll == 10 then return pick(others) end
  if roll == 11 then return { pick(results), value(depth + 1) } end
  local t, count = {}, math.random(0, 4)
  for i = 1, count do
    if chance(0.5) then t[i] = value(depth + 1) else
      local key = chance(0.8) and pick(param_names) or scalar()
      if key ~= nil and key == key then t[key] = value(depth + 1) end
    end
  end
  return t
end

function value(depth)
  depth = depth or 0
  if depth < 2 and chance(0.35) then return table_value(depth) end
  local roll = math.random(20)
  if roll == 1 then return coroutine.create(print) end
  if roll == 2 then return io.stderr end
  return scalar()
end

local function some_values(low, high)
  local args = { n = math.random(low, high) }
  for i = 1, args.n do args[i] = value() end
  return args
end

local function pack(...) return table.pack(...) end

---------------------------------------------------------------------------
-- Arguments shaped like each function's, with hostile parts
---------------------------------------------------------------------------

local function kernel_name() return chance(0.85) and pick(family_names) or scalar() end

-- A parameter value: usually a plausible one, else anything.
local function param_value(list_ok)
  local roll = math.random(10)
  if roll <= 4 then return pick({ 0, 1, 2, 4, 8, 32, 64, 256, 1024 }) end
  if roll == 5 then return pick(choices_of) end
  if roll == 6 and list_ok then return pick({ range(0, 3), pow2(5, 8), { 1, 2 }, { 1, "x" }, { { 32, 8 }, { 64, 4 } }, {} }) end
  if roll == 7 then return { pick({ 32, 8, 0, -1, 1.5 }), pick({ 8, 4, 32, "y" }) } end
  return value(1)
end

local function params_table(list_ok)
  local t = {}
  for _ = 1, math.random(0, 4) do
    local key = chance(0.9) and pick(param_names) or value(1)
    if key ~= nil and key == key then t[key] = param_value(list_ok) end
  end
  return t
end

-- Small sizes for the parameters a launch leaves out (see the header).
local function with_small_sizes(name, params)
  if type(name) ~= "string" or not params_of[name] or type(params) ~= "table" or chance(0.01) then return params end
  local copy = setmetatable({}, getmetatable(params))
  for k, v in next, params do rawset(copy, k, v) end
  names[copy] = names[params]
  for _, p in ipairs(params_of[name]) do
    if p.type == "integer" and p.default >= 4096 and rawget(copy, p.name) == nil then rawset(copy, p.name, 1024) end
  end
  return copy
end

local function launch_args()
  local name = kernel_name()
  local params = chance(0.8) and params_table(false) or
                 chance(0.5) and { params_table(false), params_table(false) } or value()
  if type(params) == "table" and getmetatable(params) == nil and type(params[1]) == "table" then
    for i, p in ipairs(params) do params[i] = with_small_sizes(name, p) end
  else
    params = with_small_sizes(name, params)
  end
  return pack(name, params)
end

local function sweep_args()
  local name = kernel_name()
  local params = chance(0.85) and params_table(true) or value()
  if type(params) == "table" and getmetatable(params) == nil and chance(0.8) then
    params[pick(param_names)] = pick({ range(0, 3), pow2(5, 7), { 1, 2 }, { 32, 64 }, { 1, "x" }, range(0, 1023) })
    if chance(0.3) then params.y = chance(0.7) and pick(metric_names) or value(1) end
    if chance(0.2) then params.x = chance(0.7) and pick(param_names) or value(1) end
  end
  return pack(name, with_small_sizes(name, params))
end

local function options_table()
  local t = {}
  if chance(0.5) then t.x = chance(0.7) and pick(param_names) or value(1) end
  if chance(0.5) then t.y = chance(0.7) and pick(metric_names) or value(1) end
  if chance(0.6) then t.file = chance(0.8) and pick(paths) or value(1) end
  if chance(0.3) then t.title = value(1) end
  return t
end

-- What a student can call, and how to make its arguments.
local api = {
  launch = launch_args,
  can = launch_args,
  sweep = sweep_args,
  range = function() return pack(pick(numbers), pick(numbers), chance(0.5) and pick(numbers) or nil) end,
  pow2 = function() return pack(pick(numbers), pick(numbers)) end,
  compare = function()
    local args = { n = math.random(0, 4) }
    for i = 1, args.n do args[i] = chance(0.7) and pick(results) or value() end
    return args
  end,
  show = function() return pack(chance(0.7) and pick(results) or value(), chance(0.6) and pick(numbers) or value()) end,
  info = function() return pack(kernel_name()) end,
  help = function() return pack(chance(0.5) and pick({ "launch", "result", "config", "commands" }) or value()) end,
  kernels = function() return some_values(0, 2) end,
  device = function() return some_values(0, 2) end,
  explain = function() return pack(chance(0.5) and pick({ "ideal", "load_sectors", "l2_hit_rate" }) or value()) end,
  config = function()
    if chance(0.2) then return some_values(0, 2) end
    local t = {}
    for _ = 1, math.random(0, 2) do
      local key = chance(0.85) and pick({ "cache", "min_samples", "budget_ms", "check", "counters", "profile" }) or value(1)
      if key ~= nil and key == key then t[key] = chance(0.4) and pick({ "warm", "cold", 10, 500, true, "h200" }) or value(1) end
    end
    return pack(t)
  end,
  measure_copy = function() return some_values(0, 2) end,
  alloc_alignment = function() return pack(pick(numbers), chance(0.7) and pick(numbers) or value()) end,
  export = function()
    return pack(chance(0.6) and pick(chance(0.5) and results or lists) or value(), chance(0.7) and pick(paths) or value())
  end,
  plot = function() return pack(chance(0.7) and pick(lists) or value(), chance(0.6) and options_table() or value()) end,
  record = function()
    if chance(0.4) then return pack() end
    return pack(chance(0.7) and pick(paths) or value())
  end,
  answer = function() return some_values(0, 2) end,
  kernel = function()   -- mostly not a declaration; else one with a few fields made hostile
    if chance(0.7) then return pack(value()) end
    local spec = { name = "fuzzed", source = "extern \"C\" __global__ void fuzzed(float *a, int n) { if (threadIdx.x < n) a[threadIdx.x] = n; }",
                   params = { n = 64 }, buffers = { a = { type = "float", count = "n", output = true } }, args = { "a", "n" }, grid = 2, block = 32 }
    for _ = 1, math.random(1, 3) do
      spec[pick({ "name", "source", "params", "buffers", "args", "grid", "block", "shared", "file", "entry" })] = value(1)
    end
    return pack(spec)
  end,
  edit = function()   -- always a file to take the source from: an editor would wait for a person
    local from = value(1)
    return pack(chance(0.5) and "fuzzed" or value(), from == nil and "/nonexistent/k.cu" or from)
  end,
  print = function() return some_values(0, 4) end,
  -- lines() runs the launch again on the emulator: the small launches above, or anything
  lines = function() return pack(chance(0.7) and pick(results) or value(), chance(0.3) and value() or nil) end,
  -- sass() compiles and disassembles: rarely a real kernel (each takes most of a second)
  sass = function()
    return pack(chance(0.05) and "fuzzed" or chance(0.5) and pick(results) or value(), chance(0.5) and options_table() or value())
  end,
}
-- Methods of a results list (results:column(name) and the rest): their
-- first argument is always a results list (real or damaged), as only one has them.
local function a_results_list() return chance(0.7) and pick({ r_sweep, r_sweep2 }) or damaged(pick({ r_sweep, r_sweep2 })) end
local methods = {
  ["results:column"] = { require("warplab.sweep").Results.__index(nil, "column"), function() return pack(chance(0.6) and pick(param_names) or value()) end },
  ["results:table_text"] = { require("warplab.sweep").Results.__index(nil, "table_text"), function() return some_values(0, 1) end },
  ["results:chart_text"] = { require("warplab.sweep").Results.__index(nil, "chart_text"), function() return pack(chance(0.5) and pick(metric_names) or value()) end },
}

-- plot() without a file of its own gets one among the temporary files.
local function plot_file_inside(args)
  local options = args[2]
  args.n = math.max(args.n, 2)
  if options == nil then
    args[2] = { file = temp("default.svg") }
  elseif type(options) == "table" and rawget(options, "file") == nil then
    local copy = setmetatable({}, getmetatable(options))
    for k, v in next, options do rawset(copy, k, v) end
    rawset(copy, "file", temp("default.svg"))
    args[2] = copy
  end
end

---------------------------------------------------------------------------
-- Every global function of the API is fuzzed
---------------------------------------------------------------------------

local standard = {}
for name in ("assert collectgarbage dofile error getmetatable ipairs load loadfile next pairs pcall rawequal " ..
             "rawget rawlen rawset require select setmetatable tonumber tostring type xpcall warn"):gmatch("%S+") do
  standard[name] = true
end
local missing = {}
for _, name in ipairs(sorted_keys(_G)) do
  if type(_G[name]) == "function" and not standard[name] and not api[name] then missing[#missing + 1] = name end
end
t.ok(#missing == 0, "every function a student has is fuzzed" ..
     (#missing > 0 and " (not: " .. table.concat(missing, ", ") .. ")" or ""))

---------------------------------------------------------------------------
-- Judging what the student sees
---------------------------------------------------------------------------

-- Internal functions, positions in the built-in modules ("sweep:258:"), Lua's
-- words for an error inside code (the student wrote none of these).
local INTERNAL = { "launch_many", "core%.", "%f[%w]prelude:%d", "%f[%w]text:%d", "%f[%w]registry:%d",
                   "%f[%w]result:%d", "%f[%w]card:%d", "%f[%w]warp_map:%d", "%f[%w]device:%d", "%f[%w]families:%d",
                   "%f[%w]help:%d", "%f[%w]values:%d", "%f[%w]sweep:%d", "%f[%w]export:%d",
                   "%f[%w]labs:%d", "%f[%w]plot:%d", "%f[%w]chart:%d", "%f[%w]progress:%d", "%[C%]", "to '%?'",
                   "'warp'", "'write_file'", "%(local '", "%(upvalue '", "%(field '", "%(method '", "%(global '",
                   "%(constant '", "attempt to ", "stack overflow" }
for _, s in ipairs(strings) do
  for _, pattern in ipairs(INTERNAL) do assert(not s:find(pattern), "a hostile string looks internal: " .. s) end
end

-- The strings in a call's arguments longer than 200 bytes.
local function long_strings(args)
  local found, seen = {}, {}
  local function walk(v, depth)
    if type(v) == "string" and #v > 200 then found[#found + 1] = v:sub(1, 201)
    elseif type(v) == "table" and depth < 3 and not seen[v] then
      seen[v] = true
      for k, x in next, v do walk(k, depth + 1); walk(x, depth + 1) end
    end
  end
  for i = 1, args.n do walk(args[i], 0) end
  return found
end

-- The ways a message fails, each a short name.
local function faults(message, args)
  local found = {}
  local text, trace = message:match("^(.-)\n  traceback:\n(.*)$")
  text = text or message
  if trace then
    local own = text:find(MARK, 1, true)
    for line in trace:gmatch("[^\n]+") do own = own and line:find("fuzz.lua:%d+:") end
    if not own then found[#found + 1] = "traceback" end
  end
  for _, pattern in ipairs(INTERNAL) do
    if text:find(pattern) then found[#found + 1] = "internal name"; break end
  end
  if text:find("\n") then found[#found + 1] = "over one line" end
  local long = #text > 1000
  for _, s in ipairs(long_strings(args)) do long = long or text:find(s, 1, true) ~= nil end
  if long then found[#found + 1] = "huge value" end
  return found
end

local tally = { calls = 0, errors = 0, hang = 0, traceback = 0, ["internal name"] = 0, ["over one line"] = 0,
                ["huge value"] = 0, ["outside the folder"] = 0 }
local examples, failing, signatures = {}, {}, {}
local function note(kind, call, message)
  tally[kind] = tally[kind] + 1
  local name = call:match(" then (after_chunk)$") or call:match("^[%w_:]+")
  local where = "all"
  failing[name] = (failing[name] or 0) + 1
  examples[kind] = examples[kind] or {}
  local list = examples[kind][where] or { count = 0 }
  examples[kind][where] = list
  list.count = list.count + 1
  message = message or ""
  -- one example of each kind of message: quoted text and numbers aside
  local signature = kind .. where .. message:gsub("%b''", ""):gsub('%b""', ""):gsub("[%d.]+", "")
  if signatures[signature] or #list >= 12 then return end
  signatures[signature] = true
  if #message > 400 then message = message:sub(1, 400) .. fmt("..(%d bytes)", #message) end
  list[#list + 1] = call .. "\n    -> " .. message:gsub("\n", "\n       ")
end

-- Runs one call as the prompt would, then after_chunk and show as the prompt does.
local at_prompt = load("return (...)(select(2, ...))", "=stdin")
local function judge(call, args, status, message)
  if status == "timeout" then return note("hang", call, fmt("still running after %d s", LIMIT)) end
  if status ~= "error" then return end
  tally.errors = tally.errors + 1
  for _, kind in ipairs(faults(message, args)) do note(kind, call, message) end
end

local function run_call(name, fn, args)
  local call = describe_call(name, args)
  if VERBOSE then print("# " .. call) end
  core.capture(true)
  local outcome = table.pack(run_prompt(at_prompt, fn, table.unpack(args, 1, args.n)))
  judge(call, args, outcome[1], outcome[2])
  if outcome[1] == "ok" then
    judge(call .. " then after_chunk", args, run_prompt(core.after_chunk, call, table.unpack(outcome, 2, outcome.n)))
    if outcome.n > 1 then
      judge(call .. " then show", args, run_prompt(core.print_values, table.unpack(outcome, 2, outcome.n)))
    end
  end
  core.capture(false)
  tally.calls = tally.calls + 1
  if strays_before == 0 then
    for _, stray in ipairs(stray_files()) do
      note("outside the folder", call, "wrote " .. stray)
      os.remove(stray)
    end
  end
end

local targets = {}
for _, name in ipairs(sorted_keys(api)) do targets[#targets + 1] = { name, _G[name], api[name] } end
for _, name in ipairs(sorted_keys(methods)) do targets[#targets + 1] = { name, methods[name][1], methods[name][2] } end

for _ = 1, CALLS do
  local target = pick(targets)
  local name, fn, make = target[1], target[2], target[3]
  local args = chance(0.75) and make() or some_values(0, 5)
  if methods[name] then args = table.pack(a_results_list(), table.unpack(args, 1, args.n)) end
  if name == "plot" then plot_file_inside(args) end
  run_call(name, fn, args)
end

---------------------------------------------------------------------------
-- The figures and the verdicts
---------------------------------------------------------------------------

print(fmt("# %d calls (seed %d): %d errors, %d hangs, %d internal tracebacks, %d internal names, " ..
          "%d over one line, %d huge values, %d files outside the folder", tally.calls, SEED, tally.errors,
          tally.hang, tally.traceback, tally["internal name"], tally["over one line"], tally["huge value"],
          tally["outside the folder"]))
local by_function = {}
for _, name in ipairs(sorted_keys(failing)) do by_function[#by_function + 1] = name .. " " .. failing[name] end
if #by_function > 0 then print("# faults by function: " .. table.concat(by_function, ", ")) end
local function show_examples(list)
  for _, example in ipairs(list) do print("#   " .. example:gsub("\n", "\n#   ")) end
end
local function verdict(kind, name)
  local found = examples[kind] and examples[kind].all
  if not t.ok(not found, fmt("%s (%d of %d calls)", name, found and found.count or 0, tally.calls)) then
    show_examples(found)
  end
end
verdict("hang", "no call hangs")
verdict("traceback", "no traceback for an error the student's own code did not raise")
verdict("internal name", "no message names an internal function or module")
verdict("over one line", "every message is one line")
verdict("huge value", "no message embeds a huge value")
verdict("outside the folder", "no file is written outside the temporary files")

for _, path in ipairs(made) do os.remove(path) end
core.capture(false)
t.is(launch("copy", { n = 1024 }).load.sectors_per_request, 4.0, "warplab still works after the fuzz")
t.done()
