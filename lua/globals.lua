-- globals.lua (warplab.globals): every global warplab gives students at the
-- prompt (and scripts run with -e or a file), each taken from the module
-- that implements it: the one list to read for "where is launch defined?".
-- Lab code does not see these: it runs in a sandbox whose allow-list is
-- lab_sandbox.lua's (`allowed`). Then, reading a global that nobody set is an error
-- naming it, with what it may have meant: a string (launch(strided) for
-- launch("strided"), {load = cg} for {load = "cg"}) or a name like it
-- (lauch for launch). main.lua requires this module last, once the others
-- are in place.
local core = require "warplab.core"
local u = require "warplab.text"
local families = require "warplab.families"
local warp_map = require "warplab.warp_map"
local help = require "warplab.help"
local sweep = require "warplab.sweep"
local plot = require "warplab.plot"
local export = require "warplab.export"
local record = require "warplab.record"
local kernel = require "warplab.kernel"
local labs = require "warplab.labs"
local sass = require "warplab.sass"
local lines = require "warplab.lines"
local C = core.globals   -- the API's functions in C (shell/api/): api.c, arguments.c, launch.c

local GLOBALS = {
  -- measuring (C)
  launch = C.launch,                   -- launch(name, params): one kernel, a result
  can = C.can,                         -- can(name, params): whether the device can run it
  device = C.device,                   -- device(): the GPU, or the modelled one
  measure_copy = C.measure_copy,       -- measure_copy(): the device's copy bandwidth, again
  alloc_alignment = C.alloc_alignment, -- alloc_alignment(count [, bytes]): where allocations land
  explain = C.explain,                 -- explain(term): what a counter means
  config = C.config,                   -- config{...}: the session's measuring options
  print = C.print,                     -- print(...): through the shell's line writer
  -- sweeps and comparisons (sweep.lua)
  sweep = sweep.sweep, range = sweep.range, pow2 = sweep.pow2, compare = sweep.compare,
  -- looking at results and kernels (warp_map.lua, families.lua, help.lua)
  show = warp_map.show, kernels = families.kernels, info = families.info, help = help.help,
  plot = plot.plot,                    -- plot(results, {...}): an SVG (PNG) chart
  export = export.export,              -- export(results, "file.csv" | "file.json")
  record = record.record,              -- record("session.json") ... record()
  -- kernels written at the prompt (kernel.lua)
  kernel = kernel.kernel, edit = kernel.edit,
  -- where and why: a launch's traffic by source line (lines.lua), a kernel's machine code (sass.lua)
  lines = lines.lines, sass = sass.sass,
  -- labs (labs.lua; the rest of the labs are colon commands)
  answer = labs.answer_global,
}
for name, value in pairs(GLOBALS) do rawset(_G, name, value) end
-- (arg, a script's arguments, is set by shell/repl/main.c.)

local messages = {
  undefined = { en = "'%s' is not defined%s", zh = "'%s' 未定义%s" },
  as_string = { en = "; did you mean the string \"%s\" (%s)? Quotes make a name a string",
                zh = "；你是不是想写字符串 \"%s\"（%s）？加上引号，名字才是字符串" },
  a_kernel = { en = "a kernel's name", zh = "核函数名" },
  a_choice = { en = "a value of the parameter '%s'", zh = "参数 '%s' 的取值" },
  like = { en = "; did you mean '%s'?", zh = "；你是不是想用 '%s'？" },
}
local say = u.messages("globals", messages)

-- The strings a student writes as arguments: kernel names and the choices of their params, with what each is.
local function known_strings()
  local strings = {}
  for _, k in ipairs(families.kernels()) do
    strings[k.name] = strings[k.name] or say("a_kernel")
    for _, p in ipairs(families.info(k.name).params) do
      if p.type == "string" then
        for _, choice in ipairs(p.choices or {}) do strings[choice] = strings[choice] or say("a_choice", p.name) end
      end
    end
  end
  return strings
end

-- The name among names nearest to name, or nil: at most 1 edit away for a
-- name of 4 to 6 letters, 2 for a longer one, none for a shorter (zz is not io).
local function nearest(name, names)
  local best, best_distance = nil, (#name <= 3 and 0 or #name <= 6 and 1 or 2) + 1
  for _, candidate in ipairs(names) do
    local distance = core.edit_distance(name, candidate)
    if distance < best_distance or (distance == best_distance and best and candidate < best) then
      best, best_distance = candidate, distance
    end
  end
  return best
end

local function hint(name)
  local strings = known_strings()
  if strings[name] then return say("as_string", name, strings[name]) end
  local globals, string_names = {}, {}
  for key in next, _G do if type(key) == "string" and not key:match("^_") then globals[#globals + 1] = key end end
  for key in next, strings do string_names[#string_names + 1] = key end
  local like = nearest(name, globals)
  if like then return say("like", like) end
  local quoted = nearest(name, string_names)
  return quoted and say("as_string", quoted, strings[quoted]) or ""
end

setmetatable(_G, {
  __index = function(_, name)
    if type(name) ~= "string" or #name > 64 then return nil end
    error(say("undefined", name, hint(name)), 2)
  end,
})

return true   -- (not the table: lauxlib would name a function "warplab.globals.launch" in its messages)
