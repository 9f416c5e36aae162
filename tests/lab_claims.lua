-- lab_claims.lua: every lab's experiments run, and each claim its text makes
-- is checked against the result. tests/run-lua runs this file on the sim
-- backend, where the claims about the model are checked and those only a
-- measurement can show are skipped: gpu_lab_claims.lua checks them on a GPU.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")
local core = debug.getregistry()["warplab.core"]
local checked = 0
for _, name in ipairs(core.lab_names()) do
  for _, c in ipairs(core.labs.check_claims(name)) do
    if c.skipped then
      print(string.format("ok %d - %s step %d: %s # SKIP %s", t.count + 1, c.lab, c.step, c.text, c.reason))
      t.count = t.count + 1
    else
      t.ok(c.holds, string.format("%s step %d: %s%s", c.lab, c.step, c.text, c.error and " (" .. c.error .. ")" or ""))
      checked = checked + 1
    end
  end
end
t.ok(checked > 0, "claims were checked: " .. checked)
t.done()
