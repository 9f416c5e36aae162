-- A measure that returns 1/0: one line naming what the lab did wrong.
lab { title = { en = "measure inf", zh = "无穷" } }
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { predict = { en = "p", zh = "p" }, measure = function(ctx) return 1 / 0 end } }
step { text = { en = "y", zh = "y" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { predict = { en = "p", zh = "p" }, measure = function(ctx) return "four" end } }
