-- Loops inside C that an instruction count never sees: one step each.
lab { title = "c loops" }
step { text = "move", run = [[table.move({}, 1, 1 << 40, 1)]] }
step { text = "rep", run = [[string.rep("", math.maxinteger)]] }
step { text = "balance", run = [[("("):rep(100000):find("%b()")]] }
step { text = "sort", run = [[local a, b = ("x"):rep(1 << 23) .. "a", ("x"):rep(1 << 23) .. "b"
local t = {} for i = 1, 100000 do t[i] = i % 2 == 0 and a or b end; table.sort(t)]] }
step { text = "compare", run = [[local a, b = ("x"):rep(50 << 20) .. "a", ("x"):rep(50 << 20) .. "b"
local n = 0 for i = 1, 1e7 do if a < b then n = n + 1 end end]] }
step { text = "select", run = [[local t = {} for i = 1, 200000 do t[i] = i end
local n = 0 for i = 1, 1e6 do n = n + select("#", table.unpack(t)) end]] }
