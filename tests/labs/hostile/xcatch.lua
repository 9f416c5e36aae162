-- The same with xpcall and an error handler that loops.
lab { title = "xcatch" }
while true do xpcall(function() while true do end end, function() while true do end end) end
step { text = "x" }
