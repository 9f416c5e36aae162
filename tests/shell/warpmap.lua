-- warpmap.lua: the exact text of warp maps (ASCII, since tests do not
-- write to a terminal), for the pictures the labs rely on.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local function map(kernel, params, warp)
  local r = launch(kernel, params)
  return warp and (function() local lines = {}; local print_ = print
    print = function(text) lines[#lines + 1] = text end
    show(r, warp); print = print_; return table.concat(lines, "\n") end)() or r.map
end

t.is(map("offset", {offset = 1, n = 262144}), [[
warp 0 of offset  n=262,144 block=256 offset=1 load=default · lanes 0-31 are threads 0-31 · one cell = 4 bytes, # used, . fetched and unused, - not fetched
load a[] · 4-byte elements · 32 lanes · 5 sectors (ideal 4) · 128 of 160 fetched bytes used (80%)
  +0         .####### ######## ######## ########   lanes 0-30
  +128       #....... -------- -------- --------   lane 31
load b[] · 4-byte elements · 32 lanes · 5 sectors (ideal 4) · 128 of 160 fetched bytes used (80%)
  +0         .####### ######## ######## ########   lanes 0-30
  +128       #....... -------- -------- --------   lane 31
store r[] · 4-byte elements · 32 lanes · 4 sectors (ideal 4) · 128 of 128 fetched bytes used (100%)
  +0         ######## ######## ######## ########   lanes 0-31
warp 0: 3 global requests · 14 sectors · 384 of 448 fetched bytes used (86%)]], "offset 1: the fifth sector, drawn")

t.is(map("strided", {stride = 4, n = 1024}), [[
warp 0 of strided  n=1,024 block=256 stride=4 load=default · lanes 0-31 are threads 0-31 · one cell = 4 bytes, # used, . fetched and unused, - not fetched
load in[] · 4-byte elements · 32 lanes · 16 sectors (ideal 4) · 128 of 512 fetched bytes used (25%)
  +0         #...#... #...#... #...#... #...#...   lanes 0-7
  +128       #...#... #...#... #...#... #...#...   lanes 8-15
  +256       #...#... #...#... #...#... #...#...   lanes 16-23
  +384       #...#... #...#... #...#... #...#...   lanes 24-31
store out[] · 4-byte elements · 32 lanes · 4 sectors (ideal 4) · 128 of 128 fetched bytes used (100%)
  +0         ######## ######## ######## ########   lanes 0-31
warp 0: 2 global requests · 20 sectors · 256 of 640 fetched bytes used (40%)]], "stride 4: a quarter of each sector used")

local core = debug.getregistry()["warplab.core"]
t.is(map("copy", {n = 100}, 3), core.util.wrap([[
warp 3 of copy  n=100 block=256 vec=1 · lanes 0-31 are threads 96-127 · one cell = 4 bytes, # used, . fetched and unused, - not fetched
load in[] · 4-byte elements · 4 lanes · 1 sector (ideal 1) · 16 of 32 fetched bytes used (50%)
  +384       ####.... -------- -------- --------   lanes 0-3
store out[] · 4-byte elements · 4 lanes · 1 sector (ideal 1) · 16 of 32 fetched bytes used (50%)
  +384       ####.... -------- -------- --------   lanes 0-3
warp 3: 2 global requests · 2 sectors · 32 of 64 fetched bytes used (50%)]]), "a partial last warp: 4 lanes (show() wraps it to the terminal)")

t.is(map("copy", {n = 100}, 4):match("warp 4: (%d+) global requests"), "0", "an idle warp (threads 128-159 of n=100) makes no request")
t.raises(function() show(launch("copy", {n = 64}), 8) end, {"bad argument #2 to 'show'", "warp must be from 0 to 7"},
         "a warp past the launch")
t.raises(function() show(42) end, {"bad argument #1 to 'show'"}, "show needs a result")
t.done()
