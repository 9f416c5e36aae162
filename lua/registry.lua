-- registry.lua (warplab.registry): the registry of kernel families as Lua
-- sees it: the list and the table by name that every module reads, refilled
-- in place when a family joins while the shell runs, and a launch's
-- parameters as the user writes them.
local core = require "warplab.core"
local text = require "warplab.text"

local fmt, commas = text.fmt, text.commas

-- Refilled in place when a family joins the registry while the shell runs
-- (families_changed, which C calls as core.families_changed), so that every module's reference stays current.
local families, family_by_name = {}, {}
local function families_changed()
  for i = #families, 1, -1 do families[i] = nil end
  for name in pairs(family_by_name) do family_by_name[name] = nil end
  for i, family in ipairs(core.families()) do
    families[i], family_by_name[family.name] = family, family
  end
end
families_changed()

-- A parameter's value as the user writes it: 262,144, {32,8}, "cg" as cg.
local function value_text(value)
  if type(value) == "table" then return fmt("{%d,%d}", value[1], value[2]) end
  return math.type(value) == "integer" and commas(value) or tostring(value)
end

-- "n=262,144 block=256 offset=1", in declaration order
local function params_text(kernel, params)
  local parts = {}
  for _, p in ipairs(family_by_name[kernel].params) do
    parts[#parts + 1] = p.name .. "=" .. value_text(params[p.name])
  end
  return table.concat(parts, " ")
end

return {
  families = families, family_by_name = family_by_name, families_changed = families_changed,
  value_text = value_text, params_text = params_text,
}
