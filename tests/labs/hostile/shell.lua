-- An experiment that runs a command: the sandbox has no os, in batch mode too.
lab { title = "shell" }
step { text = "x", run = [[os.execute("touch ESCAPED")]] }
