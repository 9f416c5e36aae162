-- An answer function that returns a table, not a number: one line naming ask.answer, in batch and in --check-lab.
lab { title = { en = "answer table", zh = "答案是表" } }
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { question = { en = "q", zh = "问" }, answer = function(ctx) return { 4 } end },
       hint = { { en = "h", zh = "提示" } } }
