-- Launches in a loop: their CPU time counts against the step, and the one running when it is spent stops mid-way.
lab { title = "budget launches" }
step { text = "many", run = [[for i = 1, 1e6 do pcall(launch, "copy", { n = 2^24 }) end]] }
step { text = "one long", run = [[launch("matmul", { m = 2048, n = 2048, k = 2048 })]] }   -- 6 minutes, 48 MB
