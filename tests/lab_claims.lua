-- lab_claims.lua: every lab's experiments run, and each claim its text makes
-- is checked against the result: on the sim backend the claims about the
-- model, on a GPU (WARPLAB_REQUIRE_GPU=1 there) also those only a measurement
-- can show.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")
local core = debug.getregistry()["warplab.core"]
local checked = 0
for _, name in ipairs(core.lab_names()) do
  for _, c in ipairs(core.labs.check_claims(name)) do
    if c.skipped then
      print(string.format("ok %d - %s step %d: %s # SKIP measured on a GPU only", t.count + 1, c.lab, c.step, c.text))
      t.count = t.count + 1
    else
      t.ok(c.holds, string.format("%s step %d: %s%s", c.lab, c.step, c.text, c.error and " (" .. c.error .. ")" or ""))
      checked = checked + 1
    end
  end
end
t.ok(checked > 0 or device().backend ~= "gpu", "claims were checked")
t.done()
