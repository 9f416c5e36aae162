-- error(r) with a result as the error value: one short line, not a whole result card.
lab { title = { en = "error card", zh = "错误卡片" } }
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 1024}); error(r)]] }
step { text = { en = "y", zh = "y" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { question = { en = "q", zh = "问" }, answer = function(ctx) error(ctx.result) end } }
