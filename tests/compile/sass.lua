-- sass.lua: sass(kernel), a kernel's machine code by source line, without
-- a GPU: NVRTC's CUBIN disassembled by nvdisasm (core.disassemble); for a
-- launch (sass(r)), each memory instruction's counts as the SASS engine ran
-- it, adding up to the card's, and the worst diagnosed as lines() does.
-- The tiled matmul every student writes shows what the PTX does not (ptxas
-- reads four floats of a tile row with one LDS.128); an array indexed at run
-- time shows local memory; the listing fits the terminal in both languages;
-- bad arguments and a missing disassembler are one clear line. Skipped
-- where configure found no nvdisasm (build-aux/fetch-nvdisasm gets it).
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local warplab = os.getenv("WARPLAB") or "./warplab"

if not core.nvrtc_version() then t.skip_all("no NVRTC here: sass() needs its CUBIN") end
if not core.disassembler() then t.skip_all("no nvdisasm here (build-aux/fetch-nvdisasm fetches it)") end

local function float_buffer(output)
  return { type = "float", count = function(p) return p.n * p.n end, output = output }
end

local MATMUL = [[
#define TILE 16
__global__ void matmul_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0;
    for (int t = 0; t < n / TILE; t++) {
        ta[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = sum;
}
]]
kernel{ name = "matmul_tiled", source = MATMUL, params = { n = 64 },
        buffers = { a = float_buffer(), b = float_buffer(), c = float_buffer(true) }, args = { "a", "b", "c", "n" },
        grid = function(p) return { p.n // 16, p.n // 16 } end, block = { 16, 16 } }

local function on_line(listing, line, opcode, modifiers)
  local found = {}
  for _, i in ipairs(listing.instructions) do
    if i.line == line and i.opcode == opcode and (modifiers == nil or i.modifiers == modifiers) then found[#found + 1] = i end
  end
  return found
end

local function widest(text)
  local most = 0
  for line in (text .. "\n"):gmatch("(.-)\n") do most = math.max(most, core.util.display_width(line)) end
  return most
end

-- The tiled matmul on the H200's architecture.
local text, ok, listing = t.said(function() return sass("matmul_tiled", { arch = "sm_90" }) end)
t.ok(ok, "sass() shows a declared kernel's machine code")
if not ok then print("# " .. tostring(listing)); t.done() return end
t.is(listing.arch, "sm_90", "for the architecture asked")
t.is(#on_line(listing, 12, "LDS", ".128"), 4, "the inner product's row of ta: four LDS.128 (ptxas merged four loads into each)")
t.is(#on_line(listing, 12, "LDS", ""), 16, "... and sixteen 4-byte LDS of tb's column, the loop unrolled")
local ldg8, ldg9 = on_line(listing, 8, "LDG"), on_line(listing, 9, "LDG")
t.ok(#ldg8 == 1 and ldg8[1].space == "global" and ldg8[1].access == "load" and ldg8[1].bytes == 4, "line 8 reads a: one global load of 4 bytes a lane")
t.is(#ldg9, 1, "line 9 reads b: one global load")
t.is(#on_line(listing, 15, "STG"), 1, "line 15 writes c: one global store")
t.ok(text:find("line 12: sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];", 1, true), "each line is shown with its source")
t.ok(text:find("LDS.128", 1, true) and text:find("shared load, 16 B a lane", 1, true), "an LDS.128 row says what it moves")
t.ok(text:find("20 shared loads (4 of 16 B a lane)", 1, true), "the totals count the wide loads")
t.ok(text:find("ptxas merged", 1, true), "and the note says why a load can be wider than the source's")
t.ok(not text:find("LDC", 1, true), "the constant-bank loads of the params are left out")
t.ok(widest(text) <= core.columns(), "every line fits the terminal's " .. core.columns() .. " columns")

local all_text = t.said(function() sass("matmul_tiled", { arch = "sm_90", all = true }) end)
t.ok(all_text:find("FFMA", 1, true) and all_text:find("BAR.SYNC", 1, true), "{all = true} shows every instruction")
t.ok(widest(all_text) <= core.columns(), "... fitted to the terminal too")

local older = t.said(function() sass("matmul_tiled", { arch = "sm_75" }) end)
t.ok(older:find("for sm_75", 1, true), "another architecture's machine code (Turing's)")

-- A result: the source it ran with.
local r = launch("matmul_tiled", { n = 32 })
local from_result, ran, shown = t.said(function() return sass(r, { arch = "sm_90" }) end)
t.ok(ran and from_result:find("matmul_tiled as ptxas compiled it for sm_90", 1, true), "sass(r) shows the kernel a result ran")

-- A launch's counts beside each memory instruction, as the SASS engine ran
-- it: they add up to the card's, and the LDS.128s carry their share.
local wavefronts, wide_counted = 0, 0
for _, i in ipairs(ran and shown.instructions or {}) do
  local c = i.counts and i.counts.shared_load
  if c then
    wavefronts = wavefronts + c.wavefronts
    if i.opcode == "LDS" and i.bytes == 16 then wide_counted = wide_counted + c.requests end
  end
end
if r.model.level == "sass" then
  t.is(wavefronts, r.shared_load.wavefronts, "sass(r): the instructions' shared-load wavefronts add up to the card's")
  t.ok(wide_counted > 0, "... and the LDS.128s have requests of their own (" .. wide_counted .. ")")
  t.ok(from_result:find("Beside each memory instruction, this launch's counts", 1, true) and
       from_result:find("\n%s+shared load%s+[%d,]+%s+[%d.]+ wavefronts") ~= nil, "... printed under each instruction, in lines()'s columns")
else
  for _, what in ipairs({ "wavefronts add up", "LDS.128 requests", "printed under each instruction" }) do
    t.skip("sass(r): " .. what, "the tiled matmul ran at PTX level here: " .. tostring(r.model.level_why))
  end
end

-- A built-in kernel: its machine code as the emulator runs it; for a
-- launch, each instruction's counts and the diagnosis of the worst.
local by_name = t.said(function() sass("strided") end)
t.ok(by_name:find("strided as ptxas compiled it for sm_90", 1, true) and not by_name:find("Beside each", 1, true),
     "sass(\"strided\"): a built-in kernel's machine code, without counts (no launch given)")
local walk = launch("strided", { stride = 4, n = 2^20 })
local walk_text, walk_ok, walk_listing = t.said(function() return sass(walk) end)
local sectors = 0
for _, i in ipairs(walk_ok and walk_listing.instructions or {}) do
  if i.counts and i.counts.load then sectors = sectors + i.counts.load.sectors end
end
t.is(sectors, walk.load.sectors, "sass(r) of strided: its LDG's sectors are the card's")
t.ok(walk_text:find("16.00 sectors%s+4.00%s+80%%[^\n]*4%.0[^ ]* ideal") and
     walk_text:find("Why, 0[%x]+ %(line 17, global load%): neighbouring lanes are 16 bytes apart in%s+'in'"),
     "... marked 4x its ideal, and diagnosed as lines() does, by instruction")
t.ok(widest(walk_text) <= core.columns(), "... fitted to the terminal")
core.lang("zh")
local walk_zh = t.said(function() sass(walk) end)
core.lang("en")
t.ok(walk_zh:find("原因，0[%x]+（第 17 行，全局加载）：相邻线程的地址相距 16 字节（在 'in' 中") and widest(walk_zh) <= core.columns(),
     "... in Chinese, its stride and buffer in their places, at the terminal's width")
local big = launch("strided", { stride = 4, n = 2^25 })
local big_text = t.said(function() sass(big) end)
t.ok(big_text:find("This launch ran at PTX level (", 1, true) and big_text:find("more than the 32768 the SASS engine", 1, true),
     "a launch too large for the SASS engine: its listing, and why there are no counts by instruction")
t.raises(function() sass("strided", { arch = "sm_80" }) end, { "bad argument #2 to 'sass'", "for this device's sm_90" },
         "a built-in kernel at another architecture: one line")

-- Local memory: an array indexed by a value known only at run time.
kernel{ name = "pick", params = { n = 1024 }, args = { "data", "out", "n" },
        buffers = { data = { type = "int", count = "n" }, out = { type = "int", count = "n", output = true } },
        grid = function(p) return p.n // 128 end, block = 128, source = [[
__global__ void pick(const int *data, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int table[64];
    for (int k = 0; k < 64; k++)
        table[data[(i + k) % n] & 63] = k;
    out[i] = table[data[i] & 63];
}
]] }
local spilled, spilled_ok, pick = t.said(function() return sass("pick", { arch = "sm_90" }) end)
local local_access = false
for _, i in ipairs(spilled_ok and pick.instructions or {}) do local_access = local_access or i.space == "local" end
t.ok(local_access, "an array indexed at run time lives in local memory (LDL/STL)")
t.ok(spilled:find("Local memory (LDL/STL)", 1, true), "... and the note says what local memory is")

-- In Chinese, at 80 columns.
core.lang("zh")
local chinese = t.said(function() sass("matmul_tiled", { arch = "sm_90" }) end)
core.lang("en")
t.ok(chinese:find("第 12 行：", 1, true) and chinese:find("共享加载，每个线程 16 字节", 1, true), "in Chinese")
t.ok(chinese:find("（其中 4 条每个线程 16 字节）", 1, true), "... with Chinese punctuation")
t.ok(widest(chinese) <= core.columns(), "... fitted to the terminal")

-- Bad arguments: one clear line each.
t.raises(function() sass(42) end, { "bad argument #1 to 'sass'", "got 42" }, "a number is not a kernel")
t.raises(function() sass("nothing_here") end, { "no kernel 'nothing_here' was declared" }, "an unknown name")
t.raises(function() sass("matmul_tiled", { arch = "90" }) end, { "bad argument #2 to 'sass'", "\"sm_90\"" }, "a bad architecture")
t.raises(function() sass("matmul_tiled", "all") end, { "bad argument #2 to 'sass'" }, "options that are not a table")

-- Without a disassembler: one line saying what to do.
local scratch = os.tmpname()
core.spawn({ "env", "WARPLAB_NVDISASM=", warplab, "--sim", "--lang", "en", "-e",
             "kernel{name='k', source='__global__ void k(float *o) { o[threadIdx.x] = 1; }', params={n=32}, "
             .. "buffers={o={type='float', count='n', output=true}}, args={'o'}, grid=1, block=32}", "-e", "sass('k')" },
           { stdout = scratch, stderr = scratch })
local said = core.read_file(scratch) or ""
os.remove(scratch)
t.ok(said:find("no SASS disassembler here", 1, true) and said:find("build-aux/fetch-nvdisasm", 1, true),
     "without nvdisasm, sass() says so and how to get it")

t.done()
