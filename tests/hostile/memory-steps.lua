-- Memory kept from step to step: the cap is for the whole lab, not each call.
lab { title = "memory steps" }
for i = 1, 8 do
  step { text = "x", run = [[keep = keep or {}; keep[#keep + 1] = ("x"):rep(1 << 20):rep(80) .. #keep]] }
end
