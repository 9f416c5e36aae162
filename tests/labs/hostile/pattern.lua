-- Work done in C: a pattern with exponential backtracking.
lab { title = "pattern" }
local s = ("a"):rep(100000)
local found = s:find(".-.-.-.-b")
step { text = "x" }
