-- A lab body that launches for minutes: :labs, which runs every lab's body to list it, must not wait.
lab { title = "budget body" }
launch("matmul", { m = 2048, n = 2048, k = 2048 })   -- 6 minutes, 48 MB
step { text = "never reached" }
