-- gpu_emulate.lua: the emulator against the hardware. Each of the 20
-- families at a size between its tests' and its defaults', at its
-- defaults, and 40 random configurations (a fixed seed): the emulator's global requests and
-- sectors and shared-memory wavefronts, counted from the family's own
-- compiled kernel without a GPU, must equal the hardware counters of the
-- same launch. SKIP without a GPU (WARPLAB_REQUIRE_GPU=1 fails instead) or
-- without NVRTC.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
t.require_gpu()
if not core.nvrtc_version() then t.skip_all("no NVRTC here") end

local small = 1 << 18
local grid = {
  {"copy", {n = small, vec = 4}}, {"offset", {n = small, offset = 1}}, {"strided", {n = small, stride = 5}},
  {"width", {n = small, type = "short"}}, {"stencil1d", {n = small, radius = 3}},
  {"store_policy", {n = small, fill = "partial"}}, {"aos_soa", {n = small, fields = 4}},
  {"traverse", {rows = 512, cols = 300, order = "col"}}, {"transpose", {rows = 300, cols = 512, variant = "shared", tile = 32}},
  {"reuse", {n = small, reuse = 9}}, {"bank", {n = small, stride = 2, bytes = 8}}, {"working_set", {n = small, bytes = 1 << 20}},
  {"gather", {n = small, pattern = "sorted"}}, {"spmv", {n = 1 << 14, variant = "vector"}},
  {"histogram", {n = small, variant = "shared", bins = 200}}, {"matmul", {m = 128, n = 96, k = 64, variant = "tiled"}},
  {"broadcast", {n = small, space = "constant", pattern = "distinct"}}, {"conv2d", {width = 200, height = 150, variant = "tiled", radius = 3}},
  {"particles", {n = small, layout = "soa"}}, {"prefetch", {n = small, variant = "cp_async"}},
}
-- Every family at its defaults (the catalogue's: not the test suite's own,
-- wrong on purpose, or faulting).
local families, testing = {}, { wrong = true, fault = true }
for _, family in ipairs(kernels()) do
  if not testing[family.name] and pcall(core.family_device, family.name, {}) then families[#families + 1] = family.name end
end
for _, name in ipairs(families) do grid[#grid + 1] = { name, {} } end
-- 40 random ones (a fixed seed) over every family: each choice at random, and
-- sizes and other integers at random within the family's range, capped so
-- that a launch stays small; a draw that is not a valid launch is drawn again.
local caps = { n = {1000, 300000}, rows = {1, 700}, cols = {1, 700}, width = {1, 600}, height = {1, 600},
               m = {1, 300}, k = {1, 300}, stride = {1, 64}, window = {1, 4096}, bytes = {512, 1 << 22} }
local draw = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/random_params.lua")
local function random_params(name) return draw(name, caps, { matmul_n = {1, 300} }) end
math.randomseed(20261201)
local drawn = 0
while drawn < 40 do
  local name = families[math.random(#families)]
  local params = random_params(name)
  if pcall(can, name, params) then
    grid[#grid + 1] = { name, params }
    drawn = drawn + 1
  end
end

for _, case in ipairs(grid) do
  local name, params = case[1], case[2]
  local e = core.emulate_family(name, params)
  params.min_samples = 3
  local r = launch(name, params)
  local c = t.counters_of(t.label(name, params), r)
  if c then
    -- prefetch's cp_async copies are LDGSTS (op_ldgsts), neither loads nor shared
    -- stores; histogram's global atomics are REDG (op_red): each kind is compared
    local same = e.load.requests == c.load_requests.value and e.load.sectors == c.load_sectors.value and
                 e.store.requests == c.store_requests.value and e.store.sectors == c.store_sectors.value and
                 e.shared_load.wavefronts == c.shared_load_wavefronts.value and
                 e.shared_store.wavefronts == c.shared_store_wavefronts.value
    local kinds = {}
    for _, kind in ipairs({ "atomic", "reduction", "ldgsts" }) do
      local requests, sectors = rawget(c, kind .. "_requests"), rawget(c, kind .. "_sectors")
      if requests and sectors then
        same = same and e[kind].requests == requests.value and
               t.atomic_sectors_agree(t.label(name, params), kind, e[kind].sectors, sectors.value)
        kinds[#kinds + 1] = string.format(" %s %d/%d (hardware %d/%d)", kind, e[kind].requests, e[kind].sectors,
                                          requests.value, sectors.value)
      end
    end
    t.ok(same and e.correct, string.format("%s: emulated %d/%d %d/%d (shared %d/%d), hardware %d/%d %d/%d (shared %d/%d)%s",
         t.label(name, params), e.load.requests, e.load.sectors, e.store.requests, e.store.sectors, e.shared_load.wavefronts,
         e.shared_store.wavefronts, c.load_requests.value, c.load_sectors.value, c.store_requests.value, c.store_sectors.value,
         c.shared_load_wavefronts.value, c.shared_store_wavefronts.value, table.concat(kinds)))
  end
end
t.done()
