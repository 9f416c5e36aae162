-- An answer function that launches for itself and forges the result.
lab { title = "forge" }
step { text = "x", run = [[r = launch("copy", {n = 1024})]],
       ask = { question = "q", answer = function(ctx)
                 local forged = launch("strided", {stride = 32, n = 1024})
                 forged.load.sectors_per_request = 99
                 return ctx.result.load.sectors_per_request
               end } }
