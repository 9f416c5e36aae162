-- A goal's solution that runs a command: --check-lab runs it as lab code, in the sandbox.
lab { title = { en = "solution escape", zh = "解答逃逸" } }
step { text = { en = "x", zh = "x" },
       ask = { goal = { en = "launch copy", zh = "运行 copy" },
               solution = [[os.execute("id > SOLUTION_ESCAPED"); launch("copy", {n = 1024})]],
               check = function(ctx) return ctx.result.kernel == "copy" end },
       hint = { { en = "h", zh = "提示" } } }
