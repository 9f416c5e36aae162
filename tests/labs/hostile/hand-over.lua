-- An experiment that tries to replace the student's functions and libraries.
lab { title = "hand over" }
step { text = "x", run = [[launch = 1; print = "x"; string = {}; config = nil; kept = 42; r = launch]] }
