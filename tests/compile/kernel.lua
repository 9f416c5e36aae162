-- kernel.lua: kernel{...}, a kernel written in CUDA C at the prompt and
-- declared with its params, buffers, arguments and launch shape, is then a
-- kernel like the built-in ones, modelled by the emulator: the issue's own
-- example counts what the built-in strided counts; sizes from functions,
-- param names and numbers, 2-D grids and blocks, integer index buffers;
-- sweep and info take it; declaring it again replaces it, with a note; its
-- outputs are checked against its Lua reference; and each mistake is one clear line.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local function u_quote(v) return type(v) == "table" and "{" .. table.concat(v, ", ") .. "}" or '"' .. tostring(v) .. '"' end
if not core.nvrtc_version() and not core.find_program("clang") then t.skip_all("no CUDA compiler here (neither NVRTC nor clang)") end

local MYSTRIDE = [[
__global__ void mystride(const float *in, float *out, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[(long long)i * stride];
}]]
local function declare_mystride(source, block)
  return kernel {
    name = "mystride",
    source = source,
    params = { n = 1 << 16, stride = { default = 2, min = 1, max = 1024 } },
    buffers = { ["in"] = { type = "float", count = function(p) return p.n * p.stride end },
                out = { type = "float", count = "n", output = true } },
    args = { "in", "out", "n", "stride" },
    grid = function(p) return (p.n + block - 1) // block end,
    block = block,
  }
end
local function counts(r) return string.format("%d/%d %d/%d", r.model.load.requests, r.model.load.sectors, r.model.store.requests, r.model.store.sectors) end

t.is(declare_mystride(MYSTRIDE, 256), "mystride", "kernel{} declares the issue's example and returns its name")
for _, stride in ipairs({ 1, 2, 4, 33 }) do
  local mine, built_in = launch("mystride", { stride = stride, n = 5000 }), launch("strided", { stride = stride, n = 5000 })
  t.ok(mine.model.source == "emulator" and counts(mine) == counts(built_in),
       string.format("stride %d: the emulator's counts of it are the built-in strided's (%s, strided %s)", stride, counts(mine), counts(built_in)))
end
local formula = launch("mystride", { model = "formula" })
t.is(formula.model.source, "emulator", "a kernel declared in Lua has no formula: the emulator models it whatever model= asks")

local listed = false
for _, k in ipairs(kernels()) do listed = listed or k.name == "mystride" end
t.ok(listed and info("mystride").source:find("in[(long long)i * stride]", 1, true) ~= nil, "kernels() lists it and info() shows its source")

local swept = sweep("mystride", { stride = { 1, 2, 4 }, n = 4096 })
t.ok(#swept == 3 and swept[3].params.stride == 4 and swept[3].model.load.sectors == 4 * swept[1].model.load.sectors,
     "sweep() takes it: sectors grow with the stride")

-- Declared again: the new one from then on, with a note.
core.capture(true)
declare_mystride((MYSTRIDE:gsub("%(long long%)i %* stride", "i")), 128)
local note = core.capture(false)
local again = launch("mystride", { stride = 4, n = 4096 })
t.ok(again.model.load.sectors == again.model.store.sectors and note:find("kernel 'mystride' replaced by the new declaration", 1, true),
     "declared again, the new kernel runs, with a note (" .. counts(again) .. "; " .. note:gsub("\n", " ") .. ")")

-- 2-D: a copy of a rows x cols matrix in 32 x 8 blocks, each warp one row of 32 floats.
kernel {
  name = "copy2d",
  source = [[extern "C" __global__ void copy2d(const float *a, float *b, int rows, int cols)
{ int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) b[y * cols + x] = a[y * cols + x]; }]],
  params = { rows = 64, cols = 96 },
  buffers = { a = { type = "float", count = function(p) return p.rows * p.cols end },
              b = { type = "float", count = function(p) return p.rows * p.cols end, output = true } },
  args = { "a", "b", "rows", "cols" },
  grid = { function(p) return (p.cols + 31) // 32 end, function(p) return (p.rows + 7) // 8 end },
  block = { 32, 8 },
}
local c2 = launch("copy2d")
t.ok(c2.model.load.requests == 64 * 3 and c2.model.load.sectors == 64 * 3 * 4 and c2.model.store.requests == 64 * 3,
     "a 2-D grid of 2-D blocks: one request of 4 sectors per warp and row (" .. counts(c2) .. ")")

-- Integer contents: an index buffer of random integers within the array, for a gather.
kernel {
  name = "mygather",
  source = [==[extern "C" __global__ void mygather(const float *data, const int *index, float *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = data[index[i]]; }]==],
  params = { n = 4096 },
  buffers = { data = { type = "float", count = "n" }, index = { type = "int", count = "n", fill = { "int", 0, 4095 } },
              out = { type = "float", count = "n", output = true } },
  args = { "data", "index", "out", "n" },
  grid = function(p) return (p.n + 255) // 256 end,
  block = 256,
}
local g = launch("mygather")
t.ok(g.model.load.requests == 2 * 128 and g.model.load.sectors > 128 * 4 + 128 * 4,
     "an index buffer of random integers: the gather's loads scatter (" .. counts(g) .. ")")

-- Its warp map: the emulator runs the warp's block alone, on the launch's inputs.
local strided_map = { name = "strided_map", entry = "mystride", source = MYSTRIDE, params = { n = 4096, stride = { default = 4, min = 1 } },
                      buffers = { ["in"] = { type = "float", count = function(p) return p.n * p.stride end },
                                  out = { type = "float", count = "n", output = true } },
                      args = { "in", "out", "n", "stride" }, grid = function(p) return (p.n + 255) // 256 end, block = 256 }
kernel(strided_map)
local accesses = core.warp("strided_map", { stride = 4 }, 9)
t.ok(#accesses == 2 and accesses[1].kind == "load" and accesses[1].buffer == "in" and accesses[1].lanes[1] == 4 * 4 * 288 and
     accesses[1].lanes[32] == 4 * 4 * 319 and accesses[2].kind == "store" and accesses[2].lanes[1] == 4 * 288,
     "its warp map: warp 9's load at 16-byte steps from thread 288's, and its store")
core.capture(true)
local ok, message = pcall(show, launch("mygather"), 3)
local map = core.capture(false)
t.ok(ok and map:find("warp 3 of mygather", 1, true) ~= nil and map:find("load index[]", 1, true) ~= nil and
     map:find("load data[]", 1, true) ~= nil, "show() draws a warp of it: the index load, then the gather (" .. tostring(message) .. ")")

-- A reference: the emulator's outputs are checked against it, float4 elements field by field.
local function declare_scale(reference)
  return kernel {
    name = "scale4",
    source = [[extern "C" __global__ void scale4(const float4 *in, float4 *out, const int *k, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float4 v = in[i]; float s = (float)k[i]; out[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s); } }]],
    params = { n = 1000 },
    buffers = { ["in"] = { type = "float4", count = "n" }, out = { type = "float4", count = "n", output = true },
                k = { type = "int", count = "n", fill = { "int", -3, 3 } } },
    args = { "in", "out", "k", "n" },
    grid = function(p) return (p.n + 127) // 128 end,
    block = 128,
    reference = reference,
  }
end
local function scale(p, b)
  for i = 0, p.n - 1 do
    local v, s = b["in"][i], b.k[i]
    b.out[i] = { x = v.x * s, y = v.y * s, z = v.z * s, w = v.w * s }
  end
end
declare_scale(scale)
local checked = launch("scale4")
t.ok(checked.correct == true and checked.model.load.requests == 2 * 32, "the outputs are checked against its reference: float4 and int elements (" ..
     tostring(checked.correct) .. ", " .. counts(checked) .. ")")
core.capture(true)
declare_scale(function(p, b) scale(p, b) b.out[7].z = 99 end)
local wrong = launch("scale4")
declare_scale(function() error("no reference here") end)
local failing = launch("scale4")
core.capture(false)
t.ok(wrong.correct == false and tostring(wrong.mismatch):find("^out%[7%]%.z: the reference says 99") ~= nil,
     "a reference that disagrees: correct is false, and mismatch names the element (" .. tostring(wrong.mismatch) .. ")")
t.ok(failing.correct == false and tostring(failing.mismatch):find("the reference failed:", 1, true) ~= nil and
     tostring(failing.mismatch):find("no reference here", 1, true) ~= nil, "a reference that fails says so (" .. tostring(failing.mismatch) .. ")")
t.is(launch("copy2d").correct, nil, "without a reference nothing is checked")

-- Index patterns, a Lua function of the index, and an output that starts filled: what the
-- reference sees is what the kernel read (each checks its own buffers and copies them through).
local PATTERNS = {
  { "permutation", function(v, n) local seen = {} for i = 0, n - 1 do if seen[v[i]] or v[i] < 0 or v[i] >= n then return false end seen[v[i]] = true end return true end },
  { "sorted", function(v, n) for i = 0, n - 1 do if v[i] // 32 ~= i // 32 or (i % 32 > 0 and v[i] < v[i - 1]) then return false end end return true end },
  { { "window", 8 }, function(v, n) for i = 0, n - 1 do if v[i] // 8 ~= i // 8 then return false end end return true end },
  { function(i) return (i * 7) % 13 end, function(v, n) for i = 0, n - 1 do if v[i] ~= (i * 7) % 13 then return false end end return true end },
}
for k, pattern in ipairs(PATTERNS) do
  local holds = false
  kernel {
    name = "pattern" .. k,
    source = [==[extern "C" __global__ void pattern(const int *index, const float *data, float *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = data[index[i]]; }]==],
    entry = "pattern", params = { n = 1000 },
    buffers = { index = { type = "int", count = "n", fill = pattern[1] }, data = { type = "float", count = "n" },
                out = { type = "float", count = "n", output = true } },
    args = { "index", "data", "out", "n" }, grid = 4, block = 256,
    reference = function(p, b)
      holds = pattern[2](b.index, p.n)
      for i = 0, p.n - 1 do b.out[i] = b.data[b.index[i]] end
    end,
  }
  local r = launch("pattern" .. k)
  t.ok(holds and r.correct == true, string.format("fill %s: the index buffer holds its pattern, and the gather reads through it",
                                                  type(pattern[1]) == "function" and "function(i)" or u_quote(pattern[1])))
end
kernel {
  name = "axpy_inplace",
  source = [[extern "C" __global__ void axpy_inplace(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i] + y[i]; }]],
  params = { n = 3000 },
  buffers = { x = { type = "float", count = "n" }, y = { type = "float", count = "n", output = true, fill = "random" } },
  args = { "x", "y", "n" }, grid = function(p) return (p.n + 255) // 256 end, block = 256,
  reference = function(p, b) for i = 0, p.n - 1 do b.y[i] = 2 * b.x[i] + b.y[i] end end,
}
local inplace = launch("axpy_inplace")
t.ok(inplace.correct == true and inplace.model.load.requests == 2 * 94, "an output that starts filled: y = 2x + y reads and checks y's first contents (" ..
     tostring(inplace.correct) .. ", " .. counts(inplace) .. ")")
kernel {
  name = "vector_fill",
  source = [[extern "C" __global__ void vector_fill(const int2 *in, int *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i].x - in[i].y; }]],
  params = { n = 100 },
  buffers = { ["in"] = { type = "int2", count = "n", fill = function(i) return { x = 3 * i, y = i } end },
              out = { type = "int", count = "n", output = true } },
  args = { "in", "out", "n" }, grid = 1, block = 128,
  reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = 2 * i end end,
}
t.is(launch("vector_fill").correct, true, "a function fills a vector buffer with {x=, y=}")
kernel {
  name = "wait_flag",
  source = [[extern "C" __global__ void wait_flag(volatile int *flag, int *out) { while (flag[0] == 0) { } out[threadIdx.x] = flag[0]; }]],
  params = { n = 1 }, buffers = { flag = { type = "int", count = 1, fill = { "int", 5, 5 } }, out = { type = "int", count = 32, output = true } },
  args = { "flag", "out" }, grid = 1, block = 32,
  reference = function(p, b) for i = 0, 31 do b.out[i] = 5 end end,
}
t.is(launch("wait_flag").correct, true, "volatile loads run on the emulator (a flag already set ends the wait)")
-- A __constant__ buffer: filled like an input, written into the variable of its name before each launch.
local CONSTANT = [[
__constant__ int table[16];
extern "C" __global__ void lookup(const int *keys, int *out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = table[keys[i] & 15]; }]]
local function declare_lookup(changes)
  local spec = { name = "lookup", source = CONSTANT, params = { n = 4096 },
                 buffers = { table = { type = "int", count = 16, constant = true, fill = { "int", -1000, 1000 } },
                             keys = { type = "int", count = "n", fill = function(i) return (i % 32) // 4 end },
                             out = { type = "int", count = "n", output = true } },
                 args = { "keys", "out", "n" }, grid = function(p) return (p.n + 255) // 256 end, block = 256,
                 reference = function(p, b) for i = 0, p.n - 1 do b.out[i] = b.table[b.keys[i] & 15] end end }
  for k, v in pairs(changes or {}) do spec[k] = v end
  return spec
end
kernel(declare_lookup())
local lookup = launch("lookup")
t.ok(lookup.correct == true and lookup.constant.requests == 128 and lookup.constant.passes == 1024,
     "a constant buffer: the kernel reads the table it was given, 8 addresses a warp, 8 passes (" .. tostring(lookup.correct) .. ", " ..
     tostring(lookup.constant.requests) .. "/" .. tostring(lookup.constant.passes) .. ")")
t.raises(function() kernel(declare_lookup({ args = { "keys", "out", "n", "table" } })) end,
         { "buffers.table is constant: the kernel reads its __constant__ variable by name, so it is not an argument" }, "a constant buffer in args: one line")
t.raises(function() kernel(declare_lookup({ source = CONSTANT:gsub("table", "other") })) end,
         { "buffers.table is constant, and the source has no __constant__ variable 'table'" }, "a constant buffer the source lacks: one line")
local big = declare_lookup()
big.buffers.table.count = 17
kernel(big)
t.raises(function() launch("lookup") end, { "buffers.table holds 68 bytes, more than its __constant__ variable's 64" },
         "a constant buffer larger than its variable: one line at launch")
-- A number param: a float default; the kernel gets it as its float (or double) argument.
kernel {
  name = "scaled",
  source = [[extern "C" __global__ void scaled(const float *in, double *out, float scale, double shift, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i] * scale + shift; }]],
  params = { n = 1000, scale = 0.5, shift = { default = 2.0, min = -10.0, max = 10.0 } },
  buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "double", count = "n", output = true } },
  args = { "in", "out", "scale", "shift", "n" }, grid = 4, block = 256,
  reference = function(p, b)
    for i = 0, p.n - 1 do b.out[i] = string.unpack("<f", string.pack("<f", b["in"][i] * p.scale)) + p.shift end
  end,
}
local scaled = launch("scaled", { scale = 3.25 })
t.ok(scaled.correct == true and scaled.params.scale == 3.25 and scaled.params.shift == 2.0,
     "number params go to the kernel as its float and double (" .. tostring(scaled.correct) .. ", " .. tostring(scaled.mismatch) .. ")")
local shift_info
for _, p in ipairs(info("scaled").params) do if p.name == "shift" then shift_info = p end end
t.ok(shift_info.type == "number" and shift_info.default == 2.0 and shift_info.min == -10.0, "info() calls a number param a number, with its range")
t.raises(function() launch("scaled", { shift = 11.0 }) end, { "'shift' must be a number from -10 to 10, got 11" }, "a number out of range: one line")
t.raises(function() launch("scaled", { scale = "big" }) end, { "'scale' must be a number, got string" }, "a string for a number: one line")
t.is(config().kernel_timeout, 10, "kernel_timeout is 10 s by default")
t.raises(function() config { kernel_timeout = 0 } end, { "'kernel_timeout' must be a number of seconds above 0, at most 3600" },
         "kernel_timeout of 0 is one clear line")

-- Mistakes, each one clear line.
local base = { name = "bad_one", source = "extern \"C\" __global__ void bad_one(float *a, int n) { a[threadIdx.x] = n; }",
               params = { n = 32 }, buffers = { a = { type = "float", count = "n", output = true } }, args = { "a", "n" }, grid = 1, block = 32 }
local function with(changes) local spec = {} for k, v in pairs(base) do spec[k] = v end for k, v in pairs(changes) do spec[k] = v end return spec end
local cases = {
  { with({ name = "copy" }), "name 'copy' is a built-in kernel's" },
  { with({ name = "Bad" }), "name must be lowercase letters, digits and _" },
  { with({ buffers = { a = { type = "half", count = "n" } } }), "buffers.a.type must be one of" },
  { with({ args = { "a", "m" } }), "'m' is not a param or buffer of kernel 'bad_one'" },
  { with({ grid = "m" }), "grid must be an integer, a param's name" },
  { with({ params = { n = { default = 5, min = 10 } } }), "params.n must be {default=, min=, max=} with min <= default <= max" },
  { with({ source = "__global__ void other(float *a) {}" }), "its source defines no __global__ function 'bad_one'" },
  { with({ source = "__global__ void bad_one(float *a, int n) { a[0] = undeclared; }" }), "does not compile" },
  { with({ file = "/nonexistent/k.cu" }), "file /nonexistent/k.cu cannot be read" },
  { with({ reference = 5 }), "reference must be a function(p, b)" },
  { with({ args = { "a" } }), "kernel 'bad_one': its entry takes 2 arguments, and args lists 1" },
  { with({ buffers = { a = { type = "float", count = "n", output = true, fill = { "window", 0 } } } }), "buffers.a.fill must be" },
}
for _, case in ipairs(cases) do
  ok, message = pcall(kernel, case[1])
  t.ok(not ok and tostring(message):find(case[2], 1, true) ~= nil, "one clear line: " .. case[2] .. " (" .. tostring(message):gsub("\n.*", "") .. ")")
end
kernel(with({ block = function(p) return 2048 end }))
ok, message = pcall(launch, "bad_one")
t.ok(not ok and tostring(message):find("kernel 'bad_one': block[1] must be an integer from 1 to 1024", 1, true) ~= nil,
     "a block too large: one line at launch (" .. tostring(message) .. ")")
kernel(with({ block = { 32, 64 } }))
ok, message = pcall(launch, "bad_one")
t.ok(not ok and tostring(message):find("a block of 2048 threads; at most 1024", 1, true) ~= nil, "a block of too many threads: one line at launch (" .. tostring(message) .. ")")
kernel(with({ buffers = { a = { type = "float", count = "n", output = true }, b = { type = "int", count = "n", fill = function(i) return i / 2 end } } }))
ok, message = pcall(launch, "bad_one")
t.ok(not ok and tostring(message):find("kernel 'bad_one': buffers.b.fill(1) gave what the buffer cannot hold", 1, true) ~= nil,
     "a fill function that gives a fraction for an int: one line at launch (" .. tostring(message) .. ")")
kernel(with({ grid = function(p) return p.n / 2 end }))
ok, message = pcall(launch, "bad_one")
t.ok(not ok and tostring(message):find("grid(p) gave 16.0, not an integer or {x, y[, z]} of integers", 1, true) ~= nil,
     "a size that is not an integer: one line at launch, naming the function as written (" .. tostring(message) .. ")")

-- grid and block as a function of the params giving {x, y[, z]} (issue 31, item 5)
kernel(with({ grid = function(p) return { p.n // 32, 2 } end, block = function() return { 32, 1 } end }))
local two_d = launch("bad_one")
t.ok(two_d.model.warps == (32 // 32) * 2, "grid = function(p) return {x, y} end: a 2-D grid (" .. tostring(two_d.model.warps) .. " warps)")
kernel(with({ grid = function(p) return { 1, 2.5 } end }))
ok, message = pcall(launch, "bad_one")
t.ok(not ok and tostring(message):find("grid(p)[2] gave 2.5, not an integer", 1, true) ~= nil,
     "{x, y} from a function with a fraction: the item named as written (" .. tostring(message) .. ")")
kernel(with({ grid = function(p) return { 1, 2, 3, 4 } end }))
ok, message = pcall(launch, "bad_one")
t.ok(not ok and tostring(message):find("grid(p) gave a list of 4, not {x, y[, z]}", 1, true) ~= nil,
     "four dims from a function: one line (" .. tostring(message) .. ")")

-- A kernel with no params (item 16); the limits name their field
local none = kernel { name = "no_params", source = [[extern "C" __global__ void no_params(float *a) { a[threadIdx.x] = 1.0f; }]],
                      buffers = { a = { type = "float", count = 32, output = true } }, args = { "a" }, grid = 1, block = 32,
                      reference = function(p, b) for i = 0, 31 do b.a[i] = 1 end end }
local r = launch(none)
t.ok(r.correct == true and r.store.requests == 1, "a kernel without params declares and launches, correct")
local many = {}
for i = 1, 7 do many["b" .. i] = { type = "float", count = 32, output = i == 1 } end
ok, message = pcall(kernel, { name = "seven", source = [[extern "C" __global__ void seven(float *b1) {}]], buffers = many,
                              args = { "b1" }, grid = 1, block = 32 })
t.ok(not ok and tostring(message):find("buffers: 1 to 6, got 7", 1, true) ~= nil,
     "seven buffers: the field and its limit (" .. tostring(message) .. ")")
-- An access outside every buffer names the element of the nearest one (issue 31, item 14)
local function oob(index)
  kernel { name = "oob", source = string.format([[extern "C" __global__ void oob(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[%s] = 1.0f;
}]], index), params = { n = 64 }, buffers = { a = { type = "float", count = "n", output = true } }, args = { "a", "n" },
           grid = 2, block = 32 }
  local ok, message = pcall(launch, "oob")
  return not ok and tostring(message) or "no error"
end
local past = oob("i + 40")
t.ok(past:find("which is in no buffer (a[64] of a's 64 elements: 1 beyond its last); lane 24 of warp 0 of block (0, 0, 0)", 1, true) ~= nil
     and past:find("(source line 4)", 1, true) ~= nil, "a store past a buffer's end names a[64], how far, the lane and the source line (" .. past .. ")")
local before = oob("i - 3")
t.ok(before:find("(a[-3]: 3 elements before a's first); lane 0 of warp 0", 1, true) ~= nil, "a store before a buffer names a[-3] (" .. before .. ")")
local far = oob("i + 100000000")
t.ok(far:find("which is in no buffer; lane 0", 1, true) ~= nil, "an address far from every buffer names none (" .. far .. ")")
t.done()
