local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")
t.done()
