-- A step whose experiment is not code: one clear line naming the step and field.
lab { title = "bad fields" }
step { text = "x" }
step { text = "y", run = { "launch('copy')" } }
