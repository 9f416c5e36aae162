-- A step text of 90 MB, cheap to make, that wrapping would turn into gigabytes.
lab { title = "huge text" }
step { text = ("ab "):rep(30 << 20) }
