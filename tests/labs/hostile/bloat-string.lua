-- A measure whose model is a 32 MiB string, and an answer function that returns one: nothing of it is saved.
lab { title = { en = "bloat string", zh = "巨大字符串" } }
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { predict = { en = "p", zh = "p" },
               measure = function(ctx) return 4, string.rep("x", 32 << 20) end } }
step { text = { en = "y", zh = "y" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { question = { en = "q", zh = "q" }, answer = function(ctx) return string.rep("y", 32 << 20) end } }
