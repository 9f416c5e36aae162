-- gpu_lab_claims.lua: the labs' claims on the GPU (see lab_claims.lua); SKIP
-- without a GPU, a failure with WARPLAB_REQUIRE_GPU=1.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
t.require_gpu()
t.lab_claims()
t.done()
