-- lab_sandbox.lua (warplab.lab_sandbox): where lab code runs. A lab's
-- body, experiments, answers, checks and claims run in a fresh environment
-- of allow-listed functions (taken when warplab starts) with the lab's own
-- copies of the standard tables, under core.sandbox_call's budget; an error
-- comes back as one clean line naming where. What a lab function judges
-- from is a copy of the student's results, and the random numbers it draws
-- are the student's own (random(key)).
local core = require "warplab.core"
local text = require "warplab.text"
local families = require "warplab.families"
local warp_map = require "warplab.warp_map"
local sweep = require "warplab.sweep"
local user_kernels = require "warplab.kernel"
local lab_text = require "warplab.lab_text"

local clean = lab_text.clean
local C = core.globals   -- the API's functions in C that students call by name

local messages = {
  lacks = { en = "%s needs sm_%d or newer; %s is sm_%s", zh = "%s 需要 sm_%d 或更新的 GPU；%s 是 sm_%s" },
  error_at = { en = "%s: %s", zh = "%s：%s" },   -- where in the lab, and what went wrong there
  error_value = { en = "the lab raised an error whose value is a %s, not a message", zh = "实验抛出的错误值是 %s，而不是一条消息" },
  students_kernel = { en = "bad argument #1 to 'info' (kernel '%s' is the student's own: a lab cannot read it)",
                      zh = "bad argument #1 to 'info' (核函数 '%s' 是学生自己的：实验不能读取它)" },
  at_line = { en = "line %s: ", zh = "第 %s 行：" },
  random_key = { en = "random(key, ...): the key must be a string or a whole number, got %s",
                 zh = "random(key, ...)：key 必须是字符串或整数，得到 %s" },
  random_list = { en = "random(key, list): the list is empty", zh = "random(key, list)：列表是空的" },
  random_range = { en = "random(key, m, n): m and n must be whole numbers with m <= n, got %s and %s",
                   zh = "random(key, m, n)：m 和 n 必须是整数且 m <= n，得到 %s 和 %s" },
}
local say = text.messages("lab_sandbox", messages)

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

local host_info, host_kernels = families.info, families.kernels

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
  info = lab_info, kernels = lab_kernels, compare = sweep.compare, explain = C.explain, show = warp_map.show,
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

-- as_student(id): lab code runs as the checker's student id (nil: as the
-- student at the prompt again); returns the table their draws go into.
local function as_student(id)
  checked_student, drawn = id, id and {} or nil
  return drawn
end

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
local function error_at(where, message) return say("error_at", where, message) end

local function guarded(where, fn, ...)
  local results = table.pack(pcall(core.sandbox_call, fn, ...))
  if not results[1] then error(error_at(where, clean(lab_error(results[2]):sub(1, MESSAGE_BYTES))), 0) end
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

return {
  sandbox = sandbox, allowed = allowed, student_id = student_id, as_student = as_student,
  student_random = student_random, hash = hash, guarded = guarded, judging = judging, copy = copy,
  lab_error = lab_error, error_at = error_at, is_finite = is_finite, what_it_gave = what_it_gave,
}
