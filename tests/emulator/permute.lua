-- permute.lua: the byte permute (PTX's prmt, SASS's PRMT) on both engines
-- against the PTX ISA's table, written here in Lua: the generic form (a
-- selector nibble a byte, its top bit replicating the byte's sign) through
-- inline PTX (and CUDA's __byte_perm, which drops that bit), and the six modes (f4e, b4e, rc8, ecl, ecr, rc16) through
-- inline PTX, each for selectors 0 to 255 over two words of distinct bytes.
-- The SASS engine runs NVRTC's sm_90 CUBIN where nvdisasm is here.
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local compile = require("warplab.compile").compile

if not core.nvrtc_version() then t.skip_all("no NVRTC here: the kernel is CUDA C") end

-- "byte_perm": CUDA's __byte_perm, which takes 3 bits of each nibble (no sign); "": prmt's generic form.
local MODES = { "byte_perm", "", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16" }
local LO, HI = 0x83828180, 0x07060504   -- bytes 0x80..0x83 (their sign bit set) and 4..7

-- The ISA's table (CUDA's for __byte_perm): which of the eight bytes of hi:lo byte k takes.
local function from(mode, selector, k)
  local s = selector & 3
  if mode == ".f4e" then return (s + k) & 7 end
  if mode == ".b4e" then return (s - k) & 7 end
  if mode == ".rc8" then return s end
  if mode == ".ecl" then return math.max(k, s) end
  if mode == ".ecr" then return math.min(k, s) end
  if mode == ".rc16" then return 2 * (s & 1) + (k & 1) end
  return (selector >> (4 * k)) & 7
end

local function expected(mode, selector)
  local hi_lo, d = HI << 32 | LO, 0
  for k = 0, 3 do
    local byte = (hi_lo >> (8 * from(mode, selector, k))) & 0xff
    if mode == "" and (selector >> (4 * k)) & 8 ~= 0 then byte = byte & 0x80 ~= 0 and 0xff or 0 end
    d = d | byte << (8 * k)
  end
  return d
end

-- One thread a selector: out[mode * 256 + selector] = prmt.mode(lo, hi, selector).
local functions, lines = {}, {}
for m, mode in ipairs(MODES) do
  if mode ~= "byte_perm" then
    functions[#functions + 1] = ("__device__ unsigned prmt_%s(unsigned lo, unsigned hi, unsigned s)\n" ..
      "{ unsigned d; asm(\"prmt.b32%s %%0, %%1, %%2, %%3;\" : \"=r\"(d) : \"r\"(lo), \"r\"(hi), \"r\"(s)); return d; }")
      :format(mode == "" and "generic" or mode:sub(2), mode)
  end
  local call = mode == "byte_perm" and "__byte_perm(lo, hi, s)" or ("prmt_%s(lo, hi, s)"):format(mode == "" and "generic" or mode:sub(2))
  lines[#lines + 1] = ("    out[%d * 256 + s] = %s;"):format(m - 1, call)
end
local source = table.concat({
  table.concat(functions, "\n"),
  "extern \"C\" __global__ void permute(unsigned *out, unsigned lo, unsigned hi)",
  "{",
  "    unsigned s = blockIdx.x * blockDim.x + threadIdx.x;",
  table.concat(lines, "\n"),
  "}",
}, "\n")
local launch = { grid = { 2, 1, 1 }, block = { 128, 1, 1 },
                 buffers = { { bytes = 4 * 256 * #MODES, fill = string.rep("\0", 4 * 256 * #MODES) } },
                 args = { { buffer = 1 }, LO, HI } }

-- The first selector of each mode whose result differs from the table's: "f4e 3: 0x... (want 0x...)".
local function differences(contents)
  local wrong = {}
  for m, mode in ipairs(MODES) do
    for selector = 0, 255 do
      local got = string.unpack("<I4", contents, 4 * ((m - 1) * 256 + selector) + 1)
      local want = expected(mode, selector)
      if got ~= want then
        wrong[#wrong + 1] = ("%s %d: 0x%08x (want 0x%08x)"):format(mode == "" and "generic" or (mode:gsub("^%.", "")), selector, got, want)
        break
      end
    end
  end
  return #wrong == 0 and "none" or table.concat(wrong, "; ")
end

local ptx = compile(source, { name = "permute.cu" }).ptx
local ran = core.emulate(ptx, "permute", launch)
t.is(differences(ran.buffers[1]), "none", "the PTX emulator's prmt, generic and in its six modes, as the ISA's table says")

if not core.disassembler() then
  t.skip("the SASS engine's PRMT", "no nvdisasm here (build-aux/fetch-nvdisasm fetches it)")
else
  local listing = assert(core.disassemble(compile(source, { name = "permute.cu", arch = "sm_90", binary = true }).cubin)).text
  local sass_launch = { arg_bytes = { 8, 4, 4 } }
  for k, v in pairs(launch) do sass_launch[k] = v end
  local got, why = core.emulate_sass(listing, "permute", sass_launch)
  t.is(got and differences(got.buffers[1]) or tostring(why), "none", "the SASS engine's PRMT, its modes from the modifiers, the same")
end
t.done()
