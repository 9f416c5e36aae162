-- compile_hostile.lua: kernel sources that try to make the compiler read
-- other files (a grader's secrets, a FIFO, /dev/zero, an 8 GB sparse file),
-- or to run it without end or out of memory (#28, findings 3 and 6), each
-- from tests/compile/hostile/, through NVRTC and through clang. The first
-- line of each says what must come back ("// expect: TEXT", or TEXT|OTHER
-- where the compilers differ; "compiled"; "any"). Whatever comes back never holds the secret file's text nor a raw
-- control character, and comes within the compile's limits. The same
-- secret, included through kernel{} and through a header given in memory,
-- stays out as well. Each compile runs in a child warplab under `timeout`,
-- so a compiler that blocks on a FIFO fails the test instead of hanging it.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local warplab = os.getenv("WARPLAB") or "./warplab"
local folder = (os.getenv("srcdir") or ".") .. "/tests/compile/hostile"

local function run(...) return core.spawn({ ... }, { stdout = "/dev/null", stderr = "/dev/null" }) end

local scratch = os.tmpname()
os.remove(scratch)
assert(run("mkdir", "-p", scratch) == 0)
local MARKER = "WARPLAB-SECRET-" .. core.hash(scratch .. tostring(core.now_ms()))
local files = { SECRET = scratch .. "/secret.txt", FIFO = scratch .. "/fifo", SPARSE = scratch .. "/sparse" }
core.write_file(files.SECRET, MARKER .. "\nroot:$6$" .. MARKER .. ":19000:0:99999:7:::\n")
run("mkfifo", files.FIFO)
run("truncate", "-s", "8G", files.SPARSE)

-- Lower limits, so that the bombs stop in seconds; a kernel needs far less.
local SECONDS, MIB = 3, 256
local ENV = { "XDG_CACHE_HOME=" .. scratch .. "/cache", "WARPLAB_COMPILE_SECONDS=" .. SECONDS, "WARPLAB_COMPILE_MIB=" .. MIB }

-- Runs code in a child warplab (C is the core table) under a deadline; its output and seconds taken.
local function child(code, more_env)
  local out = scratch .. "/out.txt"
  local argv = { "timeout", "-s", "KILL", "90", "env" }
  for _, list in ipairs({ ENV, more_env or {} }) do
    for _, setting in ipairs(list) do argv[#argv + 1] = setting end
  end
  for _, word in ipairs({ warplab, "--sim", "--lang", "en", "-e", "C = setmetatable({ compile = require('warplab.compile').compile }, { __index = require('warplab.core') })", "-e", code }) do
    argv[#argv + 1] = word
  end
  local started = core.now_ms()
  local status = core.spawn(argv, { stdin = "/dev/null", stdout = out, stderr = out })
  return core.read_file(out) or "", (core.now_ms() - started) / 1000, status
end

-- The kernel's text with @SECRET@, @FIFO@ and @SPARSE@ made this run's files.
local function instantiated(text)
  return (text:gsub("@(%u+)@", function(name) return files[name] end))
end

local function leaks(output) return output:find(MARKER, 1, true) ~= nil end
local function raw_control(output) return output:find("[%z\1-\8\11-\31\127]") ~= nil end

local has_nvrtc = child("print(C.nvrtc_version())"):match("^NVRTC")
local compilers = {}
if has_nvrtc then compilers[#compilers + 1] = "nvrtc" else t.skip("nvrtc: the hostile kernels", "no NVRTC here") end
if core.find_program("clang") then compilers[#compilers + 1] = "clang" else t.skip("clang: the hostile kernels", "no clang here") end

local names = {}
for _, entry in ipairs(core.folder_entries(folder) or {}) do
  if entry.name:match("%.cu$") then names[#names + 1] = entry.name end
end
table.sort(names)
t.ok(#names >= 30, "tests/compile/hostile holds the hostile kernels (" .. #names .. ")")

for _, name in ipairs(names) do
  local text = instantiated(core.read_file(folder .. "/" .. name))
  local expected = text:match("// expect: ([^\n]*)") or "(a line // expect: TEXT)"   -- a kernel without one fails, naming it
  if not core.compile_memory_limited then   -- a sanitizer build: a memory bomb runs into the CPU limit instead
    expected = expected:gsub("^needed more than$", "needed more than|ran over")
  end
  -- A memory bomb gets time enough that on a loaded machine the memory
  -- limit, which it tests, still comes before the time limit.
  local seconds_given = expected == "needed more than" and 60 or SECONDS
  local path = scratch .. "/" .. name
  core.write_file(path, text)
  for _, compiler in ipairs(compilers) do
    local output, seconds = child(string.format([[
local ok, why = pcall(C.compile, C.read_file(%q), {compiler = %q, name = "kernel.cu"})
print(ok and "compiled" or why)]], path, compiler), { "WARPLAB_COMPILE_SECONDS=" .. seconds_given })
    local label = string.format("%s: %s", compiler, name)
    local outcome = expected == "any"
    for choice in instantiated(expected):gmatch("[^|]+") do outcome = outcome or output:find(choice, 1, true) ~= nil end
    t.ok(outcome and not leaks(output) and not raw_control(output) and seconds < 2 * seconds_given + 10,
         string.format("%s gives %q, in %.1f s, without the secret", label, expected, seconds))
    if not outcome or leaks(output) or raw_control(output) then print("#   " .. output:gsub("[%c]", function(c) return c == "\n" and "\n#   " or string.format("\\x%02X", c:byte()) end)) end
  end
end

-- The other routes to the compiler: a kernel declared at the prompt, and a header given in memory.
local INCLUDE = '#include "' .. files.SECRET .. '"\n__global__ void leak(int *p) { p[0] = 1; }\n'
local routes = {
  { "kernel{} at the prompt", string.format([[kernel{name = "leak", source = %q, buffers = {p = {type = "int", count = 1}}, args = {"p"}, grid = 1, block = 1}]], INCLUDE) },
  { "a header given with headers=", string.format([[C.compile('#include "mine.h"\n__global__ void k(int *p) { p[0] = 1; }', {headers = {["mine.h"] = %q}})]], INCLUDE) },
  { "clang when NVRTC is off", string.format("C.compile(%q)", INCLUDE), { "WARPLAB_NO_NVRTC=1" } },
}
for _, route in ipairs(routes) do
  local output = child(route[2], route[3])
  t.ok(output:find("cannot #include", 1, true) and not leaks(output), route[1] .. ": the include is refused, the secret stays out")
  if leaks(output) or not output:find("cannot #include", 1, true) then print("#   " .. output:gsub("\n", "\n#   ")) end
end

-- The child's own wall: a source that passed the check (warplab's prelude, which is not
-- checked, through clang) still cannot open a file outside the toolkit.
if core.find_program("clang") then
  local output = child(string.format([[
print(C.compile_program({%q, "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-S", "--cuda-gpu-arch=sm_75",
                         "-include", "warplab-prelude.h", "-o", "k.ptx", "k.cu"}, "__global__ void k() {}", "k.cu", {},
                        '#include "%s"\n', "k.ptx"))]], core.find_program("clang"), files.SECRET))
  t.ok(output:find("false", 1, true) and not leaks(output), "past the check, the compile child still cannot read the secret")
  if leaks(output) then print("#   " .. output:gsub("\n", "\n#   ")) end
end

run("rm", "-rf", scratch)
t.done()
