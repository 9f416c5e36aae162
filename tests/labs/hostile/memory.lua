-- Memory: a string that grows past the cap, the error caught and retried.
lab { title = "memory" }
local kept = {}
local chunk = ("x"):rep(1 << 20)
for i = 1, 100 do pcall(function() kept[i] = chunk:rep(200) .. chunk:rep(100) .. i end) end
step { text = "x" }
