-- strided.lua: the strided family, a copy whose lanes read `stride` floats
-- apart. On the GPU, as a student's launch (output equal to the CPU
-- reference, sane samples and bandwidth, the model's numbers beside), and
-- with every load hint the model's requests and sectors equal to the
-- hardware counters (SKIP without a GPU). On the access model: every hint
-- gives the default's counts (a hint picks the cache path, not the
-- addresses), and a hint that is no string is refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function(device)
  family.gpu_measured(device, {
    {"strided", {stride = 1}}, {"strided", {stride = 2}}, {"strided", {stride = 8}}, {"strided", {stride = 32}},
    {"strided", {stride = 3, n = 4097}},
  })
  local cases = {}
  for _, hint in ipairs(family.choices("strided", "load")) do
    cases[#cases + 1] = {"strided", {stride = 4, n = 1 << 20, load = hint}, {shared = false}}
  end
  family.gpu_grid(cases)
end)

local hints = {"default", "ca", "cg", "ldg", "cs"}
local counts = family.model_counts

-- A hint picks the cache path (ld.global.ca/.cg/.nc/.cs), not the addresses:
-- every hint gives the default's requests, sectors and DRAM bytes.
local params = {stride = 5, n = 3000}
local default = launch("strided", params)
t.is(default.params.load, "default", "strided: load defaults to \"default\"")
for _, hint in ipairs(hints) do
  params.load = hint
  t.is(counts(launch("strided", params)), counts(default), "strided load=" .. hint .. ": the model's counts are the default's")
end
t.is(launch("strided", {stride = 8, n = 4096, load = "ldg"}).load.sectors_per_request, 32.0,
     "strided 8 load=ldg: still 32 sectors per request (no hint makes them fewer)")

t.ok(info("strided").source:find("__ldcs(p)", 1, true), "strided: info shows the intrinsics in the compiled source")
t.raises(function() launch("strided", {load = 2}) end, {"'load' must be", "got number"}, "a hint is a string")

family.done()
