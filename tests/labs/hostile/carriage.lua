-- A carriage return that would hide the first statement on a terminal.
lab { title = "carriage" }
step { text = "x", run = "io = nil; print('hidden ran')\rlaunch(\"copy\", {n = 1024})" }
