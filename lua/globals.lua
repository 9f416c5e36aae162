-- globals.lua: reading a global that nobody set is an error naming it, with
-- what it may have meant: a string (launch(strided) for launch("strided"),
-- {load = cg} for {load = "cg"}) or a name like it (lauch for launch).
-- Loaded last, once everything warplab defines is in place. Lab code has
-- globals of its own (its sandbox) and reads nil as Lua does.
local core = ...
local u = core.util

local messages = {
  undefined = { en = "'%s' is not defined%s", zh = "'%s' 未定义%s" },
  as_string = { en = "; did you mean the string \"%s\" (%s)? Quotes make a name a string",
                zh = "；你是不是想写字符串 \"%s\"（%s）？加上引号，名字才是字符串" },
  a_kernel = { en = "a kernel's name", zh = "内核名" },
  a_choice = { en = "a value of the parameter '%s'", zh = "参数 '%s' 的取值" },
  like = { en = "; did you mean '%s'?", zh = "；你是不是想用 '%s'？" },
}
local say = u.messages("globals", messages)

-- The strings a student writes as arguments: kernel names and the choices of their params, with what each is.
local function known_strings()
  local strings = {}
  for _, k in ipairs(kernels()) do
    strings[k.name] = strings[k.name] or say("a_kernel")
    for _, p in ipairs(info(k.name).params) do
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
