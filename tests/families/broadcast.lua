-- broadcast.lua: the broadcast family. On the GPU, every space and pattern:
-- output equal to the CPU reference, the model's requests and sectors equal
-- to the hardware counters (SKIP without a GPU). On the access model: every
-- parameter value launches, hand-worked counts, the teaching claims in the
-- numbers, and bad values refused.
local family = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/family.lua")
local t = family.tap

family.gpu(function()
  local cases = {}
  for _, space in ipairs(family.choices("broadcast", "space")) do
    for _, pattern in ipairs(family.choices("broadcast", "pattern")) do
      cases[#cases + 1] = {"broadcast", {space = space, pattern = pattern, n = 1 << 20}}
    end
  end
  family.gpu_grid(cases)
end)

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

family.done()
