-- atomics.lua: atomics, reductions and cp.async on the model, no GPU.
-- histogram's hand-written model lists its global reductions and shared
-- atomics at each lane's bin: their requests, sectors and operations equal
-- the PTX emulator's over variants, bins and distributions; the busiest
-- address of the skewed distribution gets as many operations as bin 0 holds
-- elements (counted here from the data's own hash); a kernel declared with
-- atomicAdd shows its atomics; a card's empty store row says "none", not
-- "100% useful"; prefetch's cp_async counts LDGSTS, not loads or shared stores.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local emulator = core.nvrtc_version() ~= nil

-- histogram's data in Lua, as kernels/families/indirect.h makes it: splitmix64's
-- finaliser, and the skewed bin = trailing zero bits of the hash, at most bins - 1.
local function mix(z)
  z = z + 0x9e3779b97f4a7c15
  z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
  z = (z ~ (z >> 27)) * 0x94d049bb133111eb
  return z ~ (z >> 31)
end
local SEED = 0x6869737467726d
local function skewed_bin(i, bins)
  local hash, zeros = mix(mix(SEED) ~ i), 0
  while zeros < bins - 1 and hash & 1 == 0 do hash, zeros = hash >> 1, zeros + 1 end
  return zeros
end
-- How many of the n elements fall in bin 0, and in how many bins any fall.
local function skewed_counts(n, bins)
  local count, seen, used = 0, {}, 0
  for i = 0, n - 1 do
    local bin = skewed_bin(i, bins)
    if bin == 0 then count = count + 1 end
    if not seen[bin] then seen[bin], used = true, used + 1 end
  end
  return count, used
end

-- histogram: the model against the emulator, and the busiest address.
local n = 3001
for _, variant in ipairs({ "global", "shared" }) do
  for _, distribution in ipairs({ "uniform", "skewed" }) do
    for _, bins in ipairs({ 1, 7, 256, 1024 }) do
      local params = { variant = variant, distribution = distribution, bins = bins, n = n, block = 128 }
      local what = t.label("histogram", params)
      local m = launch("histogram", params).model
      local red, shared = m.reduction, m.shared_atomic
      if variant == "global" then
        t.ok(red and red.requests == math.ceil(n / 32) and red.operations == n and not m.atomic,
             what .. ": one reduction a warp, one operation an element, no atomic whose result is used")
      else
        t.ok(shared and shared.requests == math.ceil(n / 32) and shared.operations == n and
             red.operations == bins * math.ceil(n / 128), what .. ": one shared atomic an element, one reduction a bin and block")
      end
      if emulator then
        local e = core.emulate_family("histogram", params)
        local differ = {}
        for kind, fields in pairs({ reduction = { "requests", "sectors", "operations", "same_address_lanes",
                                                  "hottest_operations", "addresses" },
                                    atomic = { "requests", "sectors", "operations" },
                                    shared_atomic = { "requests", "operations", "same_address_lanes" } }) do
          local modelled = m[kind] or {}
          for _, field in ipairs(fields) do
            if e[kind][field] ~= (modelled[field] or 0) then
              differ[#differ + 1] = string.format("%s.%s emulated %d, model %d", kind, field, e[kind][field], modelled[field] or 0)
            end
          end
        end
        t.ok(#differ == 0, what .. ": the model's atomics are the emulator's" .. (#differ > 0 and " (" .. table.concat(differ, ", ") .. ")" or ""))
      else
        t.skip(what .. ": the model's atomics are the emulator's", "no NVRTC here")
      end
      if variant == "global" and distribution == "skewed" then
        local most, used = skewed_counts(n, bins)
        t.is(red.hottest_operations, most, what .. ": the busiest address gets bin 0's elements, counted from the data")
        t.is(red.addresses, used, what .. ": the addresses are the bins that got elements")
      elseif variant == "shared" then
        t.is(red.hottest_operations, math.ceil(n / 128), what .. ": each bin gets one reduction a block")
      end
    end
  end
end

-- A kernel of atomics: the card has its atomics row, and no "100% useful" store row.
local r = launch("histogram", { n = 4096, bins = 1 })
core.capture(true)
print(r)
local card = core.capture(false)
t.ok(card:find("reductions", 1, true) and card:find("4,096 operations", 1, true) ~= nil,
     "the card of a kernel of reductions has their row")
local stores = card:match("\n%s*stores[^\n]*")
t.ok(stores ~= nil and stores:find("none", 1, true) ~= nil and not stores:find("100%", 1, true),
     "an empty store row says none, not 100% useful (" .. tostring(stores) .. ")")
t.is(r.model.reduction.same_address_lanes, 4096, "bins=1: all 32 lanes of every request on one address")
-- lanes on one address go one pass each, and each pass counts its sectors,
-- as the H200 counts them (histogram skewed: 530,639 sectors, the model's too)
t.is(r.model.reduction.sectors, 4096, "bins=1: 32 sectors a request, one a pass")

-- compare() shows the atomics rows when either side has atomics, not otherwise.
local function compared(a, b)
  core.capture(true)
  print(compare(a, b))
  return core.capture(false)
end
t.ok(compared(launch("copy", { n = 4096 }), r):find("atomic requests", 1, true) ~= nil,
     "compare() shows atomic requests when one side has atomics")
t.ok(not compared(launch("copy", { n = 4096 }), launch("copy", { n = 8192 })):find("atomic", 1, true),
     "compare() leaves the atomics rows out when neither side has any")

-- prefetch cp_async: its copies are LDGSTS, which the H200 counts as loads
-- too (op_ld), but not as shared stores.
for _, size in ipairs({ { 5000, 256 }, { 70000, 1024 } }) do
  local params = { variant = "cp_async", n = size[1], block = size[2] }
  local cp, none = launch("prefetch", params), launch("prefetch", { variant = "none", n = size[1], block = size[2] })
  t.ok(cp.model.ldgsts and cp.model.ldgsts.requests == none.model.load.requests and
       cp.model.ldgsts.sectors == none.model.load.sectors and cp.model.load.requests == cp.model.ldgsts.requests and
       not cp.shared_store,
       t.label("prefetch", params) .. ": the copies counted as ldgsts and as loads (the loads of variant none), no shared stores")
  if emulator then
    local e = core.emulate_family("prefetch", params)
    t.ok(e.ldgsts.requests == cp.model.ldgsts.requests and e.ldgsts.sectors == cp.model.ldgsts.sectors and
         e.load.requests == e.ldgsts.requests and e.shared_store.requests == 0,
         t.label("prefetch", params) .. ": the emulator counts cp.async as the model does")
  end
end

-- A kernel written with atomicAdd: its result used (atom) and unused (red).
if not emulator and not core.find_program("clang") then return t.done() end
kernel {
  name = "count_and_claim",
  source = [[
__global__ void count_and_claim(const int *in, int *counter, int *slot, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&counter[1], in[i]);              // result unused: a reduction
    slot[i] = atomicAdd(&counter[0], 1) >= 0;   // result used: an atomic
}]],
  params = { n = 1000 },
  buffers = { ["in"] = { type = "int", count = "n", fill = { "int", 0, 9 } },
              counter = { type = "int", count = 2, output = true },
              slot = { type = "int", count = "n", output = true } },
  args = { "in", "counter", "slot", "n" },
  grid = function(p) return (p.n + 127) // 128 end,
  block = 128,
}
local mine = launch("count_and_claim", { n = 1000 })
if mine.model.level == "sass" then
  -- ptxas adds up each warp's terms first (a vote and a REDUX) and one lane per warp updates the
  -- word: the machine code the GPU runs makes 32 requests of one lane each, one sector each
  t.ok(mine.atomic and mine.atomic.requests == 32 and mine.atomic.operations == 32 and mine.atomic.hottest_operations == 32,
       "at SASS level, atomicAdd whose result is used: 32 requests, one lane each (ptxas aggregates the warp's adds)")
  t.ok(mine.reduction and mine.reduction.requests == 32 and mine.reduction.sectors == 32 and mine.reduction.addresses == 1,
       "and atomicAdd as a statement: 32 reductions of one lane each")
else
  t.ok(mine.atomic and mine.atomic.requests == 32 and mine.atomic.operations == 1000 and mine.atomic.hottest_operations == 1000 and
       mine.atomic.same_address_lanes == 1000,
       "a kernel{} with atomicAdd whose result is used shows its atomics: 32 requests, 1000 operations on one address")
  t.ok(mine.reduction and mine.reduction.requests == 32 and mine.reduction.sectors == 1000 and mine.reduction.addresses == 1,
       "and atomicAdd as a statement shows as reductions")
end
t.done()
