-- Terminal controls through what an experiment returns and through a result card.
lab { title = "output" }
step { text = "x", run = [[return {["\27]0;PWNED\7\27[2J"] = 1}, "\194\155" .. "31m"]] }
step { text = "y", run = [[r = launch("copy", {n = 1024}); r.warnings = {"\27]0;PWNED\7"}; r.model.limit = "\27[2J\0"; r]] }
