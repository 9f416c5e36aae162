-- sass_fuzz.lua: random small kernels, written as students write them
-- (lanes a stride apart, a lane-dependent loop, a branch, shared memory
-- behind a barrier, a shuffle, integer atomics, integer and float division,
-- square roots, 64-bit products), each compiled by NVRTC for
-- sm_90 and run on both engines of issue 33 on the same random inputs: the
-- SASS engine (the CUBIN through nvdisasm) and the PTX emulator. Their
-- outputs must be equal, bit for bit. The kernels come from a seed
-- (WARPLAB_FUZZ_SEED, default fixed, so CI runs the same ones; a failure
-- prints the kernel's source) and WARPLAB_FUZZ_KERNELS of them (default 40).
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local compile = require("warplab.compile").compile

if not core.nvrtc_version() then t.skip_all("no NVRTC here: the engine runs its CUBIN") end
if not core.disassembler() then t.skip_all("no nvdisasm here (build-aux/fetch-nvdisasm fetches it)") end

local SEED = tonumber(os.getenv("WARPLAB_FUZZ_SEED") or "") or 33
local KERNELS = tonumber(os.getenv("WARPLAB_FUZZ_KERNELS") or "") or 40
local N, BLOCK, SHARED = 512, 128, 128   -- elements of each buffer, threads a block, ints of the shared tile
local INTS, FLOATS = 4, 3                -- the kernel's int and float variables, v0.. and f0..

local rng   -- the generator's random numbers (its own, so that a kernel's text depends on the seed alone)
local function pick(list) return list[rng(1, #list)] end
local function int_var() return "v" .. rng(0, INTS - 1) end
local function float_var() return "f" .. rng(0, FLOATS - 1) end

-- An index into a buffer of N: lanes a stride apart, with an offset, or from a variable (a gather).
local function index()
  return pick({
    function() return string.format("(i * %d + %d) & %d", pick({ 1, 1, 2, 3, 4, 8, 32 }), rng(0, 40), N - 1) end,
    function() return string.format("(%s) & %d", int_var(), N - 1) end,
    function() return string.format("(i ^ %d) & %d", rng(1, 31), N - 1) end,
  })()
end

local INT_OPS = { "+", "-", "*", "^", "&", "|" }
local COMPARE = { "<", ">", "==", "!=", "<=", ">=" }

-- One statement that may sit anywhere (in a branch or a loop too).
local function simple_statement()
  return pick({
    function() return string.format("%s = a[%s];", int_var(), index()) end,
    function() return string.format("%s = x[%s];", float_var(), index()) end,
    function() return string.format("%s = %s %s %s;", int_var(), int_var(), pick(INT_OPS), int_var()) end,
    function() return string.format("%s = %s %s %d;", int_var(), int_var(), pick({ "<<", ">>" }), rng(0, 7)) end,
    function() return string.format("%s = %s(%s, %s);", int_var(), pick({ "min", "max" }), int_var(), int_var()) end,
    function() return string.format("%s = %s * %s + %s;", float_var(), float_var(), float_var(), float_var()) end,
    function() return string.format("%s = %s - %s;", float_var(), float_var(), float_var()) end,
    function() return string.format("%s = (float)(%s & 1023) * 0.25f;", float_var(), int_var()) end,
    function() return string.format("%s = (int)(%s * 64.0f);", int_var(), float_var()) end,
    function() return string.format("%s = %s / (%s | 1);", int_var(), int_var(), int_var()) end,
    function() return string.format("%s = %s %% %d;", int_var(), int_var(), rng(2, 13)) end,
    function() return string.format("%s = (int)((unsigned)%s / %du);", int_var(), int_var(), rng(2, 100)) end,
    function() return string.format("%s = (int)(((long long)%s * %s) >> %d);", int_var(), int_var(), int_var(), rng(1, 40)) end,
    function() return string.format("%s = %s / (fabsf(%s) + 0.5f);", float_var(), float_var(), float_var()) end,
    function() return string.format("%s = sqrtf(fabsf(%s));", float_var(), float_var()) end,
    function() return string.format("%s = fminf(%s, %s) + fmaxf(%s, -%s);", float_var(), float_var(), float_var(), float_var(), float_var()) end,
    function() return string.format("%s = (unsigned)%s < (unsigned)%s ? %s : %s;", int_var(), int_var(), int_var(), int_var(), int_var()) end,
    function() return string.format("atomicAdd(&counts[(%s) & %d], %d);", int_var(), N - 1, rng(1, 3)) end,
    function() return string.format("atomicMax(&counts[%s], %s);", index(), int_var()) end,
  })()
end

-- A statement of the kernel's top level: also a branch, a loop, a barrier's exchange, a shuffle.
local function statement()
  return pick({
    simple_statement, simple_statement, simple_statement,
    function()
      return string.format("if (%s %s %s) { %s } else { %s }", int_var(), pick(COMPARE), int_var(),
                           simple_statement(), simple_statement())
    end,
    function()
      return string.format("for (int k = 0; k < (%s & 7); k++) { %s += a[(i + k * %d) & %d]; }",
                           int_var(), int_var(), rng(1, 33), N - 1)
    end,
    function()
      return string.format("tile[threadIdx.x] = %s; __syncthreads(); %s = tile[(threadIdx.x * %d + %d) & %d]; __syncthreads();",
                           int_var(), int_var(), pick({ 1, 2, 16, 32, 33 }), rng(0, 31), SHARED - 1)
    end,
    function()
      return string.format("%s = __shfl_sync(0xffffffffu, %s, (lane + %d) & 31);", int_var(), int_var(), rng(1, 31))
    end,
    function() return string.format("%s = __popc(__ballot_sync(0xffffffffu, %s > 0));", int_var(), int_var()) end,
  })()
end

-- A kernel's source: its variables from the inputs, random statements, every variable written out.
local function kernel_source(statements)
  local body = {}
  for k = 0, INTS - 1 do body[#body + 1] = string.format("    int v%d = a[(i + %d) & %d];", k, k * 7, N - 1) end
  for k = 0, FLOATS - 1 do body[#body + 1] = string.format("    float f%d = x[(i + %d) & %d];", k, k * 5, N - 1) end
  for _ = 1, statements do body[#body + 1] = "    " .. statement() end
  return table.concat({
    "extern \"C\" __global__ void fuzz(const int *a, const float *x, int *out, float *fout, int *counts)",
    "{",
    "    __shared__ int tile[" .. SHARED .. "];",
    "    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;",
    table.concat(body, "\n"),
    "    out[i] = v0 ^ (v1 << 1) ^ (v2 << 2) ^ (v3 << 3) ^ lane;",
    "    fout[i] = f0 + f1 * f2;",
    "}",
  }, "\n")
end

-- Each parameter's bytes, from the PTX's .entry.
local function arg_bytes(ptx)
  local list = ptx:match("%.entry%s+fuzz%s*(%b())") or "()"
  local bytes = {}
  for param in list:gmatch("%.param[^,)]+") do
    local width = param:match("%.[usbf](%d+)%s")
    bytes[#bytes + 1] = width and tonumber(width) // 8 or 8
  end
  return bytes
end

-- Random inputs (small integers, exact floats) and zeroed outputs, the same for both engines.
local function launch_of()
  local ints, floats, zero = {}, {}, string.rep("\0", 4 * N)
  for k = 1, N do ints[k] = string.pack("<i4", rng(-300, 300)) end
  for k = 1, N do floats[k] = string.pack("<f", rng(-4096, 4096) / 1024) end
  return { grid = { N // BLOCK, 1, 1 }, block = { BLOCK, 1, 1 },
           buffers = { { bytes = 4 * N, fill = table.concat(ints) }, { bytes = 4 * N, fill = table.concat(floats) },
                       { bytes = 4 * N, fill = zero }, { bytes = 4 * N, fill = zero }, { bytes = 4 * N, fill = zero } },
           args = { { buffer = 1 }, { buffer = 2 }, { buffer = 3 }, { buffer = 4 }, { buffer = 5 } } }
end

local OUTPUTS = { [3] = "out", [4] = "fout", [5] = "counts" }

-- The first element where the engines' buffer differs: "out[17]: SASS 5, PTX 7".
local function first_difference(name, sass, ptx, format)
  for k = 0, N - 1 do
    local a, b = string.unpack(format, sass, 4 * k + 1), string.unpack(format, ptx, 4 * k + 1)
    if a ~= b then return string.format("%s[%d]: SASS %s, PTX %s", name, k, tostring(a), tostring(b)) end
  end
end

local tally = { kernels = 0, equal = 0 }
for k = 1, KERNELS do
  local seed = SEED * 1000 + k
  math.randomseed(seed)
  rng = math.random
  local source = kernel_source(rng(4, 12))
  local launch = launch_of()
  local ok, why = pcall(function()
    local ptx = compile(source, { name = "fuzz.cu" }).ptx
    local want = core.emulate(ptx, "fuzz", launch)
    local listing = assert(core.disassemble(compile(source, { name = "fuzz.cu", arch = "sm_90", binary = true }).cubin)).text
    launch.arg_bytes = arg_bytes(ptx)
    local got, refused = core.emulate_sass(listing, "fuzz", launch)
    if not got then error("the SASS engine did not run it: " .. tostring(refused), 0) end
    local differences = {}
    for index, name in pairs(OUTPUTS) do
      if got.buffers[index] ~= want.buffers[index] then
        differences[#differences + 1] = first_difference(name, got.buffers[index], want.buffers[index],
                                                         name == "fout" and "<f" or "<i4")
      end
    end
    table.sort(differences)
    return #differences == 0 or table.concat(differences, "; ")
  end)
  tally.kernels = tally.kernels + 1
  local same = ok and why == true
  if same then tally.equal = tally.equal + 1 end
  t.ok(same, string.format("kernel %d (seed %d): both engines give the same outputs%s", k, seed,
                           same and "" or " — " .. tostring(why) .. "\n" .. source))
end
print(string.format("# %d random kernels: %d with outputs equal on the SASS engine and the PTX emulator", tally.kernels, tally.equal))
t.done()
