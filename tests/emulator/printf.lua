-- printf.lua: printf in a kernel on the emulator (issue 31, item 4), with
-- each compiler here. Each lane's call is formatted as CUDA formats it
-- (widths, flags, precision, %s of a string literal, the h, hh, l and ll
-- lengths, '*' widths, %a, %p, %%, the 32-argument rule), in lane order
-- across two warps, and returns the number of arguments, as CUDA's printf
-- does; printf's argument buffer is not global memory traffic. Through
-- launch(): blocks in order, whatever thread of the model ran them; the
-- first 64 lines, then one line saying how many more; shown once per launch
-- (a warp map runs the kernel again and prints nothing). What cannot be
-- emulated (%n, %s of a pointer into a buffer) is one error naming printf,
-- the format and the source line (clang's too, from its line table), in
-- English and in Chinese. <cstdio>, <stdio.h>, <cstdint>, <stdint.h>,
-- <cstddef>, <stddef.h>, <climits>, <limits.h> and <stdbool.h> compile with
-- each compiler, <cuda_fp16.h> with NVRTC, <cfloat> and <float.h> with clang.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]

local compilers = t.compilers()

local function ptx_of(source, compiler) return require("warplab.compile").compile(source, { compiler = compiler }).ptx end
local function float32(v) return (string.unpack("<f", string.pack("<f", v))) end

local FORMATS = [[
extern "C" __global__ void formats(const float *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = printf("%3d|%-4d|%05d|%+d|%x|%X|%o|%c|%s|%.2f|%8.3e|%g|%ld|%lld|%lu|%llu|%5.1s|%*d|%%\n",
                        i, -i, i, i, 255 + i, 255 + i, 8 + i, 'a' + i % 26, "ok", x[i], x[i] * 1000.0f, x[i] / 3.0f,
                        (long)i * -1000000000L, (long long)i << 40, (unsigned long)i, (unsigned long long)i * 3,
                        "warp", 4, i);
}]]
local FORMATS_ARGUMENTS = 19

-- What CUDA prints for thread i (Lua's string.format is C's, lengths left out).
local function formats_line(i)
  local x = i / 8
  return string.format("%3d|%-4d|%05d|%+d|%x|%X|%o|%c|%s|%.2f|%8.3e|%g|%d|%d|%d|%d|%5.1s|%4d|%%\n",
    i, -i, i, i, 255 + i, 255 + i, 8 + i, string.byte("a") + i % 26, "ok", x, float32(x * 1000), float32(x / 3),
    i * -1000000000, i << 40, i, i * 3, "warp", i)
end

local N, BLOCK = 50, 64   -- two warps: the second runs 18 lanes
local x_bytes = {}
for i = 0, N - 1 do x_bytes[#x_bytes + 1] = string.pack("<f", i / 8) end
local formats_launch = { grid = { 1 }, block = { BLOCK }, args = { { buffer = 1 }, { buffer = 2 }, N },
                         buffers = { { bytes = 4 * N, fill = table.concat(x_bytes) }, { bytes = 4 * N } } }

for _, compiler in ipairs(compilers) do
  local r = core.emulate(ptx_of(FORMATS, compiler), "formats", formats_launch)
  local expected = {}
  for i = 0, N - 1 do expected[#expected + 1] = formats_line(i) end
  expected = table.concat(expected)
  t.is(r.printf, expected, compiler .. ": each lane's printf as CUDA formats it, in lane order across two warps")
  local returned = true
  for i = 0, N - 1 do returned = returned and string.unpack("<i4", r.buffers[2], 4 * i + 1) == FORMATS_ARGUMENTS end
  t.ok(returned, compiler .. ": printf returns the number of its arguments (" .. FORMATS_ARGUMENTS .. "), as CUDA's does")
  t.ok(r.load.requests == 2 and r.load.sectors == 7 and r.store.requests == 2 and r.store.sectors == 7,
       string.format("%s: printf's argument buffer is not global traffic: loads %d/%d, stores %d/%d (x and out only: 2/7 each)",
                     compiler, r.load.requests, r.load.sectors, r.store.requests, r.store.sectors))
end

local HELLO = [[
extern "C" __global__ void hello(int *out)
{
    out[threadIdx.x] = printf("hello\n");
}]]
for _, compiler in ipairs(compilers) do
  local r = core.emulate(ptx_of(HELLO, compiler), "hello", { grid = { 1 }, block = { 3 }, args = { { buffer = 1 } },
                                                             buffers = { { bytes = 12 } } })
  t.ok(r.printf == "hello\nhello\nhello\n" and r.buffers[1] == string.pack("<i4i4i4", 0, 0, 0),
       compiler .. ": a printf without arguments prints its format and returns 0")
end

-- The lengths h and hh cut the promoted int; '*' widths and precisions (a negative width is '-'); the '#' and
-- ' ' flags; %a; %p of a null pointer as this C library prints it; and CUDA's rule past 32 arguments.
local EDGES = [[
extern "C" __global__ void edges(int *out)
{
    out[0] = printf("%hd|%hhu|%*d|%-*d|%.*f|%#x|%#o|% d|%a|%5c|%p|%10.3s|\n", 70000, 300, -6, 1, 4, 2, 2, 1.0 / 3,
                    255, 8, 7, 1.0, 'z', (void *)0, "abcdef");
    out[1] = printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n",
                    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                    28, 29, 30, 31, 32, 33);
}]]
local past_32 = {}
for k = 1, 32 do past_32[k] = tostring(k) end
local EDGES_PRINTED = "4464|44|1     |2   |0.33|0xff|010| 7|0x1p+0|    z|(nil)|       abc|\n" ..
                      table.concat(past_32, " ") .. " %d\n"
for _, compiler in ipairs(compilers) do
  local r = core.emulate(ptx_of(EDGES, compiler), "edges", { grid = { 1 }, block = { 1 }, args = { { buffer = 1 } },
                                                             buffers = { { bytes = 8 } } })
  t.is(r.printf, EDGES_PRINTED, compiler .. ": lengths h and hh, '*' widths and precisions, # and space, %a, %p, 33 arguments")
  t.is(r.buffers[1], string.pack("<i4i4", 15, 32), compiler .. ": printf returns 15, and 32 past CUDA's 32 arguments")
end

-- Through kernel{} and launch(): the model's threads run blocks out of order; the output is in block order.
local BLOCKS = [[
__global__ void blocks(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = i;
        printf("block %d thread %d\n", blockIdx.x, threadIdx.x);
    }
}]]
kernel { name = "blocks", source = BLOCKS, params = { n = 64, grid = 16 },
         buffers = { out = { type = "int", count = "n", output = true } }, args = { "out", "n" }, grid = "grid", block = 4 }
local function block_lines(first, last)
  local lines = {}
  for i = first, last do lines[#lines + 1] = string.format("block %d thread %d\n", i // 4, i % 4) end
  return table.concat(lines)
end

core.capture(true)
local r = launch("blocks")
local shown = core.capture(false)
t.is(r.printf, block_lines(0, 63), "launch: 16 blocks' lines in block order, each block's in lane order")
t.ok(shown:sub(1, #r.printf) == r.printf and not shown:find("block 0 thread 0\n", 2, true),
     "launch: the lines are shown once, before anything else the launch says")
core.capture(true)
show(r, 3)   -- a warp map: the emulator runs block 3 again
local map = core.capture(false)
t.ok(not map:find("block 3 thread", 1, true), "a warp map runs the kernel again and prints nothing of its printf")

core.capture(true)
r = launch("blocks", { n = 200, grid = 50 })
shown = core.capture(false)
t.ok(r.printf == block_lines(0, 63) and r.printf_not_shown == 136,
     string.format("the cap: the first 64 lines kept, %s more counted", tostring(r.printf_not_shown)))
t.ok(shown:find(block_lines(0, 63) .. "printf: 136 more lines not shown", 1, true) ~= nil,
     "the cap: 64 lines shown, then one line saying how many more were not")
t.ok(r.store.requests == 50 and r.store.sectors == 50, string.format(
     "printf adds no global traffic to a launch's counts: stores %d/%d (50 blocks of 4 ints)", r.store.requests, r.store.sectors))
core.lang("zh")
core.capture(true)
launch("blocks", { n = 200, grid = 50 })
shown = core.capture(false)
core.lang("en")
t.ok(shown:find("printf：还有 136 行没有显示", 1, true) ~= nil, "zh: the cap's line in Chinese")

-- What cannot be emulated: one error naming printf, its format and the source line.
local REFUSED = {
  { "%n", [[
__global__ void counted(int *out)
{
    int written;
    printf("x%n\n", &written);
    out[threadIdx.x] = written;
}]], 'printf("x%n\\n")', "source line 4", "%n" },
  { "%s of a buffer", [[
__global__ void named(const char *text, int *out)
{
    out[threadIdx.x] = 1;
    printf("name %s\n", text);
}]], 'printf("name %s\\n")', "source line 4", "string literal" },
}
for _, case in ipairs(REFUSED) do
  for _, compiler in ipairs(compilers) do
    local ptx = ptx_of(case[2], compiler)
    local kernel_name = ptx:match("%.entry%s+([%w_]+)")
    local launch_of = { grid = { 1 }, block = { 32 }, buffers = { { bytes = 128 }, { bytes = 128 } },
                        args = { { buffer = 1 }, { buffer = 2 } } }
    if case[1] == "%n" then launch_of.buffers, launch_of.args = { { bytes = 128 } }, { { buffer = 1 } } end
    t.raises(function() core.emulate(ptx, kernel_name, launch_of) end, { case[3], case[4], case[5] },
             compiler .. ": " .. case[1] .. " is refused in one line naming printf, the format and the source line")
    core.lang("zh")
    t.raises(function() core.emulate(ptx, kernel_name, launch_of) end, { case[3], "源代码第 4 行", "无法模拟" },
             compiler .. ": zh: " .. case[1] .. " is refused in Chinese")
    core.lang("en")
  end
end

-- The system headers a kernel may include, with each compiler: where one compiler has no such header, why.
local HEADERS = { "cstdio", "stdio.h", "cstdint", "stdint.h", "cstddef", "stddef.h", "climits", "limits.h", "stdbool.h",
                  "cfloat", "float.h", "cuda_fp16.h" }
local USES = {
  cstdio = "std::printf(\"%d\\n\", x);", ["stdio.h"] = "printf(\"%d\\n\", x);",
  cstdint = "std::uint32_t u = (std::uint32_t)x; x = (int)(u + UINT32_C(1)) + (int)sizeof(std::int64_t);",
  ["stdint.h"] = "uint64_t u = (uint64_t)x; x = (int)(u + 1) + (INT32_MAX > 0);",
  cstddef = "std::size_t s = sizeof(int); std::ptrdiff_t d = 2; x += (int)(s + d);",
  ["stddef.h"] = "size_t s = sizeof(int); ptrdiff_t d = 2; x += (int)(s + d);",
  climits = "x += SHRT_MAX + (int)(LLONG_MIN / LLONG_MAX);", ["limits.h"] = "x += INT_MAX - CHAR_BIT;",
  ["stdbool.h"] = "bool b = x > 0; x += b;",
  cfloat = "x += FLT_MANT_DIG;", ["float.h"] = "x += DBL_DIG;",
  ["cuda_fp16.h"] = "__half h = __float2half((float)x); x = (int)__half2float(h);",
}
local NOT_THERE = {
  clang = { ["cuda_fp16.h"] = "the toolkit's headers are NVRTC's: clang compiles without them" },
  nvrtc = { cfloat = "NVRTC has no <float.h>: libcu++'s <cuda/std/cfloat> is empty there", ["float.h"] = "as <cfloat>" },
}
for _, compiler in ipairs(compilers) do
  for _, header in ipairs(HEADERS) do
    local why_not = NOT_THERE[compiler][header]
    if why_not then
      t.skip(compiler .. ": #include <" .. header .. ">", why_not)
    else
      local source = string.format("#include <%s>\n__global__ void uses(int *out)\n{\n    int x = out[threadIdx.x];\n    %s\n    out[threadIdx.x] = x;\n}\n",
                                   header, USES[header])
      local ok, why = pcall(require("warplab.compile").compile, source, { compiler = compiler, name = "uses.cu" })
      if not t.ok(ok, string.format("%s: #include <%s> compiles, and what it declares is there", compiler, header)) then
        print("#   " .. tostring(why):gsub("\n", "\n#   "))
      end
    end
  end
end
t.done()
