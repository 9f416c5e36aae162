-- The same through string methods and a loop in a replaced function.
lab { title = "methods" }
string.rep = function() while true do end end
step { text = "x", run = [[launch("copy", {n = 1024})]] }
step { text = "y" }
