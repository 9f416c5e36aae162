-- Memory kept from step to step: the cap is for the whole lab, not each call.
-- Four steps of 80 MiB: the third passes the 256 MiB cap. (Each step scans
-- every string the lab keeps for terminal controls, so more steps cost more
-- than linearly: eight took over 180 s on a loaded CI machine.)
lab { title = "memory steps" }
for i = 1, 4 do
  step { text = "x", run = [[keep = keep or {}; keep[#keep + 1] = ("x"):rep(1 << 20):rep(80) .. #keep]] }
end
