-- A lab that looks for warplab's own Lua modules: no require, no package, and
-- no module table through anything it is given (its body and its experiment).
local reached = {}
local function look(where, value) if value ~= nil then reached[#reached + 1] = where end end
look("require", require); look("package", package); look("_G.require", _G.require); look("_G.package", _G.package)
look("getmetatable", getmetatable); look("debug", debug); look("load", load); look("dofile", dofile)
for name, t in pairs({ string = string, table = table, math = math, utf8 = utf8 }) do
  look(name .. ".package", t.package); look(name .. ".require", t.require)
end
print("body reached: " .. (#reached == 0 and "nothing" or table.concat(reached, ", ")))
lab { title = "modules" }
step { text = "x", run = [[print("experiment reached: " .. tostring(require) .. " " .. tostring(package))]] }
