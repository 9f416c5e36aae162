-- complete.lua: what Tab offers where a name is an argument, worked out from
-- the line (shell/repl/complete.c asks, and falls back to Lua's own names):
--   launch("str|   info(" can(" sweep("   kernel names (edit(": yours)
--   explain("|     help("|                terms, topics
--   launch("strided", {st|                 the kernel's params, and the launch options
--   launch("strided", {load = "c|          the param's choices
--   :lab |   :help |   :edit |              labs, topics, your kernels
local core = require "warplab.core"
local families = require "warplab.families"
local help = require "warplab.help"
local kernel_module = require "warplab.kernel"
local lab_catalogue = require "warplab.lab_catalogue"

local complete = {}

local KERNEL_TAKERS = { launch = true, info = true, can = true, sweep = true }
local LAUNCH_TAKERS = { launch = true, can = true, sweep = true }

local function kernel_names()
  local names = {}
  for _, k in ipairs(families.kernels()) do names[#names + 1] = k.name end
  return names
end

-- What a function's first (quoted) argument may be.
local first_argument = {
  explain = core.explain_terms, help = help.help_topics, edit = kernel_module.declared_kernels,
}

-- What a colon command's argument may be.
local command_argument = {
  [":lab"] = function() local names = lab_catalogue.names(); names[#names + 1] = "reload"; return names end, [":help"] = help.help_topics, [":edit"] = kernel_module.declared_kernels,
  [":reset"] = function() return lab_catalogue.names() end,
}

-- The params of a kernel's launch, then the measurement options (and sweep's axes).
local function param_names(kernel, fn)
  local ok, i = pcall(families.info, kernel)
  if not ok then return nil end
  local names = {}
  for _, p in ipairs(i.params) do names[#names + 1] = p.name end
  for _, name in ipairs(core.option_names()) do names[#names + 1] = name end
  if fn == "sweep" then names[#names + 1], names[#names + 2] = "x", "y" end
  return names
end

local function choices_of(kernel, param)
  local ok, i = pcall(families.info, kernel)
  if not ok then return nil end
  for _, p in ipairs(i.params) do
    if p.name == param then return p.choices end
  end
end

-- The names that fit where the line's word starts (before: the line up to it), or nil.
local function candidates(before)
  local command = before:match("^(:%a+)%s+$")
  if command then return command_argument[command] and command_argument[command]() end
  local fn = before:match("([%a_][%w_]*)%s*%(%s*[\"']$")
  if fn then
    if KERNEL_TAKERS[fn] then return kernel_names() end
    return first_argument[fn] and first_argument[fn]()
  end
  local call, kernel, inside = before:match("([%a_][%w_]*)%s*%(%s*[\"']([%w_]+)[\"']%s*,%s*{([^{}]*)$")
  if not (call and LAUNCH_TAKERS[call]) then return nil end
  local param = inside:match("([%a_][%w_]*)%s*=%s*[\"']$")
  if param then return choices_of(kernel, param) end
  if inside == "" or inside:match("[,{]%s*$") or inside:match("^%s*$") then return param_names(kernel, call) end
end

-- complete.complete(line, start, word): the completions of word, which starts at
-- byte start (from 0) of line, or nil where Lua names are what fits.
function complete.complete(line, start, word)
  local ok, names = pcall(candidates, line:sub(1, start))
  if not ok or not names then return nil end
  local fitting = {}
  for _, name in ipairs(names) do
    if name:sub(1, #word) == word then fitting[#fitting + 1] = name end
  end
  return fitting
end

return complete
