-- A lab that rewrites the standard tables: only its own copies change.
lab { title = "tables" }
string.rep = function() return "PWNED" end
string.format = function() return "PWNED" end
math.floor = function() return 100 end
table.concat = function() return "PWNED" end
utf8.len = function() while true do end end
step { text = "x", run = [[launch("strided", {stride = 8, n = 1 << 16})]],
       ask = { question = "q", answer = function(ctx) return ctx.result.load.sectors_per_request end, tolerance = 0.01 } }
