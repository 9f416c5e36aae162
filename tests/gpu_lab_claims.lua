-- gpu_lab_claims.lua: the labs' claims on the GPU (see lab_claims.lua); SKIP
-- without a GPU, a failure with WARPLAB_REQUIRE_GPU=1.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")
t.require_gpu()
local core = debug.getregistry()["warplab.core"]
for _, name in ipairs(core.lab_names()) do
  for _, c in ipairs(core.labs.check_claims(name)) do
    if c.skipped then
      print(string.format("ok %d - %s step %d: %s # SKIP %s", t.count + 1, c.lab, c.step, c.text, c.reason))
      t.count = t.count + 1
    else
      t.ok(c.holds, string.format("%s step %d: %s%s", c.lab, c.step, c.text, c.error and " (" .. c.error .. ")" or ""))
    end
  end
end
t.done()
