-- families_wb.lua: the width and broadcast families on the access model:
-- every parameter value launches, hand-worked counts, the teaching claims
-- in the numbers, and bad values refused.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")

local types = { "char", "short", "float", "double", "float2", "float4" }
local type_bytes = { char = 1, short = 2, float = 4, double = 8, float2 = 8, float4 = 16 }

---------------------------------------------------------------------------
-- width
---------------------------------------------------------------------------

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

---------------------------------------------------------------------------
-- broadcast
---------------------------------------------------------------------------

for _, space in ipairs({ "global", "constant" }) do
  for _, pattern in ipairs({ "same", "distinct" }) do
    for _, block in ipairs({ 32, 256, 1024 }) do
      local r = launch("broadcast", { space = space, pattern = pattern, block = block, n = 4096 })
      t.is(r.store.requests, 128, ("broadcast %s %s, block %d: launches, 128 store requests"):format(space, pattern, block))
    end
  end
end

-- n = 1000 with blocks of 96, as above: 32 warps with active lanes, the last
-- with 8. Every thread makes one table read and one store.
local function broadcast(space, pattern, n, block)
  return launch("broadcast", { space = space, pattern = pattern, n = n or 1000, block = block or 96 })
end
local r = broadcast("constant", "same")
t.is(r.constant.requests, 32, "constant same: 32 constant requests")
t.is(r.constant.passes, 32, "constant same: one pass each, every lane gets table[0] at once")
t.is(r.load.requests, 0, "constant same: no global loads")
t.is(r.store.sectors, 31 * 4 + 1, "constant same: stores as a float copy's, 125 sectors")
r = broadcast("constant", "distinct")
t.is(r.constant.requests, 32, "constant distinct: 32 constant requests")
t.is(r.constant.passes, 31 * 32 + 8, "constant distinct: a pass per lane, 31 * 32 + 8 = 1000")
r = broadcast("global", "same")
t.is(r.load.requests, 32, "global same: 32 load requests")
t.is(r.load.sectors, 32, "global same: one sector each, the one holding table[0]")
t.is(r.constant, nil, "global same: no constant loads")
r = broadcast("global", "distinct")
t.is(r.load.sectors, 31 * 4 + 1, "global distinct: table[0..999] like a float copy, 125 sectors")

-- The teaching claim, per request: constant memory 1 pass for one address,
-- 32 for 32; global memory 1 sector for one address, 4 for 32 floats.
local n = 1 << 20
local same, distinct = broadcast("constant", "same", n, 256), broadcast("constant", "distinct", n, 256)
t.is(same.constant.passes / same.constant.requests, 1.0, "constant: 1 pass per request when all lanes agree")
t.is(distinct.constant.passes / distinct.constant.requests, 32.0, "constant: 32 passes per request for 32 addresses")
t.is(broadcast("global", "same", n, 256).load.sectors_per_request, 1.0, "global: 1 sector per request for one address")
t.is(broadcast("global", "distinct", n, 256).load.sectors_per_request, 4.0, "global: 4 sectors per request for 32 floats")

-- Thread i reads table[i % 16384]: with n = 32768 every entry is read twice,
-- but DRAM holds the 64 KB table once; with one address, one 64-byte block.
r = broadcast("global", "distinct", 32768, 256)
t.is(r.dram.read_bytes, 65536, "global distinct n=32768: the 64 KB table read from DRAM once")
t.is(r.dram.write_bytes, 131072, "... and 128 KB of output written")
t.is(broadcast("global", "same", 32768, 256).dram.read_bytes, 64, "global same: one 64-byte DRAM block")
t.is(r.useful_bytes, 4 * (32768 + 16384), "useful bytes: the output and the table entries read")
t.is(broadcast("global", "same", 32768, 256).useful_bytes, 4 * (32768 + 1), "... one entry when all read table[0]")

-- Warp 512 (threads 16384-16415) wraps around to table[0..31].
local shown = {}
local print_ = print
print = function(text) shown[#shown + 1] = text end
show(broadcast("constant", "distinct", 32768, 256), 512)
print = print_
shown = table.concat(shown, "\n")
t.ok(shown:find("constant load · 4-byte elements · 32 lanes · 32 distinct addresses: 32 passes", 1, true),
     "warp 512's 32 lanes read 32 distinct words of the bank: 32 passes")

-- Defaults: constant memory, same address, a footprint over twice the L2.
local defaults = launch("broadcast", {})
t.is(defaults.params.space, "constant", "broadcast: constant memory by default")
t.is(defaults.params.pattern, "same", "broadcast: the same address by default")
t.ok(defaults.footprint_bytes > 120e6, "broadcast defaults: footprint over 120 MB")

t.raises(function() launch("broadcast", { space = "shared" }) end,
         { [['space' must be "global" or "constant", got "shared"]] }, "broadcast: an unknown space is refused")
t.raises(function() launch("broadcast", { pattern = "random" }) end,
         { [['pattern' must be "same" or "distinct", got "random"]] }, "broadcast: an unknown pattern is refused")
t.raises(function() launch("broadcast", { block = 100 }) end, { "'block' must be a multiple of 32" },
         "broadcast: a block that is no multiple of 32 is refused")

t.done()
