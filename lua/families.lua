-- families.lua (warplab.families): the kernel families as students read
-- them: kernels(), the list with each one's summary and what it teaches,
-- and info(name), a family's declaration (its parameters with their types,
-- defaults and allowed values, and its source), in the session's language.
local core = require "warplab.core"
local text = require "warplab.text"
local registry = require "warplab.registry"
local result = require "warplab.result"
local files = require "warplab.files"

local hanging, pad, wrap, localized, quote = text.hanging, text.pad, text.wrap, text.localized, text.quote
local families, family_by_name, value_text = registry.families, registry.family_by_name, registry.value_text
local guarded = result.guarded
local copy_table = files.copy_table

local messages = {
  teaches = { en = "teaches: %s", zh = "教学要点：%s" },
  parameters = { en = "parameters:", zh = "参数：" },
  default = { en = "default", zh = "默认值" },
  source = { en = "kernel source (as compiled):", zh = "核函数源码（编译所用）：" },
  type_integer = { en = "integer", zh = "整数" },
  type_string = { en = "string", zh = "字符串" },
  ["type_block shape"] = { en = "block shape", zh = "线程块形状" },
  kernel_expected = { en = "kernel name expected, got %s", zh = "需要核函数名，得到 %s" },
  bad_info = { en = "bad argument #1 to 'info' (%s)", zh = "bad argument #1 to 'info' (%s)" },
  -- what a kernels() list or an info() table whose fields were changed is called
  kind_kernels = { en = "a kernels() list", zh = "kernels() 列表" },
  kind_info = { en = "an info() table", zh = "info() 表" },
}
local say = text.messages("families", messages)

local KernelList = { __name = "warplab.kernels" }

KernelList.__tostring = guarded(messages.kind_kernels, function(list)
  local lines = {}
  for _, k in ipairs(list) do lines[#lines + 1] = hanging("  " .. pad(k.name, 13) .. " ", k.summary) end
  return table.concat(lines, "\n")
end)

-- kernels(): the kernel families, each {name=, summary=, teaches=}, in the session's language.
local function kernels()
  local list = {}
  for i, f in ipairs(families) do
    list[i] = { name = f.name, summary = localized(f, "summary"), teaches = localized(f, "teaches") }
  end
  return setmetatable(list, KernelList)
end

local Info = { __name = "warplab.info" }

local function info_text(f)
  local lines = {
    f.name .. " — " .. localized(f, "summary"),
    say("teaches", localized(f, "teaches")),
    say("parameters"),
  }
  for _, p in ipairs(f.params) do
    local default = type(p.default) == "table" and value_text(p.default) or tostring(p.default)
    local kind = messages["type_" .. p.type] and say("type_" .. p.type) or p.type
    lines[#lines + 1] = table.concat({ "  " .. pad(p.name, 8), pad(kind, 8), say("default"), pad(default, 12),
                                       p.allowed }, " ")
    lines[#lines + 1] = "  " .. pad("", 8) .. " " .. localized(p, "doc")
  end
  return table.concat(lines, "\n"), say("source") .. "\n" .. f.source
end
-- The declaration wrapped to the terminal; the source as it is written: code is never reflowed.
Info.__tostring = guarded(messages.kind_info, function(f)
  local declaration, source = info_text(f)
  return wrap(declaration) .. "\n" .. source
end)

-- Why name is not a kernel's ("kernel name expected, got 5", "unknown kernel
-- 'x' ..."), or nil: what info() and sweep() check first.
local function kernel_problem(name)
  return type(name) ~= "string" and say("kernel_expected", quote(name)) or core.kernel_problem(name)
end

-- info(name): a family's declaration: summary, parameters, what it teaches, source.
local function info(name)
  local problem = kernel_problem(name)
  if problem then error(say("bad_info", problem), 2) end
  return setmetatable(copy_table(family_by_name[name]), Info)
end

return { kernels = kernels, info = info, kernel_problem = kernel_problem }
