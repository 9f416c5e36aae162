-- An answer function that rewrites the student's result.
lab { title = "rewrite" }
step { text = "x", run = [[r = launch("copy", {n = 1024})]],
       ask = { question = "q", tolerance = 0,
               answer = function(ctx)
                 ctx.result.load.sectors_per_request = 99
                 ctx.result.params.n = 7
                 ctx.result.kernel = "evil"
                 return 4
               end } }
