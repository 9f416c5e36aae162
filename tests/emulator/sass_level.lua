-- sass_level.lua: a kernel declared with kernel{} runs on the SASS engine
-- (issue 33) where the session's GPU, or its profile, is sm_90 and the
-- disassembler is here: the card and r.model.level say so, and the counts
-- are those of the machine code the H200 runs. The two corpus kernels
-- where ptxas changes the work give the H200's counts (loop_lanes 128 load
-- sectors, matmul_tiled 5,184 shared-load wavefronts; the PTX gives 96 and
-- 6,912). Elsewhere (another profile's architecture, a launch too large
-- for the engine) the PTX emulator runs it, and the card says why.
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]

if not core.nvrtc_version() then t.skip_all("no NVRTC here: the engine runs its CUBIN") end
if not core.disassembler() then t.skip_all("no nvdisasm here (build-aux/fetch-nvdisasm fetches it)") end

-- A corpus kernel as kernel{} declares it, its outputs starting zeroed as the corpus has them.
local function declare(name)
  local decl = dofile(srcdir .. "/tests/emulator/corpus/" .. name .. ".lua")
  local buffers = {}
  for buffer, b in pairs(decl.buffers) do
    buffers[buffer] = { type = b.type, count = b.count, output = b.output, fill = b.fill or (b.output and "zero" or nil) }
  end
  kernel { name = decl.name, source = decl.source, params = decl.params, buffers = buffers, args = decl.args,
           grid = decl.grid, block = decl.block, reference = decl.reference, tolerance = decl.tolerance }
end

config { profile = "h200" }
declare("loop_lanes")
declare("matmul_tiled")
local loop, tiled = launch("loop_lanes"), launch("matmul_tiled")
t.is(loop.model.level, "sass", "loop_lanes on the H200's profile: at SASS level")
t.is(loop.load.sectors, 128, "loop_lanes: 128 load sectors, as the H200 measured (the PTX's order gives 96)")
t.is(tiled.model.level, "sass", "matmul_tiled: at SASS level")
t.is(tiled.shared_load.wavefronts, 5184, "matmul_tiled: 5,184 shared-load wavefronts, as the H200 measured (the PTX's 6,912)")
t.ok(loop.correct == true and tiled.correct == true, "both outputs equal their references")
t.is(tiled.model.level_why, nil, "no why at SASS level")

local by_line, wavefronts = nil, 0
local heading = t.said(function() by_line = lines(tiled) end)
for _, l in ipairs(by_line) do wavefronts = wavefronts + (l.shared_load and l.shared_load.wavefronts or 0) end
t.ok(heading:find("as the emulator counts it (SASS)", 1, true) and heading:find("Counted on the machine code (SASS) the GPU runs", 1, true),
     "lines() counts the same machine code, and says so")
t.is(wavefronts, 5184, "its lines' shared-load wavefronts add up to the card's 5,184")
local merged_count = heading:match("machine code: (%d+) of this line's %d+ shared load instructions move 16 bytes a")
t.ok(merged_count and tonumber(merged_count) > 0 and heading:find("(LDS.128): ptxas merged neighbouring accesses", 1, true) ~= nil,
     "lines() says where ptxas merged the line's loads: " .. tostring(merged_count) .. " LDS.128 among its shared loads")
t.ok(not t.said(function() lines(loop) end):find("machine code:", 1, true), "... and says nothing of the kind where it merged none")
local map = t.said(function() show(tiled, 3) end)
local _, wide = map:gsub("shared load [^\n]-16%-byte elements", "")   -- the separator is the locale's
local _, narrow = map:gsub("shared load [^\n]-%f[%d]4%-byte elements", "")
t.ok(wide == 12 and narrow == 48, string.format("show() draws the same machine code: warp 3's shared loads are 12 LDS.128 of 16 bytes " ..
     "a lane and 48 of 4 (%d and %d; the PTX's are 96 of 4)", wide, narrow))
local card = tostring(tiled)
t.ok(card:find("emulated   the machine code the GPU runs (SASS, sm_90), instruction by", 1, true) ~= nil,
     "the card's row names the level")
core.lang("zh")
t.ok(tostring(tiled):find("模拟       GPU 执行的机器码（SASS，sm_90），逐条指令", 1, true) ~= nil, "and in Chinese")
core.lang("en")

config { profile = "a100" }
local elsewhere = launch("matmul_tiled")
t.is(elsewhere.model.level, "ptx", "on the A100's profile (sm_80): at PTX level")
t.ok(tostring(elsewhere.model.level_why):find("sm_90's machine code, and this GPU is sm_80", 1, true) ~= nil,
     "with why: " .. tostring(elsewhere.model.level_why))
t.is(elsewhere.shared_load.wavefronts, 6912, "the PTX's count, 6,912")
t.ok(tostring(elsewhere):find("emulated   PTX, not the machine code: the SASS engine runs sm_90's", 1, true) ~= nil,
     "the card says PTX, and why")

config { profile = "h200" }
kernel { name = "twice", source = [[extern "C" __global__ void twice(const float *a, float *b, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = 2 * a[i]; }]],
  params = { n = 1 << 16 }, buffers = { a = { type = "float", count = "n" }, b = { type = "float", count = "n", output = true } },
  args = { "a", "b", "n" }, grid = function(p) return (p.n + 255) // 256 end, block = 256 }
local small, large = launch("twice"), launch("twice", { n = 1 << 24 })
t.is(small.model.level, "sass", "a small launch: at SASS level")
t.is(large.model.level, "ptx", "2^24 threads: at PTX level")
t.ok(tostring(large.model.level_why):find("524288 warps, more than the 32768", 1, true) ~= nil,
     "with why: " .. tostring(large.model.level_why))
t.ok(small.load.sectors * 256 == large.load.sectors, "the two levels count the same stream alike (" .. small.load.sectors ..
     " and " .. large.load.sectors .. " sectors)")
t.done()
