-- sass_engine.lua: the SASS engine of issue 33 on every tests/emulator/corpus kernel
-- it can run. Each kernel is compiled by NVRTC for sm_90 (the CUBIN the H200
-- runs), disassembled by nvdisasm, run by core.emulate_sass and by the PTX
-- emulator (core.emulate) on the same inputs; the outputs must be equal,
-- and the counts are compared: where ptxas merged or split accesses (the
-- tiled matmul's LDS.128) they differ, and the line says how. A kernel the
-- engine does not run (PTX_ONLY, with why) must be refused with a reason.
local srcdir = os.getenv("srcdir") or "."
local t = dofile(srcdir .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local compile = require("warplab.compile").compile

if not core.nvrtc_version() then t.skip_all("no NVRTC here: the engine runs its CUBIN") end
local nvdisasm = core.disassembler()
if not nvdisasm then t.skip_all("no nvdisasm here (build-aux/fetch-nvdisasm fetches it)") end

-- The corpus's launches, as tests/emulator/corpus.lua prepares them (its functions, read from it, not copied).
local function corpus_prepare()
  local f = assert(io.open(srcdir .. "/tests/emulator/corpus.lua"))
  local text = f:read("a")
  f:close()
  local first, last = text:find("local SEED", 1, true), text:find("-- The reference's outputs", 1, true)
  return assert(load("local core = ...\n" .. text:sub(first, last - 1) .. "\nreturn prepare", "corpus.lua", "t", _ENV))(core)
end
local prepare = corpus_prepare()

-- nvdisasm's listing of a CUBIN (code, line information and constant bank 3).
local function listing_of(cubin)
  return assert(core.disassemble(cubin)).text
end

-- Each parameter's bytes, from the PTX's .entry.
local function arg_bytes(ptx, kernel)
  local list = ptx:match("%.entry%s+" .. kernel .. "%s*(%b())") or "()"
  local bytes = {}
  for param in list:gmatch("%.param[^,)]+") do
    local width = param:match("%.[usbf](%d+)%s")
    local array = param:match("%[(%d+)%]")
    bytes[#bytes + 1] = array and tonumber(array) or width and tonumber(width) // 8 or 8
  end
  return bytes
end

local CATEGORIES = { "load", "store", "shared_load", "shared_store", "atomic", "reduction", "shared_atomic" }
local FIELDS = { "requests", "sectors", "wavefronts" }

-- How the SASS engine's counts differ from the PTX emulator's: "shared_load.requests 2304 (PTX 6912)", or nil.
local function counts_differ(sass, ptx)
  local parts = {}
  for _, category in ipairs(CATEGORIES) do
    for _, field in ipairs(FIELDS) do
      local a, b = sass[category][field], ptx[category][field]
      if a and a ~= b then parts[#parts + 1] = string.format("%s.%s %d (PTX %d)", category, field, a, b) end
    end
  end
  return #parts > 0 and table.concat(parts, ", ") or nil
end

local function corpus_files()
  local files = {}
  local pipe = io.popen("ls '" .. srcdir .. "/tests/emulator/corpus/'")
  for line in pipe:lines() do if line:match("^[%w_]+%.lua$") then files[#files + 1] = line end end
  pipe:close()
  table.sort(files)
  return files
end

-- Kernels the engine does not run, with why: the PTX emulator runs them instead.
local PTX_ONLY = {
  printf_lanes = "printf: a CALL to vprintf, with its format's address in constant bank 4",
}

-- Where ptxas changes the work, the counts the H200 gave (tests/compile/kernel_gpu.lua,
-- 2026-12-03, and the H100 on 2026-12-07): the PTX emulator's differ, the SASS engine's must not.
local HARDWARE = {
  loop_lanes = { what = "load sectors", of = function(r) return r.load.sectors end, value = 128, ptx = 96 },
  matmul_tiled = { what = "shared load wavefronts", of = function(r) return r.shared_load.wavefronts end, value = 5184, ptx = 6912 },
}

local tally = { kernels = 0, ran = 0, outputs = 0, counts = 0 }

local function check(file)
  local decl = dofile(srcdir .. "/tests/emulator/corpus/" .. file)
  local kernel = decl.kernel or decl.name
  tally.kernels = tally.kernels + 1
  local run = prepare(decl)
  local ptx = compile(run.source, { name = decl.name .. ".cu" }).ptx
  local want = core.emulate(ptx, kernel, run.launch)
  local listing = listing_of(compile(run.source, { name = decl.name .. ".cu", arch = "sm_90", binary = true }).cubin)
  local launch = {}
  for k, v in pairs(run.launch) do launch[k] = v end
  launch.arg_bytes = arg_bytes(ptx, kernel)
  local got, why = core.emulate_sass(listing, kernel, launch)
  if PTX_ONLY[decl.name] then
    t.ok(not got and why, string.format("%s: not run on the SASS engine (%s): %s", decl.name, PTX_ONLY[decl.name], tostring(why)))
    return
  end
  if not got then
    t.ok(false, decl.name .. ": runs on the SASS engine (" .. tostring(why) .. ")")
    return
  end
  tally.ran = tally.ran + 1
  local same = true
  for i, contents in ipairs(want.buffers) do same = same and got.buffers[i] == contents end
  if same then tally.outputs = tally.outputs + 1 end
  local differ = counts_differ(got, want)
  if not differ then tally.counts = tally.counts + 1 end
  local text = string.format("%s: the SASS engine's outputs equal the PTX emulator's; counts %s", decl.name,
                             differ and "differ: " .. differ or "equal")
  t.ok(same, text)
  local hardware = HARDWARE[decl.name]
  if hardware then
    t.is(hardware.of(got), hardware.value, string.format("%s: %s %s as on the GPU (the PTX emulator's %s)", decl.name,
         hardware.what, hardware.value, hardware.of(want)))
  end
end

for _, file in ipairs(corpus_files()) do
  local done, message = pcall(check, file)
  if not done then t.ok(false, file .. ": " .. tostring(message)) end
end
print(string.format("# %d kernels: %d run on the SASS engine, %d with outputs and %d with counts equal to the PTX emulator's",
                    tally.kernels, tally.ran, tally.outputs, tally.counts))
t.done()
