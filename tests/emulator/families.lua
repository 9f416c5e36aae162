-- emulate_families.lua: the catalogue's own kernels on the PTX emulator, no
-- GPU. Each of the 20 families tells the emulator its kernel (kernel_call);
-- each is compiled from its own .cu source by NVRTC, device code only, and run over
-- a grid of its parameters (every choice value, odd sizes, partial warps and
-- blocks): its requests, sectors and lines, its shared-memory requests and
-- wavefronts, its constant-memory requests and passes, and its atomics',
-- reductions' and cp.async's counts must equal the hand-written model's,
-- and its outputs the CPU reference's. Where clang is here too, the same
-- source compiled by clang (core.family_device) must give the same counts as
-- NVRTC's, and outputs the reference's. The instructions it counts are held
-- to each family's cost, measured on the H200.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
if not core.nvrtc_version() then   -- then model = "emulator" says why it cannot run, in one line
  local ok, message = pcall(launch, "copy", {n = 100, model = "emulator"})
  t.ok(not ok and message:find("the emulator cannot run 'copy': ", 1, true) ~= nil, "without NVRTC, model = \"emulator\" is one clear error (" .. tostring(message) .. ")")
  return t.done()
end

local function choices(kernel, param)
  for _, p in ipairs(info(kernel).params) do
    if p.name == param then return p.choices end
  end
end

local grid = {}
local function add(name, params) grid[#grid + 1] = { name, params } end
for _, vec in ipairs(choices("copy", "vec")) do
  for _, size in ipairs({ {1000, 96}, {33, 32}, {4097, 256} }) do add("copy", {vec = vec, n = size[1], block = size[2]}) end
end
for _, load in ipairs(choices("strided", "load")) do
  for _, stride in ipairs({1, 3, 8, 33}) do add("strided", {load = load, stride = stride, n = 4097}) end
end
for _, load in ipairs(choices("offset", "load")) do
  for _, offset in ipairs({0, 1, 31, 1024}) do add("offset", {load = load, offset = offset, n = 5000, block = 128}) end
end

for _, type in ipairs(choices("width", "type")) do
  for _, n in ipairs({1001, 4096}) do add("width", {type = type, n = n}) end
end
for _, load in ipairs(choices("stencil1d", "load")) do
  for _, radius in ipairs({0, 2, 7}) do add("stencil1d", {load = load, radius = radius, n = 3001}) end
end
for _, store in ipairs(choices("store_policy", "store")) do
  for _, fill in ipairs(choices("store_policy", "fill")) do add("store_policy", {store = store, fill = fill, n = 1000}) end
end
for _, bytes in ipairs({512, 32768, 1 << 20}) do add("working_set", {bytes = bytes, n = 3000}) end
for _, variant in ipairs(choices("reuse", "variant")) do
  for _, reuse in ipairs({1, 5, 13}) do add("reuse", {variant = variant, reuse = reuse, n = 5000}) end
end
for _, bytes in ipairs(choices("bank", "bytes")) do
  for _, case in ipairs({ {0, 32}, {1, 32}, {2, 32}, {3, 13}, {32, 4}, {33, 32} }) do
    add("bank", {bytes = bytes, stride = case[1], lanes = case[2], n = 5000})
  end
end
for _, pattern in ipairs(choices("gather", "pattern")) do
  for _, n in ipairs({1000, 4099}) do add("gather", {pattern = pattern, n = n, window = 64, seed = 3}) end
end
for _, variant in ipairs(choices("spmv", "variant")) do
  for _, nnz in ipairs({1, 7, 16}) do add("spmv", {variant = variant, nnz_per_row = nnz, n = 1000}) end
end
for _, variant in ipairs(choices("histogram", "variant")) do
  for _, distribution in ipairs(choices("histogram", "distribution")) do
    for _, bins in ipairs({1, 7, 100, 256, 1024}) do add("histogram", {variant = variant, distribution = distribution, bins = bins, n = 5000}) end
  end
end
for _, order in ipairs(choices("traverse", "order")) do
  for _, case in ipairs({ {100, 77, {32, 8}}, {64, 64, {16, 16}}, {33, 130, {8, 4}} }) do
    add("traverse", {order = order, rows = case[1], cols = case[2], block = case[3]})
  end
end
for _, variant in ipairs(choices("transpose", "variant")) do
  for _, tile in ipairs(choices("transpose", "tile")) do add("transpose", {variant = variant, tile = tile, rows = 100, cols = 77}) end
end
for _, variant in ipairs(choices("matmul", "variant")) do
  for _, tile in ipairs(choices("matmul", "tile")) do add("matmul", {variant = variant, tile = tile, m = 40, n = 33, k = 17}) end
end
for _, layout in ipairs(choices("aos_soa", "layout")) do
  for _, access in ipairs(choices("aos_soa", "access")) do
    for _, fields in ipairs({2, 5, 8}) do add("aos_soa", {layout = layout, access = access, fields = fields, n = 3001}) end
  end
end
for _, layout in ipairs(choices("particles", "layout")) do
  for _, n in ipairs({1000, 3001}) do add("particles", {layout = layout, n = n}) end
end
for _, space in ipairs(choices("broadcast", "space")) do
  for _, pattern in ipairs(choices("broadcast", "pattern")) do add("broadcast", {space = space, pattern = pattern, n = 3001}) end
end
for _, variant in ipairs(choices("conv2d", "variant")) do
  for _, tile in ipairs(choices("conv2d", "tile")) do
    for _, radius in ipairs({1, 3, 8}) do add("conv2d", {variant = variant, tile = tile, radius = radius, width = 70, height = 45}) end
  end
end
for _, variant in ipairs(choices("prefetch", "variant")) do
  for _, size in ipairs({ {5000, 256}, {1000, 96}, {70000, 1024} }) do add("prefetch", {variant = variant, n = size[1], block = size[2]}) end
end

-- The same launch from clang's PTX: the counts that differ from NVRTC's, or nil.
local function clang_differs(name, params, e)
  local d = core.family_device(name, params)
  local ok, compiled = pcall(require("warplab.compile").compile, d.source, {compiler = "clang", name = name .. "_kernel.cu", arch = d.arch,
                                                      headers = d.headers, defines = d.defines, instantiate = d.kernel})
  if not ok then return "clang does not compile it: " .. tostring(compiled) end
  local c = core.emulate_family(name, params, {ptx = compiled.ptx})
  local differ = {}
  for _, part in ipairs({ "load", "store", "shared_load", "shared_store", "constant", "atomic", "reduction", "shared_atomic", "ldgsts" }) do
    for field, value in pairs(e[part]) do
      if c[part][field] ~= value then differ[#differ + 1] = string.format("%s.%s %d (NVRTC %d)", part, field, c[part][field], value) end
    end
  end
  if not c.correct then differ[#differ + 1] = "outputs wrong: " .. tostring(c.mismatch) end
  return #differ > 0 and table.concat(differ, ", ") or nil
end
local clang = core.find_program("clang")

local agreed, clang_agreed, at_sass = 0, 0, 0
for _, case in ipairs(grid) do
  local name, params = case[1], case[2]
  local e = core.emulate_family(name, params)
  at_sass = at_sass + (e.level == "sass" and 1 or 0)
  local m = launch(name, params).model
  local r = launch(name, params)
  local function shared_same(field)
    local modelled = r[field] or { requests = 0, model_wavefronts = 0 }
    return e[field].requests == modelled.requests and e[field].wavefronts == modelled.model_wavefronts
  end
  -- atomics, reductions, shared atomics and cp.async (LDGSTS): every count the model gives
  local function atomics_same()
    for _, kind in ipairs({ "atomic", "reduction", "shared_atomic", "ldgsts" }) do
      for field, value in pairs(e[kind]) do
        local modelled = m[kind] and m[kind][field] or 0
        if value ~= modelled then return false end
      end
    end
    return true
  end
  local same = atomics_same() and
               e.load.requests == m.load.requests and e.load.sectors == m.load.sectors and e.load.lines == m.load.lines and
               e.store.requests == m.store.requests and e.store.sectors == m.store.sectors and e.store.lines == m.store.lines and
               shared_same("shared_load") and shared_same("shared_store") and
               e.constant.requests == (r.constant and r.constant.requests or 0) and e.constant.passes == (r.constant and r.constant.passes or 0)
  agreed = agreed + (same and e.correct and 1 or 0)
  t.ok(same and e.correct, string.format("%s: emulated %d/%d/%d %d/%d/%d, model %d/%d/%d %d/%d/%d%s", t.label(name, params),
       e.load.requests, e.load.sectors, e.load.lines, e.store.requests, e.store.sectors, e.store.lines,
       m.load.requests, m.load.sectors, m.load.lines, m.store.requests, m.store.sectors, m.store.lines,
       e.correct and ", outputs the reference's" or ", outputs wrong: " .. tostring(e.mismatch)))
  t.ok(e.load.l2_sectors == m.load.l2_sectors, string.format("%s: L1 passes the same load sectors on to L2 on both "
       .. "(emulated %d, model %d)", t.label(name, params), e.load.l2_sectors, m.load.l2_sectors))
  if clang then
    local differs = clang_differs(name, params, e)
    clang_agreed = clang_agreed + (differs and 0 or 1)
    t.ok(not differs, t.label(name, params) .. ": clang's PTX gives NVRTC's counts" .. (differs and " (" .. differs .. ")" or ""))
  end
end
print(string.format("# %d of %d configurations agree with the model%s", agreed, #grid,
                    clang and string.format("; %d of them give NVRTC's counts from clang's PTX", clang_agreed) or "; clang is not here"))
-- Where the disassembler is, the SASS engine runs most of them (the rest: over its warps, or struct parameters, or float atomics)
if core.disassembler() and device().compute_capability == "9.0" then
  t.ok(at_sass >= #grid // 2, string.format("%d of %d configurations ran at SASS level, the machine code an H200 runs", at_sass, #grid))
else
  t.skip("configurations at SASS level", "no disassembler, or the profile is not sm_90")
end

-- model = "emulator" in a launch's params, or in config{}: the result's model is the emulator's.
for _, case in ipairs({ {"offset", {n = 5000, offset = 3}}, {"bank", {n = 4096, stride = 2}}, {"gather", {n = 3000, pattern = "window"}} }) do
  local name, params = case[1], case[2]
  local formula = launch(name, params).model
  params.model = "emulator"
  local emulated = launch(name, params).model
  t.ok(emulated.source == "emulator" and formula.source == "formula" and emulated.load.sectors == formula.load.sectors and
       emulated.store.sectors == formula.store.sectors and emulated.dram.read_bytes == formula.dram.read_bytes,
       t.label(name, params) .. ": the result's model is the emulator's, its DRAM estimate the formula's")
end
-- The instructions the emulator counts (PTX, an integer division as the GPU's
-- sequence of them) against each family's cost measured on the H200, at the
-- family's defaults: within 25% (PTX's count is 0.76 to 1.17 times the SASS's there).
for _, family in ipairs(kernels()) do
  local e, m = core.emulate_family(family.name, {}), launch(family.name, {}).model
  local ratio = e.instructions / m.instructions
  t.ok(ratio >= 0.75 and ratio <= 1.25, string.format("%s at its defaults: the emulator issues %d warp-instructions, the model "
       .. "(the H200's measured cost) %d: %.2f", family.name, e.instructions, m.instructions, ratio))
end

config{model = "emulator"}
t.ok(launch("copy", {n = 999}).model.source == "emulator" and config().model == "emulator", "config{model = \"emulator\"} for the session")
config{model = "formula"}
local in_grid, missing = {}, {}
for _, case in ipairs(grid) do in_grid[case[1]] = true end
for _, family in ipairs(kernels()) do
  if not in_grid[family.name] then missing[#missing + 1] = family.name end
end
t.ok(#missing == 0, "the grid holds every family of the catalogue (missing: " .. (#missing > 0 and table.concat(missing, ", ") or "none") .. ")")
t.done()
