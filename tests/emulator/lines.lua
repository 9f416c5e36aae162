-- lines.lua: lines([r]), a launch's traffic by source line on the emulator:
-- the rows add up to the card's counts; the naive transpose's store, the
-- tiled transpose's column of the tile, a stride, a misaligned start, a
-- gather and lanes on one atomic address are each marked and diagnosed with
-- the fix; a padded tile and coalesced lines are not; an inlined helper
-- counts at its call; the listing fits 80 columns in both languages; bad
-- arguments are one clear line.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]

t.raises(function() lines() end, { "lines() needs a launch" }, "before any launch, lines() says what it needs")
t.raises(function() lines(42) end, { "bad argument #1 to 'lines'", "got 42" }, "a number is not a result")
t.raises(function() lines("no_such_kernel") end, { "no_such_kernel" }, "an unknown kernel is named")

-- What was printed, its lines joined: a wrapped sentence reads as one.
local function flat(text) return (text:gsub("%s*\n%s*", " ")) end

local function widest(text)
  local most = 0
  for line in (text .. "\n"):gmatch("(.-)\n") do most = math.max(most, core.util.display_width(line)) end
  return most
end

-- The line of counted whose source holds text, or nil.
local function line_with(counted, text)
  for _, l in ipairs(counted) do
    if l.source and l.source:find(text, 1, true) then return l end
  end
end

local function sum(counted, kind, field)
  local total = 0
  for _, l in ipairs(counted) do total = total + l[kind][field] end
  return total
end

-- The naive transpose: rows of in, columns of out.
local text, ok, counted = t.said(function() return lines("transpose", { variant = "naive" }) end)
t.ok(ok, "lines() runs a built-in kernel by name")
local body = ok and line_with(counted, "out[col * rows + row] = in[row * cols + col];")
t.ok(body and body.load.sectors // body.load.requests == 4 and body.store.sectors // body.store.requests == 32,
     "the naive transpose's line: 4 sectors a load request, 32 a store request")
t.ok(text:find("global store%s+524,288%s+32%.00 sectors%s+4%.00%s+89%%%s+◀ 8%.0[x×] ideal")
     or text:find("global store%s+524,288%s+32%.00 sectors%s+4%.00%s+89%%%s+◀ 8%.0\xC3\x97 ideal"),
     "the store's row: requests, per request, ideal, share, marked")
t.ok(flat(text):find("neighbouring lanes are 16,384 bytes apart in 'out' (4,096 elements of 4 bytes)", 1, true),
     "why: lanes a row apart in out")
t.ok(flat(text):find("threadIdx.x in the last, fastest index", 1, true), "... and the fix")
t.ok(not text:find("Why, line %d+ %(global load%)"), "the coalesced load is not diagnosed")
t.ok(widest(text) <= 80, "it fits 80 columns")

-- The rows add up to the card's counts.
local r = launch("transpose", { variant = "shared" })
local shared_text, shared_ok, by_line = t.said(function() return lines(r) end)
t.ok(shared_ok, "lines(r) takes a result")
t.is(shared_ok and sum(by_line, "load", "sectors"), r.load.sectors, "the lines' load sectors add up to the card's")
t.is(shared_ok and sum(by_line, "store", "requests"), r.store.requests, "... and their store requests")
t.is(shared_ok and sum(by_line, "shared_load", "wavefronts"), r.shared_load.wavefronts, "... and their shared wavefronts")
t.ok(shared_text:find("◀ 32-way conflict", 1, true), "the tile's column: a 32-way bank conflict")
t.ok(flat(shared_text):find("lanes 0, 1, 2, 3, ... all fall in bank 0", 1, true) or flat(shared_text):find("lanes 0, 1, 2, 3, … all fall in bank 0", 1, true),
     "why: the lanes in the busiest bank")
t.ok(shared_text:find("[TILE][TILE + 1]", 1, true), "... and the padding that spreads them")

local padded = t.said(function() lines(launch("transpose", { variant = "padded" })) end)
t.ok(not padded:find("conflict", 1, true) and not padded:find("Why,", 1, true), "the padded tile: nothing marked")

local _, last_ok = t.said(function() return lines() end)
t.ok(last_ok, "lines() takes the last launch")

-- A stride, counted at the helper's call (hinted_load is inlined).
local strided = t.said(function() lines("strided", { stride = 4 }) end)
t.ok(strided:find("out[i] = hinted_load<HINT>(&in[i * stride]);", 1, true), "an inlined helper's load counts at its call")
t.ok(flat(strided):find("neighbouring lanes are 16 bytes apart in 'in' (4 elements of 4 bytes)", 1, true), "why: a stride of 4")

local offset = t.said(function() lines("offset", { offset = 1 }) end)
t.ok(flat(offset):find("lane 0 starts 4 bytes into its 32-byte sector", 1, true), "a misaligned start")

local gather = t.said(function() lines("gather", {}) end)
t.ok(flat(gather):find("follow no stride (a gather)", 1, true), "a gather")

-- A kernel of one's own: every lane adds into one word.
kernel{ name = "count_all", params = { n = 4096 }, args = { "counter", "n" },
        buffers = { counter = { type = "unsigned", count = 1, output = true } },
        grid = function(p) return p.n // 256 end, block = 256, source = [[
__global__ void count_all(unsigned *counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(counter, 1u);
}
]] }
local atomic_text, atomic_ok = t.said(function() return lines(launch("count_all", {})) end)
t.ok(atomic_ok and atomic_text:find("line 5: atomicAdd(counter, 1u);", 1, true), "a declared kernel's own source lines")
if atomic_text:find("(SASS)", 1, true) then
  -- ptxas adds up a warp's ones first (a vote and a popcount): one lane a warp updates the word, as the GPU runs it
  t.ok(not atomic_text:find("lanes wait", 1, true) and atomic_text:find("(SASS)", 1, true),
       "at SASS level ptxas's warp-aggregated atomicAdd has one lane a request: nothing waits")
  kernel{ name = "swap_all", params = { n = 4096 }, args = { "word", "old", "n" },
          buffers = { word = { type = "int", count = 1, output = true }, old = { type = "int", count = "n", output = true } },
          grid = function(p) return p.n // 256 end, block = 256, source = [[
__global__ void swap_all(int *word, int *old, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        old[i] = atomicExch(word, i);
}
]] }
  atomic_text = t.said(function() return lines(launch("swap_all", {})) end)
end
t.ok(atomic_text:find("◀ 32 lanes wait", 1, true) and flat(atomic_text):find("32.0 lanes of a request update one address", 1, true),
     "lanes on one atomic address are marked and diagnosed")

-- A helper of one's own, inlined: its PTX brings a .section of debug strings,
-- and its load counts at the call.
kernel{ name = "through_helper", params = { n = 4096 }, args = { "data", "out", "n" },
        buffers = { data = { type = "float", count = function(p) return 2 * p.n end }, out = { type = "float", count = "n", output = true } },
        grid = function(p) return p.n // 256 end, block = 256, source = [[
__device__ float second_of(const float *data, int i)
{
    return data[2 * i + 1];
}
__global__ void through_helper(const float *data, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = second_of(data, i);
}
]] }
local helper_text, helper_ok = t.said(function() return lines(launch("through_helper", {})) end)
t.ok(helper_ok, "a kernel with an inlined __device__ helper runs on the emulator with its line information")
t.ok(helper_text:find("line 9: out[i] = second_of(data, i);", 1, true) and flat(helper_text):find("8 bytes apart in 'data'", 1, true),
     "... its load counts at the call, with the stride of 2")

-- In Chinese.
core.lang("zh")
local chinese = t.said(function() lines(launch("transpose", { variant = "shared" })) end)
core.lang("en")
t.ok(chinese:find("按源代码行统计的访存流量", 1, true) and chinese:find("◀ 32 路冲突", 1, true), "in Chinese")
local column = shared_ok and line_with(by_line, "tile[x][y]")
t.ok(column and flat(chinese):find(("原因，第 %d 行（共享加载）：相邻线程"):format(column.line), 1, true), "... the diagnosis too")
t.ok(widest(chinese) <= 80, "... fitted to 80 columns")

t.done()
