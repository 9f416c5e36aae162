-- Work done in C: a string of a gigabyte, again and again.
lab { title = "rep" }
for i = 1, 1000 do local s = string.rep("x", 1 << 30) end
step { text = "x" }
