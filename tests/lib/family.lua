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
-- Below family.gpu, what several family files use, once: the GPU's grid of
-- cases and a measured launch; one-line counts of a result; every launch of
-- a list as one test; a 2-D launch's warps and a count of its requests made
-- from the kernel's loops; a family's texts, docs and default launch.
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

-- A result's requests and sectors, wavefronts or passes in one line for
-- hand counts: "ld R/S st R/S shld R/W shst R/W const R/P" ("-" for none).
function family.request_counts(r)
  local function pair(x, key) return x and string.format("%d/%d", x.requests, x[key]) or "-" end
  return string.format("ld %s st %s shld %s shst %s const %s", pair(r.load, "sectors"), pair(r.store, "sectors"),
                       pair(r.shared_load, "wavefronts"), pair(r.shared_store, "wavefronts"), pair(r.constant, "passes"))
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

-- Each warp of a launch of tile x tile blocks over w x h threads: fn(bx, by,
-- lanes) with lanes[i] = {tx, ty, thread index in the block}.
function family.each_warp(tile, w, h, fn)
  for by = 0, (h + tile - 1) // tile - 1 do
    for bx = 0, (w + tile - 1) // tile - 1 do
      for warp = 0, tile * tile // 32 - 1 do
        local lanes = {}
        for lane = 0, 31 do
          local thread = warp * 32 + lane
          lanes[#lanes + 1] = {thread % tile, thread // tile, thread}
        end
        fn(bx, by, lanes)
      end
    end
  end
end

-- Whether pred holds for any lane of a warp (family.each_warp's lanes).
function family.any_lane(lanes, pred)
  for _, l in ipairs(lanes) do if pred(l) then return true end end
  return false
end

local request_kinds = {"ld", "st", "shld", "shst", "const"}

-- A result's requests by kind: global loads and stores, shared loads and
-- stores, constant loads.
local function requests_of(r)
  local function n(x) return x and x.requests or 0 end
  return {ld = n(r.load), st = n(r.store), shld = n(r.shared_load), shst = n(r.shared_store), const = n(r.constant)}
end

-- One test: over a grid of params, the model's requests of every kind equal
-- expected_of(params), a count made the test's own way.
function family.requests_match(name, grid, expected_of)
  local matched, total, first_miss = 0, 0, nil
  for _, p in ipairs(grid) do
    local got, want, why = requests_of(launch(name, p)), expected_of(p), nil
    for _, k in ipairs(request_kinds) do
      if got[k] ~= want[k] then why = string.format("%s: model %d, loops %d", k, got[k], want[k]) break end
    end
    total = total + 1
    if not why then matched = matched + 1
    elseif not first_miss then
      first_miss = t.label(name, p) .. ": " .. why
    end
  end
  t.ok(matched == total, string.format("%s: requests of every loop equal the loops' own count in %d of %d launches",
                                       name, matched, total) .. (first_miss and " (first miss: " .. first_miss .. ")" or ""))
end

-- The family's default launch runs on the model (one test, its counts
-- printed), info has its texts and source, and every parameter is
-- documented in English and Chinese (a test each). Returns the result.
function family.documented_default(name)
  local d = launch(name, {})
  t.ok(d.load.requests > 0 and d.store.requests > 0, name .. ": the default launch runs on the model")
  print(string.format("# %s defaults: %s, footprint %d bytes, sim %.0f ms", name, family.request_counts(d),
                      d.footprint_bytes, d.wall_ms))
  local i = info(name)
  t.ok(#i.teaches > 20 and #i.teaches_zh > 5 and i.source:find("__global__", 1, true), name .. ": info has texts and source")
  for _, p in ipairs(i.params) do
    t.ok(p.doc and #p.doc > 5 and p.doc_zh and #p.doc_zh > 5, name .. "." .. p.name .. ": documented in English and Chinese")
  end
  return d
end

local function quote(text) return "'" .. text:gsub("'", "'\\''") .. "'" end

-- One TAP line of the child's, taken into this file's count.
local function relay(line)
  local failed, rest = line:match("^(n?o?t? ?)ok %d+ (.*)$")
  local skipped = line:match("^1%.%.0 # SKIP (.*)$")
  if rest then
    t.count = t.count + 1
    if failed ~= "" and not rest:find("# TODO ", 1, true) then t.failed = t.failed + 1 end   -- a known failure fails nothing
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
