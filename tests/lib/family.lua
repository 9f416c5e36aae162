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
-- model's counts equal the hardware's (tap.model_equals_counters, which
-- takes options.shared and options.dram; dram = "large" compares the DRAM
-- reads only where the footprint is over twice the L2). options.show
-- prints the result as a diagnostic.
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
      local compare = options
      if options.dram == "large" then
        compare = { shared = options.shared, dram = r.footprint_bytes > 2 * device().l2_bytes }
      end
      if options.counts ~= false then t.model_equals_counters(what, r, compare) end
      if options.show then print("# " .. tostring(r):gsub("\n", "\n# ")) end
    end
  end
end

-- GPU cases { {name, params}, ... } measured as a student's launch is: on
-- the GPU, output equal to the CPU reference, at least 10 samples with the
-- median between min and max, bandwidth below the device's peak, and the
-- model's numbers beside the measurement; the result printed.
function family.gpu_measured(device, cases)
  for _, case in ipairs(cases) do
    local name, params = case[1], case[2]
    local r = launch(name, params)
    local what = next(params) and t.label(name, params) or name .. " defaults"
    t.ok(r.backend == "gpu", what .. ": ran on the GPU")
    t.ok(r.correct == true, what .. ": output matches the CPU reference" .. (r.mismatch and " (" .. r.mismatch .. ")" or ""))
    t.ok(#r.samples >= 10 and r.time_ms > 0 and r.time_min_ms <= r.time_ms and r.time_ms <= r.time_max_ms,
         what .. ": at least 10 samples, median between min and max")
    t.ok(r.bandwidth_gbs > 0 and r.bandwidth_gbs < 1.05 * device.peak_gbs, what .. ": bandwidth below the peak")
    t.ok(r.model.load.sectors > 0 and r.load.sectors_per_request == r.model.load.sectors_per_request,
         what .. ": model numbers are there")
    print("# " .. tostring(r):gsub("\n", "\n# "))
  end
end

-- A diagnostic line: what a GPU measured, for the docs, not a test.
function family.note(format, ...) print("# " .. string.format(format, ...)) end

-- The model's counts of a result in one comparable line, "load R/S store
-- R/S dram READ/WRITTEN/WRITE-ALLOCATED" (requests/sectors, DRAM bytes).
function family.model_counts(r)
  local m = r.model
  return string.format("load %d/%d store %d/%d dram %d/%d/%d", m.load.requests, m.load.sectors,
                       m.store.requests, m.store.sectors, m.dram.read_bytes, m.dram.write_bytes,
                       m.dram.write_allocate_bytes)
end

-- One side of a result as "requests/sectors" (side "load" or "store").
function family.traffic(r, side) return r[side].requests .. "/" .. r[side].sectors end

-- One shared side as "requests/wavefronts/bank conflicts".
function family.shared(r, side)
  local s = r[side]
  return s.requests .. "/" .. s.wavefronts .. "/" .. s.bank_conflicts
end

-- Runs every launch of a list and reports the first one that fails, as one test.
function family.all_launch(name, list, what)
  for _, params in ipairs(list) do
    local ok, message = pcall(launch, name, params)
    if not ok then
      t.ok(false, name .. ": every " .. what .. " launches")
      print("#   " .. tostring(message))
      return
    end
  end
  t.ok(true, string.format("%s: every %s launches (%d launches)", name, what, #list))
end

-- One test: the family describes itself in both languages (summary,
-- teaches, every parameter's doc) and info shows its CUDA source.
function family.described(name)
  local i = info(name)
  local complete = i.summary and i.teaches and i.summary_zh ~= i.summary and i.teaches_zh ~= i.teaches and
                   i.source:find("__global__", 1, true)
  for _, param in ipairs(i.params) do complete = complete and param.doc and param.doc_zh ~= param.doc end
  t.ok(complete, name .. ": summary, teaches, params and source in English and Chinese")
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
