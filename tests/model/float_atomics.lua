-- float_atomics.lua: outputs that float atomics summed are judged within the
-- rounding of their terms in any order (issue 31, item 3), on the model: a
-- warp-shuffle sum with one atomicAdd a warp into out[0], and one atomicAdd a
-- thread of many floats into a few bins (float and double), are correct over
-- random inputs of several sizes up to 2^20 terms, and so is a block's sum
-- made by shared-memory atomics and added by one, and the card and
-- r.tolerance say so; a sum that misses a warp, or half the blocks, is still
-- wrong, and says what its terms allowed; integer atomics and outputs no
-- atomic wrote are compared as before (exactly; floats within 1e-5).
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
if not core.nvrtc_version() and not core.find_program("clang") then t.skip_all("no CUDA compiler here (neither NVRTC nor clang)") end

local BLOCK = 256
local function blocks(p) return (p.n + BLOCK - 1) // BLOCK end

-- A kernel over n inputs of type `type` into `count` outputs, whose body
-- (CUDA, after i = the thread's index) is given; the reference sums in Lua.
local function declare(name, type, body, outputs, reference, fill)
  return kernel {
    name = name,
    source = string.format([[
__global__ void %s(const %s *in, %s *out, int n, int bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
%s
}]], name, type, type, body),
    params = { n = { default = 4096, min = 1, max = 1 << 24 }, bins = { default = 4, min = 1, max = 1024 } },
    buffers = { ["in"] = { type = type, count = "n", fill = fill }, out = { type = type, count = outputs, output = true } },
    args = { "in", "out", "n", "bins" },
    grid = blocks, block = BLOCK,
    reference = reference,
  }
end

local function sum_all(p, b) local s = 0 for i = 0, p.n - 1 do s = s + b["in"][i] end b.out[0] = s end
local function sum_bins(p, b) for i = 0, p.n - 1 do b.out[i % p.bins] = b.out[i % p.bins] + b["in"][i] end end

local WARP_SUM = [[
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if ((threadIdx.x & 31) == 0%s) atomicAdd(out, v);]]
declare("warp_sum", "float", WARP_SUM:format(""), 1, sum_all)
declare("float_bins", "float", "    if (i < n) atomicAdd(&out[i % bins], in[i]);", "bins", sum_bins)
declare("double_bins", "double", "    if (i < n) atomicAdd(&out[i % bins], in[i]);", "bins", sum_bins)
declare("float_bins_but_one", "float", "    if (i < n && i >= 32) atomicAdd(&out[i % bins], in[i]);", "bins", sum_bins)
-- values around 0 from -50 to 50: partial sums far larger than the total, the case a relative 1e-5 misses
declare("centred_sum", "float", WARP_SUM:format(""), 1, sum_all, function(i) return (i * 7919 % 1000) / 10 - 49.95 end)

local SIZES = { 1000, 32768, 1 << 20 }
local function what(r) return string.format("correct %s%s", tostring(r.correct), r.mismatch and " (" .. r.mismatch .. ")" or "") end

for _, n in ipairs(SIZES) do
  local r = launch("warp_sum", { n = n })
  local warps = blocks({ n = n }) * BLOCK // 32
  t.ok(r.correct == true and r.tolerance and r.tolerance.values == 1 and r.tolerance.most_terms == warps,
       string.format("warp sums, one atomicAdd a warp, n=%d: %s, out[0] summed %s terms (%d warps)", n, what(r),
                     tostring(r.tolerance and r.tolerance.most_terms), warps))
  r = launch("centred_sum", { n = n })
  t.ok(r.correct == true, string.format("the same over values from -50 to 50, n=%d: %s", n, what(r)))
  for _, kind in ipairs({ "float_bins", "double_bins" }) do
    r = launch(kind, { n = n, bins = 4 })
    t.ok(r.correct == true and r.tolerance and r.tolerance.values == 4 and r.tolerance.most_terms == (n + 3) // 4,
         string.format("%s: one atomicAdd a thread into 4 bins, n=%d: %s, %s terms a bin at most", kind, n, what(r),
                       tostring(r.tolerance and r.tolerance.most_terms)))
  end
end

-- Past 2^22 elements the check takes a sample, through proxies: the same tolerance.
local sampled = launch("float_bins", { n = (1 << 22) + 1000, bins = 4 })
t.ok(sampled.correct == true and sampled.tolerance and sampled.tolerance.values == 4,
     "float_bins, n=2^22+1000, checked on a sample: " .. what(sampled))

local r = launch("float_bins", { n = 1 << 20, bins = 4 })
t.ok(tostring(r):gsub("%s+", " "):find("4 values summed by float atomics: within the rounding of up to 262,144 terms in any order", 1, true),
     "the card's check row says which values were compared within their terms' rounding")
core.lang("zh")
local zh_card = tostring(r):gsub("%s+", "")
local zh_wrong = launch("float_bins_but_one", { n = 4096 })
core.lang("en")
t.ok(zh_card:find("浮点原子操作求和的4个值：在至多262,144项以任意顺序相加的舍入之内", 1, true) and
     zh_wrong.mismatch:find("项浮点原子操作之和的舍入所允许的容差", 1, true),
     "in Chinese too: the check row, and what a wrong sum's terms allowed (" .. zh_wrong.mismatch .. ")")
local double = launch("double_bins", { n = 1 << 20, bins = 4 })
t.ok(double.tolerance.widest < r.tolerance.widest * 1e-8,
     string.format("a double's sums are allowed a double's rounding (%.3g, a float's %.3g)", double.tolerance.widest, r.tolerance.widest))

-- A block's sum in shared memory (one atomicAdd a thread there), then one
-- atomicAdd a block into out[0]: the shared sums' rounding is carried into
-- out[0]'s tolerance; with one block it is all the tolerance there is.
kernel {
  name = "block_sum",
  file = (os.getenv("srcdir") or ".") .. "/tests/compile/block_sum.cu",
  params = { n = { default = 1024, min = 1, max = 1 << 24 } },
  buffers = { ["in"] = { type = "float", count = "n", fill = function(i) return (i * 7919 % 1000) / 10 - 49.95 end },
              out = { type = "float", count = 1, output = true } },
  args = { "in", "out", "n" }, grid = function(p) return (p.n + 1023) // 1024 end, block = 1024,
  reference = sum_all,
}
for _, n in ipairs({ 1024, 1 << 20 }) do
  r = launch("block_sum", { n = n })
  t.ok(r.correct == true and r.tolerance and r.tolerance.most_terms == (n + 1023) // 1024 and r.tolerance.widest > 1e-4,
       string.format("block sums in shared memory, n=%d: %s; out[0] summed %s terms within %.3g", n, what(r),
                     tostring(r.tolerance and r.tolerance.most_terms), r.tolerance and r.tolerance.widest or 0))
end

-- Wrong sums: one warp missing, at sizes where a warp's values are more
-- than the rounding of all the terms; half the blocks missing at 2^20.
declare("warp_sum_but_one", "float", WARP_SUM:format(" && i >= 32"), 1, sum_all)
declare("float_bins_half", "float", "    if (i < n && blockIdx.x % 2 == 0) atomicAdd(&out[i % bins], in[i]);", "bins", sum_bins)
-- (A warp of 32 values in [0, 1) adds about 16; the tolerance at 1,023 warp
-- sums is 2, at 2,048 adds a bin 0.25, and at 262,144 adds a bin 4,200.)
for _, case in ipairs({ { "warp_sum_but_one", 4096 }, { "warp_sum_but_one", 32768 }, { "float_bins_but_one", 4096 },
                        { "float_bins_but_one", 8192 } }) do
  r = launch(case[1], { n = case[2] })
  t.ok(r.correct == false and r.mismatch:find("float atomic terms allows", 1, true),
       string.format("%s, n=%d: a sum that misses a warp is wrong: %s", case[1], case[2], what(r)))
end
r = launch("float_bins_half", { n = 1 << 20 })
t.ok(r.correct == false, "half the blocks missing from 2^20 terms is wrong: " .. what(r))

-- Integer atomics stay exact; so do floats no atomic wrote (within 1e-5, as before).
local function histogram(name, extra)
  return kernel {
    name = name,
    source = string.format([=[
__global__ void %s(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&out[in[i]], 1%s);
}]=], name, extra),
    params = { n = { default = 1 << 16, min = 1, max = 1 << 24 } },
    buffers = { ["in"] = { type = "int", count = "n", fill = { "int", 0, 7 } }, out = { type = "int", count = 8, output = true } },
    args = { "in", "out", "n" }, grid = blocks, block = BLOCK,
    reference = function(p, b) for i = 0, p.n - 1 do b.out[b["in"][i]] = b.out[b["in"][i]] + 1 end end,
  }
end
histogram("int_bins", "")
histogram("int_bins_one_more", " + (i == 0)")
r = launch("int_bins")
t.ok(r.correct == true and r.tolerance == nil, "integer atomics: correct, and no tolerance: " .. what(r))
r = launch("int_bins_one_more")
t.ok(r.correct == false and not r.mismatch:find("float atomic", 1, true), "integer atomics off by one are wrong: " .. what(r))
declare("scaled", "float", "    if (i < n) out[i] = in[i] * 1.0001f;", "n", function(p, b) for i = 0, p.n - 1 do b.out[i] = b["in"][i] end end)
r = launch("scaled", { n = 1 << 20 })
t.ok(r.correct == false and r.tolerance == nil, "a float no atomic wrote, off by 1e-4, is still wrong: " .. what(r))
t.done()
