-- registers.lua: what the time model takes of a kernel's machine code. For
-- every kernel of tests/emulator/corpus, the registers and static shared memory
-- compile.cubin_resources reads from NVRTC's CUBIN for sm_75 and sm_90 are the
-- ones ptxas reports for the same PTX; a kernel declared in Lua launches on
-- the model with those registers (r.model.registers), and an SM holds as
-- many of its warps as the registers allow (the CUDA occupancy
-- calculator's rule: a warp's registers allocated 256 at a time).
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]

if not core.nvrtc_version() then t.skip_all("no NVRTC here: no machine code to read") end
local ptxas = core.find_program("ptxas") or (io.open("/usr/local/cuda/bin/ptxas") and "/usr/local/cuda/bin/ptxas")
local scratch = os.tmpname()
os.remove(scratch)
core.make_folder(scratch)

-- What ptxas -v says of the PTX in file for arch: registers, shared bytes (nil without ptxas).
local function ptxas_says(file, arch)
  if not ptxas then return nil end
  local report = scratch .. "/ptxas.txt"
  core.spawn({ ptxas, "-arch=" .. arch, "-v", file, "-o", "/dev/null" }, { stdout = "/dev/null", stderr = report })
  local text = core.read_file(report) or ""
  local registers = tonumber(text:match("Used (%d+) registers"))
  return registers, tonumber(text:match("(%d+) bytes smem") or 0)
end

local files = {}
local pipe = io.popen("ls '" .. srcdir .. "/tests/emulator/corpus/'")
for line in pipe:lines() do if line:match("^[%w_]+%.lua$") then files[#files + 1] = line end end
pipe:close()
table.sort(files)

-- sm_90 keeps 1 KB of each block's shared memory for the system, and the
-- CUBIN's shared section counts it where the kernel uses any, static or
-- dynamic (as the occupancy calculator does); sm_75 keeps none.
local RESERVED = { sm_75 = 0, sm_90 = 1024 }
local compared = 0
for _, file in ipairs(files) do
  local decl = dofile(srcdir .. "/tests/emulator/corpus/" .. file)
  for _, arch in ipairs({ "sm_75", "sm_90" }) do
    local ok, ptx = pcall(function() return require("warplab.compile").compile(decl.source, { name = decl.name .. ".cu", arch = arch }).ptx end)
    local cubin = ok and require("warplab.compile").compile(decl.source, { name = decl.name .. ".cu", arch = arch, binary = true }).cubin
    if ok then
      local symbol = ptx:match("%.entry%s+([%w_$]+)")
      local registers, shared = require("warplab.compile").cubin_resources(cubin, symbol)
      local ptx_file = scratch .. "/" .. decl.name .. ".ptx"
      core.write_file(ptx_file, ptx)
      local want_registers, want_shared = ptxas_says(ptx_file, arch)
      if want_registers then
        compared = compared + 1
        want_shared = want_shared + (ptx:find("%.shared") and RESERVED[arch] or 0)
        t.ok(registers == want_registers and shared == want_shared,
             string.format("%s on %s: %s registers and %s shared bytes, as ptxas says (%d, %d)", decl.name, arch,
                           tostring(registers), tostring(shared), want_registers, want_shared))
      else
        t.ok(registers and registers > 0 and registers <= 255,
             string.format("%s on %s: %s registers (no ptxas here to compare)", decl.name, arch, tostring(registers)))
      end
    end
  end
end
if ptxas then t.ok(compared >= 60, string.format("compared with ptxas: %d kernels and architectures", compared)) end

t.is(require("warplab.compile").cubin_resources("not an ELF file", "k"), nil, "a file that is no CUBIN says nothing")
local copy = dofile(srcdir .. "/tests/emulator/corpus/copy.lua")
local cubin = require("warplab.compile").compile(copy.source, { name = "copy.cu", arch = "sm_90", binary = true }).cubin
t.is(require("warplab.compile").cubin_resources(cubin, "no_such_kernel"), nil, "a symbol the CUBIN does not hold says nothing")
t.is(require("warplab.compile").cubin_resources(cubin:sub(1, 200), "copy"), nil, "a cut CUBIN says nothing")

-- A kernel that keeps 64 loaded floats in registers: fewer of its warps fit on an SM.
local HEAVY = [[
extern "C" __global__ void heavy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float kept[64];
#pragma unroll
    for (int k = 0; k < 64; k++)
        kept[k] = in[(i + k * 4099) % n];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 64; k++)
        s += kept[k] * kept[(k * 7) % 64];
    if (i < n)
        out[i] = s;
}
]]
kernel { name = "heavy", source = HEAVY, params = { n = { default = 1 << 20 } },
         buffers = { ["in"] = { type = "float", count = "n" }, out = { type = "float", count = "n", output = true } },
         args = { "in", "out", "n" }, grid = { function(p) return p.n // 256 end }, block = { 256 } }

-- Warps an SM of 64 K registers holds of blocks of 8 warps, by the calculator's rule.
local function warps_fitting(registers, most)
  local per_warp = (registers * 32 + 255) // 256 * 256
  return math.min(most, 65536 // per_warp // 8 * 8)
end

for _, case in ipairs({ { profile = "h200", arch = "sm_90", most = 64 }, { profile = "t4", arch = "sm_75", most = 32 } }) do
  local r = launch("heavy", { profile = case.profile })
  local registers = core.kernel_resources("heavy", case.arch)
  t.ok(registers and registers > 64, string.format("heavy on %s: %s registers a thread", case.arch, tostring(registers)))
  t.is(r.model.registers, registers, "heavy on the " .. case.profile .. " profile: r.model.registers is its CUBIN's")
  t.is(r.model.resident_warps, warps_fitting(registers, case.most),
       string.format("heavy on the %s profile: %d resident warps, as %d registers allow", case.profile,
                     r.model.resident_warps, registers))
end
local light = launch("copy", { n = 1 << 20 })
t.is(light.model.registers, nil, "a built-in kernel's result names no registers (its model takes the shape alone)")

core.spawn({ "rm", "-rf", scratch })
t.done()
