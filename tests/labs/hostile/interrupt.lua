-- Slow launches under a pcall that catches Ctrl-C: Ctrl-C still ends it.
-- (In a step, whose launches may take 20 s of CPU, not in the body, whose 1 s
-- would end it first; small launches, on one model thread on any machine.)
lab { title = "interrupt" }
step { text = "x", run = [[while true do pcall(function() while true do launch("copy", {n = 1 << 14}) end end) end]] }
