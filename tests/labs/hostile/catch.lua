-- A pcall loop that catches the budget error forever.
lab { title = "catch" }
while true do pcall(function() while true do end end) end
step { text = "x" }
