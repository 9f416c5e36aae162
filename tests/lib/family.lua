-- family.lua: a family's test file in its two parts, the GPU's and the
-- model's. tests/families/NAME.lua does
--   local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
--   local t = family.tap
--   family.gpu(function(device) ... end)   -- the GPU part, first
--   ...                                    -- the model part, everywhere
--   family.done()
-- run-lua runs the file on the access model: family.gpu keeps the GPU part,
-- the model part runs, and family.done runs the file again in a child
-- warplab on the machine's backend (run-lua with WARPLAB_FAMILY_PART=gpu:
-- the test kernels, the GPU tests' turn), where family.gpu runs the GPU part
-- and ends; its TAP lines join this file's, numbered on. Without a GPU the
-- part is one SKIP; with WARPLAB_REQUIRE_GPU=1 a failure (tap.require_gpu).
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local family = { tap = t }
local part = os.getenv("WARPLAB_FAMILY_PART") or "model"
local gpu_part

-- The GPU part: run here and end, in the child; kept for family.done, here.
function family.gpu(fn)
  if part == "gpu" then
    fn(t.require_gpu())
    t.done()
    os.exit(0)
  end
  gpu_part = fn
end

-- Every allowed value of a family's parameter, as the family declares them.
function family.choices(kernel, param)
  for _, p in ipairs(info(kernel).params) do
    if p.name == param then return assert(p.choices, kernel .. "." .. param .. " has no choices") end
  end
  error(kernel .. " has no param " .. param)
end

-- GPU cases { {name, params, options}, ... }: each launches, its output
-- matches the CPU reference, and (unless options.counts == false) the
-- model's counts equal the hardware's (tap.model_equals_counters).
function family.gpu_grid(cases)
  for _, case in ipairs(cases) do
    local name, params, options = case[1], case[2], case[3] or {}
    params.min_samples = 3
    local what = t.label(name, params)
    local ok, r = pcall(launch, name, params)
    if not ok then
      t.ok(false, what .. ": launches (" .. tostring(r) .. ")")
    else
      t.ok(r.correct == true, what .. ": output matches the CPU reference" .. (r.mismatch and " (" .. r.mismatch .. ")" or ""))
      if options.counts ~= false then t.model_equals_counters(what, r, options) end
    end
  end
end

local function quote(text) return "'" .. text:gsub("'", "'\\''") .. "'" end

-- One TAP line of the child's, taken into this file's count.
local function relay(line)
  local failed, rest = line:match("^(n?o?t? ?)ok %d+ (.*)$")
  local skipped = line:match("^1%.%.0 # SKIP (.*)$")
  if rest then
    t.count = t.count + 1
    if failed ~= "" then t.failed = t.failed + 1 end
    print(string.format("%sok %d %s", failed, t.count, rest))
  elseif skipped then
    t.skip("the GPU part", skipped)
  elseif not line:match("^1%.%.%d+$") then
    print((line:gsub("^([^#])", "# %1")))
  end
end

-- The GPU part's child, its lines taken in, then the plan.
function family.done()
  if gpu_part then
    local file = debug.getinfo(2, "S").source:gsub("^@", "")
    local pipe = io.popen("WARPLAB_FAMILY_PART=gpu sh " .. quote(srcdir .. "/tests/lib/run-lua") .. " " .. quote(file) .. " 2>&1")
    local before = t.failed
    for line in pipe:lines() do relay(line) end
    local _, _, status = pipe:close()
    if status ~= 0 and t.failed == before then t.ok(false, "the GPU part exits with status 0, not " .. tostring(status)) end
  end
  t.done()
end

return family
