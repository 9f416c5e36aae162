-- errors.lua: every kind of bad input gives one clear line naming the
-- argument and what was expected, and warplab carries on.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/tap.lua")

local function one_line(message) return not message:find("\n") end

local m = t.raises(function() launch("strided2") end,
  {"bad argument #1 to 'launch'", "unknown kernel 'strided2'", "did you mean 'strided'?"},
  "unknown kernel names the nearest one")
t.ok(one_line(m), "... in one line")
t.raises(function() launch("zzzzzz") end, {"unknown kernel 'zzzzzz'", "kernels: copy, offset, strided"},
  "unknown kernel with nothing near lists the kernels")
t.raises(function() launch(42) end, {"bad argument #1 to 'launch'"}, "a kernel name must be a string")
t.raises(function() launch() end, {"bad argument #1 to 'launch'", "string expected"}, "a kernel name is required")
t.raises(function() launch("strided", {strid = 4}) end,
  {"bad argument #2 to 'launch'", "unknown parameter 'strid' for 'strided'", "did you mean 'stride'?",
   "valid: n, block, stride"}, "unknown parameter lists the valid ones")
t.raises(function() launch("strided", {stride = "four"}) end,
  {"bad argument #2", "'stride' must be an integer, got string"}, "wrong type")
t.raises(function() launch("strided", {stride = 1.5}) end,
  {"'stride' must be an integer, got 1.5"}, "a fraction is not an integer")
t.raises(function() launch("strided", {stride = 0}) end,
  {"'stride' must be an integer from 1 to 1024, got 0"}, "out of range")
t.raises(function() launch("copy", {vec = 3}) end, {"'vec' must be 1, 2 or 4, got 3"}, "not an allowed value")
t.raises(function() launch("copy", {block = 100}) end,
  {"'block' must be a multiple of 32 from 32 to 1024, got 100"}, "block not a multiple of 32")
t.raises(function() launch("copy", {4}) end, {"parameter names must be strings"}, "positional params")
t.raises(function() launch("copy", 4) end, {"bad argument #2 to 'launch'", "table of parameters expected"},
  "params must be a table")
local huge = t.raises(function() launch("strided", {n = 1 << 30, stride = 1024}) end,
  {"bad argument #2 to 'launch'", "n=1073741824 needs 4.40 TB of device memory", "has 150.1 GB"},
  "n too large for memory names the sizes")
t.ok(one_line(huge), "... in one line")
t.raises(function() launch("offset", {{offset = 1}, {ofset = 2}}) end,
  {"bad argument #2 to 'launch'", "unknown parameter 'ofset'"}, "a bad item in a list of launches")
t.raises(function() info("nope") end, {"bad argument #1 to 'info'", "unknown kernel 'nope'"}, "info of an unknown kernel")
t.raises(function() help("nope") end, {"unknown topic 'nope'"}, "help of an unknown topic")

-- After all that the session still works.
t.is(launch("copy", {n = 1024}).load.sectors_per_request, 4.0, "launches still work after errors")
t.done()
