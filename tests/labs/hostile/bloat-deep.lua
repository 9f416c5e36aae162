-- A measure whose model is a table 3,000 deep: never saved, so no later open pays for it.
lab { title = { en = "bloat deep", zh = "深层表" } }
step { text = { en = "x", zh = "x" }, run = [[r = launch("copy", {n = 1024})]],
       ask = { predict = { en = "p", zh = "p" },
               measure = function(ctx)
                 local t = {}
                 for _ = 1, 3000 do t = { t } end
                 return 4, t
               end } }
