-- lab_claims.lua: every lab's experiments run, and each claim its text makes
-- is checked against the result. tests/lib/run-lua runs this file on the sim
-- backend, where the claims about the model are checked and those only a
-- measurement can show are skipped: gpu_lab_claims.lua checks them on a GPU,
-- and check_lab.sh (warplab --check-lab) checks them on every device profile.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local checked = t.lab_claims()
t.ok(checked > 0, "claims were checked: " .. checked)
t.done()
