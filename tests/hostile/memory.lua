-- Memory: a string that grows past the cap, the error caught and retried.
lab { title = "memory" }
local kept = {}
for i = 1, 100 do pcall(function() kept[i] = ("x"):rep(1 << 27) .. ("y"):rep(1 << 27) .. i end) end
step { text = "x" }
