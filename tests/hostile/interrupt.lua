-- Slow launches under a pcall that catches Ctrl-C: Ctrl-C still ends it.
lab { title = "interrupt" }
while true do pcall(function() while true do launch("copy", {n = 1 << 20}) end end) end
step { text = "x" }
