-- kernel_sample.lua: a kernel declared with kernel{} is checked against its
-- reference at every size. A launch whose buffers hold more than 4 Mi
-- elements in all is checked on a sample of its outputs (the first and last,
-- each block's first and last element, random ones), and says so in
-- checked_elements and on the card; a kernel wrong only at a high index
-- beyond 4 Mi, at the tail or at a block's last element, is caught; an
-- output that starts filled reads as it started; a launch with no reference
-- says it was not checked.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
if not core.nvrtc_version() and not core.find_program("clang") then t.skip_all("no CUDA compiler here (neither NVRTC nor clang)") end

local N = (1 << 22) + 3000   -- in and out together hold twice the 4 Mi that are checked whole
local BLOCK = 256

-- twice: out = 2 * in, wrong where `wrong` (a CUDA condition on i) holds.
local function declare_twice(wrong, reference)
  return kernel {
    name = "twice",
    source = [[extern "C" __global__ void twice(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i] + ((]] .. wrong .. [[) ? 1.0f : 0.0f);
}
]],
    params = { n = N },
    buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true } },
    args = { "in", "out", "n" }, grid = function(p) return (p.n + BLOCK - 1) // BLOCK end, block = BLOCK,
    reference = reference or function(p, b)
      local from, to = b["in"], b.out
      for i = 0, p.n - 1 do to[i] = 2 * from[i] end
    end,
  }
end

core.capture(true)
declare_twice("0")
local right = launch("twice")
print(right)
local card = core.capture(false):gsub("%s+", " ")   -- the card wraps its rows
t.ok(right.correct == true and right.output_elements == N and right.checked_elements >= 1 << 19 and right.checked_elements < N,
     string.format("a correct kernel of %d elements is right on a sample: %s of %s output elements checked",
                   N, tostring(right.checked_elements), tostring(right.output_elements)))
local function commas(n) return (tostring(n):reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")) end
t.ok(card:find("checked " .. commas(right.checked_elements) .. " of " .. commas(N) .. " elements: a sample", 1, true) ~= nil,
     "the card says how many elements of how many were checked, and that they were a sample")
local before = core.lang("zh")
core.capture(true)
print(right)
local card_zh = core.capture(false):gsub("%s+", "")
core.lang(before)
t.ok(card_zh:find("检查了" .. commas(right.checked_elements) .. "个元素（共" .. commas(N) .. "个）：一个抽样", 1, true) ~= nil,
     "... and says so in Chinese")
-- Wrong past the first and last elements and off the blocks' edges: the random part of the sample finds
-- it, at the same first element every time (the sample is drawn from the launch).
declare_twice("i > 1000000 && i < 4000000 && i % 1009 == 500")
local first, second = launch("twice"), launch("twice")
t.ok(first.correct == false and first.mismatch == second.mismatch,
     "wrong at one element in 1009 inside: the random part of the sample finds it, at the same element each time (" .. tostring(first.mismatch) .. ")")

local cases = {
  { "i == n - 1", "out[" .. (N - 1) .. "]", "wrong at the last element only" },
  { "i == 16390LL * 256 + 255", "out[" .. (16390 * BLOCK + 255) .. "]", "wrong at one block's last element only, past 4 Mi" },
  { "i == 16391LL * 256", "out[" .. (16391 * BLOCK) .. "]", "wrong at one block's first element only, past 4 Mi" },
  { "i >= (1LL << 22) && i % 3 == 1", "out[", "wrong at a third of the elements past 4 Mi" },
}
for _, case in ipairs(cases) do
  declare_twice(case[1])
  local r = launch("twice")
  t.ok(r.correct == false and tostring(r.mismatch):find(case[2], 1, true) == 1 and r.checked_elements < r.output_elements,
       case[3] .. ": caught by the sample (" .. tostring(r.mismatch) .. ")")
end

-- An output that starts filled: the reference reads it as the kernel found it, at a sample too.
kernel {
  name = "add_into",
  source = [[extern "C" __global__ void add_into(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = out[i] + 2.0f * in[i];
}
]],
  params = { n = N },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true, fill = "index" } },
  args = { "in", "out", "n" }, grid = function(p) return (p.n + BLOCK - 1) // BLOCK end, block = BLOCK,
  reference = function(p, b)
    local from, to = b["in"], b.out
    for i = 0, p.n - 1 do to[i] = to[i] + 2 * from[i] end
  end,
}
local filled = launch("add_into")
t.ok(filled.correct == true and filled.checked_elements < filled.output_elements,
     "an output filled before the launch reads as it started, at the sampled elements (" .. tostring(filled.mismatch) .. ")")

-- A vector output, whose elements the reference sets field by field.
kernel {
  name = "pairs_of",
  source = [[extern "C" __global__ void pairs_of(const float *in, float2 *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float2(in[i], 2.0f * in[i]);
}
]],
  params = { n = N },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float2", count = "n", output = true } },
  args = { "in", "out", "n" }, grid = function(p) return (p.n + BLOCK - 1) // BLOCK end, block = BLOCK,
  reference = function(p, b)
    local from, to = b["in"], b.out
    for i = 0, p.n - 1 do
      local pair = to[i]
      pair.x, pair.y = from[i], 2 * from[i]
    end
  end,
}
local pairs_result = launch("pairs_of")
t.ok(pairs_result.correct == true and pairs_result.checked_elements < pairs_result.output_elements,
     "a float2 output set field by field: the sampled elements keep the reference's fields (" .. tostring(pairs_result.mismatch) .. ")")

-- A lab's kernel past 4 Mi: its reference, lab code, gets the instructions a launch of that size needs.
require("warplab.progress").use_memory()   -- nothing of this test is saved
local temporary = os.tmpname()
local lab_path = temporary .. ".lua"   -- a lab file is known by its .lua
local lab_file = assert(io.open(lab_path, "w"))
lab_file:write([==[
lab { title = { en = "Big", zh = "大" } }
step {
  text = { en = "Run it.", zh = "运行。" },
  kernel = {
    name = "lab_twice",
    skeleton = [[extern "C" __global__ void lab_twice(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}
]],
    params = { n = 1 << 23 },
    buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true } },
    args = { "in", "out", "n" }, grid = function(p) return (p.n + 255) // 256 end, block = 256,
    reference = function(p, b) local from, to = b["in"], b.out for i = 0, p.n - 1 do to[i] = 2 * from[i] end end,
  },
  run = [[r = launch("lab_twice")]],
}
]==])
lab_file:close()
core.capture(true)
core.labs.open(lab_path)
core.labs.run()
local lab_output = core.capture(false)
os.remove(lab_path)
os.remove(temporary)
local lab_result = core.last_result()
t.ok(lab_result and lab_result.kernel == "lab_twice" and lab_result.correct == true and lab_result.output_elements == 1 << 23,
     "a lab kernel of 8 Mi elements is checked inside the sandbox's budget (" .. lab_output:gsub("%s+", " "):sub(-160) .. ")")

-- The reference's own mistake is reported as one, not as the kernel's.
declare_twice("0", function(p, b) b.out[p.n - 1] = b.nothing[0] end)
local failed = launch("twice")
t.ok(failed.correct == false and tostring(failed.mismatch):find("the reference failed", 1, true) == 1,
     "a reference that fails past 4 Mi: the launch is not right, and says the reference failed (" .. tostring(failed.mismatch) .. ")")

-- Small launches are checked whole.
declare_twice("0")
local small = launch("twice", { n = 5000 })
t.ok(small.correct == true and small.checked_elements == 5000 and small.output_elements == 5000,
     "a launch under 4 Mi elements is checked at every output element")

-- No reference: not checked, and the card says so.
kernel {
  name = "unchecked_copy",
  source = [[extern "C" __global__ void unchecked_copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
]],
  params = { n = 4096 },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true } },
  args = { "in", "out", "n" }, grid = 16, block = 256,
}
core.capture(true)
local plain = launch("unchecked_copy")
print(plain)
card = core.capture(false):gsub("%s+", " ")
t.ok(plain.correct == nil and plain.checked_elements == nil and tostring(plain.unchecked):find("no reference", 1, true) ~= nil
     and card:find("not checked: the kernel declares no reference", 1, true) ~= nil,
     "a kernel without a reference: unchecked says why, and the card says it was not checked")
t.done()
