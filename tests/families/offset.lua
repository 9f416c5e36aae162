-- offset.lua: the offset family, a copy whose reads start `offset` floats
-- late. On the GPU, as a student's launch (output equal to the CPU
-- reference, sane samples and bandwidth, the model's numbers beside), and
-- with every load hint the model's requests and sectors equal to the
-- hardware counters (SKIP without a GPU). On the access model: a hint picks
-- the cache path, not the addresses, so every hint gives the default's
-- counts and the reference notes' numbers; info documents the hints; bad
-- hints refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function(device)
  family.gpu_measured(device, {
    {"offset", {offset = 0}}, {"offset", {offset = 1}}, {"offset", {offset = 7}}, {"offset", {offset = 8}},
    {"offset", {offset = 1, n = 262144}},
  })
  local cases = {}
  for _, hint in ipairs(family.choices("offset", "load")) do
    cases[#cases + 1] = {"offset", {offset = 1, n = 262144, load = hint}, {shared = false}}
  end
  family.gpu_grid(cases)
end)

local hints = {"default", "ca", "cg", "ldg", "cs"}
local counts = family.model_counts

-- A hint picks the cache path (ld.global.ca/.cg/.nc/.cs), not the addresses:
-- every hint gives the default's requests, sectors and DRAM bytes.
local params = {offset = 3, n = 5000, block = 96}
local default = launch("offset", params)
t.is(default.params.load, "default", "offset: load defaults to \"default\"")
for _, hint in ipairs(hints) do
  params.load = hint
  t.is(counts(launch("offset", params)), counts(default), "offset load=" .. hint .. ": the model's counts are the default's")
end

-- The reference notes' numbers stay with every hint (as in tests/shell/api.lua):
-- offset=1 over 2^18 floats is 8,192 warps with two loads each; a warp's 32
-- floats straddle 5 sectors, except the last warp's, whose 31 working lanes
-- (i+1 < n) fit in 4: 2 * (8191*5 + 4) = 81,918 sectors.
for _, hint in ipairs({"ca", "cg"}) do
  local r = launch("offset", {offset = 1, n = 262144, load = hint})
  t.ok(r.load.requests == 16384 and r.load.sectors == 81918 and r.store.sectors == 32768,
       "offset=1 load=" .. hint .. ": 16,384 requests, 81,918 load sectors, 32,768 store sectors")
end

local offset_info = info("offset")
t.is(offset_info.params[4].name, "load", "offset: load is the 4th parameter, after offset")
t.is(offset_info.params[4].allowed, '"default", "ca", "cg", "ldg" or "cs"', "info lists the five hints")
for _, intrinsic in ipairs({"__ldca", "__ldcg", "__ldg", "__ldcs", "-dlcm=cg"}) do
  t.ok(offset_info.params[4].doc:find(intrinsic, 1, true) and offset_info.params[4].doc_zh:find(intrinsic, 1, true),
       "the load doc explains " .. intrinsic .. " (English and Chinese)")
end
t.ok(offset_info.source:find("__ldcg(p)", 1, true), "offset: info shows the intrinsics in the compiled source")
t.raises(function() launch("offset", {load = "nc"}) end,
  {"bad argument #2 to 'launch'", "'load' must be \"default\", \"ca\", \"cg\", \"ldg\" or \"cs\", got \"nc\""},
  "an unknown load hint names the five")

family.done()
