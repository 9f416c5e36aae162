-- A measure whose model is a table that holds itself: refused in one line, and every later save is made.
lab { title = { en = "bloat cycle", zh = "循环表" } }
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { predict = { en = "p", zh = "p" },
               measure = function(ctx) local t = {}; t[1] = t; return 4, t end } }
step { text = { en = "y", zh = "y" } }
