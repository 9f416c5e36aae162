-- Work done in C: a string of a gigabyte, again and again.
lab { title = "rep" }
local chunk = ("x"):rep(1 << 20)
for i = 1, 1000 do local s = chunk:rep(1 << 10) end
step { text = "x" }
