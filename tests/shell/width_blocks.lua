-- width_blocks.lua: every block the shell prints fits the terminal's width ($COLUMNS,
-- which tests/shell/width.sh sets to 60, 80 and 120): a result card, the banner,
-- compare, show()'s warp maps (shared banks too), a sweep's table and chart,
-- help, info, device, kernels() and explain. A line may only pass the width
-- where it is one word that cannot break (a Nsight Compute metric's name).
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local columns = tonumber(os.getenv("COLUMNS"))
if not columns then t.skip_all("COLUMNS is not set (tests/shell/width.sh sets it)") end

local function captured(fn)
  core.capture(true)
  local ok, why = pcall(fn)
  local text = core.capture(false)
  assert(ok, why)
  return text
end

local function fits(name, text)
  local over = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do
    local width = core.util.display_width(line)
    if width > columns and line:match("^%s*(.-)$"):find(" ") then over[#over + 1] = width .. ": " .. line end
  end
  t.ok(#over == 0, string.format("%s fits %d columns%s", name, columns, #over > 0 and " (" .. over[1] .. ")" or ""))
end

local r = launch("copy")
local shared = launch("transpose", { variant = "shared" })
fits("a default launch's card", tostring(r))
fits("a shared-memory launch's card", tostring(shared))
fits("the banner", core.banner())
fits("compare of two results", tostring(compare(launch("offset", { offset = 0 }), launch("offset", { offset = 1 }))))
if columns >= 80 then   -- each result past the second adds a value, a ratio and a verdict: three fit 80 columns
  fits("compare of three results", tostring(compare(launch("offset", { offset = 0 }), launch("offset", { offset = 1 }),
                                                    launch("offset", { offset = 2 }))))
end
fits("show()", captured(function() show(r) end))
fits("show() of shared memory, with its banks", captured(function() show(shared, 1) end))
fits("a sweep's table and chart", captured(function() sweep("offset", { offset = range(0, 8) }) end))
fits("a sweep over two params", captured(function() sweep("strided", { stride = pow2(0, 3), block = { 128, 256 } }) end))
fits("help()", captured(function() help() end))
fits("help('kernel')", captured(function() help("kernel") end))
fits("info('strided') (its source is code, printed as written)", tostring(info("strided")):match("^(.-)\nkernel source"))
fits("device()", tostring(device()))
fits("kernels()", tostring(kernels()))
fits("explain()", captured(function() explain() end))
fits("explain('sectors_per_request')", captured(function() explain("sectors_per_request") end))
t.done()
