-- width.lua: the width family. On the GPU, every element type: output
-- equal to the CPU reference, the model's requests and sectors equal to the
-- hardware counters, and at a streaming launch over twice the L2 the DRAM
-- read estimate within 5% (SKIP without a GPU). On the access model: every
-- parameter value launches, hand-worked counts, the teaching claims in the
-- numbers, and bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {}
  for _, type in ipairs(family.choices("width", "type")) do
    cases[#cases + 1] = {"width", {type = type, n = 1 << 20}}
  end
  cases[#cases + 1] = {"width", {type = "float4"}, {dram = true}}
  family.gpu_grid(cases)
end)

local types = { "char", "short", "float", "double", "float2", "float4" }
local type_bytes = { char = 1, short = 2, float = 4, double = 8, float2 = 8, float4 = 16 }

for _, type in ipairs(types) do
  for _, block in ipairs({ 32, 96, 1024 }) do
    local r = launch("width", { type = type, block = block, n = 4096 })
    t.ok(r.load.requests == 128 and r.store.requests == 128,
         ("width %s, block %d: launches, 128 load and 128 store requests"):format(type, block))
  end
end

-- n = 1000 with blocks of 96: 11 blocks, 33 warps. Warps 0-30 are full,
-- warp 31 has 8 lanes (threads 992-999), warp 32 (threads 1024-1055) none:
-- 32 requests. A full warp asks for 32 * width bytes from an aligned start,
-- so 32 * width / 32 = width sectors; warp 31's 8 lanes start at byte
-- 992 * width, a multiple of 32, so they need 8 * width / 32 sectors
-- (at least one). Lines: a full warp's 32 * width bytes cover 32 * width / 128
-- lines (at least one); warp 31's 8 * width bytes start on a line for widths
-- 1, 4, 8 and 16 (992, 3968, 7936 and 15872 are multiples of 128), and for
-- width 2 start mid-line at 1984 but end within it: one line each.
local hand = {   -- { sectors, lines } of the loads (the stores are the same)
  char   = { 31 * 1 + 1,  31 * 1 + 1 },    -- 32 bytes a warp; warp 31: 8 bytes
  short  = { 31 * 2 + 1,  31 * 1 + 1 },    -- 64 bytes a warp; warp 31: 16 bytes at 1984
  float  = { 31 * 4 + 1,  31 * 1 + 1 },    -- 128 bytes a warp; warp 31: 32 bytes at 3968
  double = { 31 * 8 + 2,  31 * 2 + 1 },    -- 256 bytes a warp; warp 31: 64 bytes at 7936
  float2 = { 31 * 8 + 2,  31 * 2 + 1 },    -- as double
  float4 = { 31 * 16 + 4, 31 * 4 + 1 },    -- 512 bytes a warp; warp 31: 128 bytes at 15872
}
for _, type in ipairs(types) do
  local r = launch("width", { type = type, n = 1000, block = 96 })
  local sectors, lines = hand[type][1], hand[type][2]
  t.is(r.load.requests, 32, ("width %s n=1000 block=96: 32 load requests (warp 32 is idle)"):format(type))
  t.is(r.load.sectors, sectors, ("width %s n=1000 block=96: %d load sectors"):format(type, sectors))
  t.is(r.store.sectors, sectors, ("width %s n=1000 block=96: %d store sectors"):format(type, sectors))
  t.is(r.load.lines, lines, ("width %s n=1000 block=96: %d lines"):format(type, lines))
  t.is(r.load.bytes, 1000 * type_bytes[type], ("width %s: the lanes ask for 1000 elements' bytes"):format(type))
  t.is(r.useful_bytes, 2 * 1000 * type_bytes[type], ("width %s: useful bytes, one read and one write"):format(type))
end

-- The teaching claim: sectors per request grow with the width, every
-- fetched byte is used, and the number of requests stays the same.
local per_request = { char = 1, short = 2, float = 4, double = 8, float2 = 8, float4 = 16 }
for _, type in ipairs(types) do
  local r = launch("width", { type = type, n = 1 << 20 })
  t.is(r.load.requests, (1 << 20) // 32, ("width %s: one request a warp, whatever the width"):format(type))
  t.is(r.load.sectors_per_request, per_request[type] + 0.0,
       ("width %s: %d sectors per request"):format(type, per_request[type]))
  t.is(r.load.ideal, per_request[type] + 0.0, ("width %s: which is the ideal"):format(type))
  t.is(r.load.useful_fraction, 1.0, ("width %s: every fetched byte used"):format(type))
  t.is(r.dram.read_bytes, (1 << 20) * type_bytes[type], ("width %s: DRAM reads the input once"):format(type))
end

-- The chapter's exercise: a warp reading 32 doubles touches 8 sectors in two
-- 128-byte lines (two transactions); the same warp of floats one line.
local double, float = launch("width", { type = "double", n = 1 << 20 }), launch("width", { type = "float", n = 1 << 20 })
t.is(double.load.lines / double.load.requests, 2.0, "double: two 128-byte lines per request")
t.is(float.load.lines / float.load.requests, 1.0, "float: one 128-byte line per request")
t.is(double.load.sectors, 2 * float.load.sectors, "double: twice the sectors of float for as many elements")

-- Defaults: the smallest footprint (char) is still over twice a 60 MB L2.
t.ok(launch("width", { type = "char" }).footprint_bytes > 120e6, "width char defaults: footprint over 120 MB")
t.is(info("width").params[3].default, "float", "width: float by default")

t.raises(function() launch("width", { type = "int" }) end,
         { "bad argument #2 to 'launch'", [['type' must be "char", "short", "float", "double", "float2" or "float4", got "int"]] },
         "width: an unknown type is refused, naming the choices")
t.raises(function() launch("width", { type = 8 }) end, { "'type' must be", "got number" },
         "width: a byte count is not a type")
t.raises(function() launch("width", { n = 0 }) end, { "'n' must be an integer from 1" }, "width: n = 0 is refused")

family.done()
