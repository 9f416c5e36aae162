-- compile.lua: CUDA C to PTX while the shell runs (compile.compile), without a
-- GPU: NVRTC and clang each compile a kernel to PTX that ptxas accepts; a
-- compile error gives the compiler's messages with the source's own line
-- numbers; the PTX is cached in $XDG_CACHE_HOME/warplab, and a cache file
-- that does not match (a colliding name, cut short) is compiled again, not
-- used; without NVRTC clang takes over; headers, defines and a template's
-- instantiation by name work with both; bad arguments are one clear line.
-- Each part runs in a child warplab with a cache folder of its own.
local t = dofile((os.getenv("srcdir") or ".") .. "/tests/lib/tap.lua")
local core = debug.getregistry()["warplab.core"]
local warplab = os.getenv("WARPLAB") or "./warplab"

-- Helper programs, as the shell starts them: no shell in between.
local function run(...) return core.spawn({ ... }, { stdout = "/dev/null", stderr = "/dev/null" }) end

local scratch = os.tmpname()
os.remove(scratch)
assert(run("mkdir", "-p", scratch) == 0)

-- Runs code in a child warplab with XDG_CACHE_HOME=cache (and more env); its output.
local function child(code, cache, more_env)
  local out = scratch .. "/out.txt"
  local argv = { "env", "XDG_CACHE_HOME=" .. cache }
  for _, setting in ipairs(more_env or {}) do argv[#argv + 1] = setting end
  for _, word in ipairs({ warplab, "--sim", "--lang", "en", "-e", "C = setmetatable({ compile = require('warplab.compile').compile }, { __index = require('warplab.core') })", "-e", code }) do
    argv[#argv + 1] = word
  end
  core.spawn(argv, { stdout = out, stderr = out })
  return core.read_file(out) or ""
end

local KERNEL = [[
extern "C" __global__ void scale(const float *in, float *out, float factor, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = factor * tile[blockDim.x - 1 - threadIdx.x];
}
]]
local BROKEN = "__global__ void k(float *a)\n{\n    a[0] = not_declared;\n}\n"
local ptxas = core.find_program("ptxas") or (io.open("/usr/local/cuda/bin/ptxas") and "/usr/local/cuda/bin/ptxas")

-- The code that compiles KERNEL with `compiler`, writes its PTX to file and prints what happened.
local function compile_code(compiler, file)
  return string.format([[
local r = C.compile(%q, {compiler = %q})
C.write_file(%q, r.ptx)
print("compiler=" .. r.compiler, "cached=" .. tostring(r.cached), "entry=" .. tostring(r.ptx:match("%%.entry ([%%w_]+)")))]],
    KERNEL, compiler, file)
end

local has_nvrtc = child("print(C.nvrtc_version())", scratch .. "/probe"):match("^NVRTC")
local has_clang = core.find_program("clang") ~= nil

for _, compiler in ipairs({ "nvrtc", "clang" }) do
  local here = compiler == "nvrtc" and has_nvrtc or compiler == "clang" and has_clang
  local cache = scratch .. "/" .. compiler
  if not here then
    t.skip(compiler .. ": compiles a kernel", compiler == "nvrtc" and "no NVRTC here (a build without CUDA)" or "no clang here")
  else
    local ptx_file = scratch .. "/" .. compiler .. ".ptx"
    local first = child(compile_code(compiler, ptx_file), cache)
    t.ok(first:find("cached=false", 1, true) and first:find("entry=scale", 1, true),
         compiler .. ": compiles a kernel to PTX with its entry (" .. first:gsub("\n", " ") .. ")")
    if ptxas then
      local status = core.spawn({ ptxas, "-arch=sm_75", ptx_file, "-o", "/dev/null" }, { stdout = "/dev/null", stderr = scratch .. "/ptxas.txt" })
      t.is(status, 0, compiler .. ": ptxas takes its PTX for sm_75 " .. (core.read_file(scratch .. "/ptxas.txt") or ""))
    else
      t.skip(compiler .. ": ptxas takes its PTX", "no ptxas here")
    end
    local again = child(compile_code(compiler, ptx_file), cache)
    t.ok(again:find("cached=true", 1, true), compiler .. ": the second compile comes from the cache")
    core.spawn({ "ls", cache .. "/warplab" }, { stdout = scratch .. "/ls.txt" })
    local cache_name = (core.read_file(scratch .. "/ls.txt") or ""):match("(ptx%-%x+%.ptx)")
    t.ok(cache_name ~= nil, compiler .. ": kept in $XDG_CACHE_HOME/warplab as ptx-HASH.ptx")
    if cache_name then
      local path = cache .. "/warplab/" .. cache_name
      local whole = core.read_file(path)
      core.write_file(path, whole:sub(1, #whole - 10))
      local cut = child(compile_code(compiler, ptx_file), cache)
      t.ok(cut:find("cached=false", 1, true) and cut:find("entry=scale", 1, true), compiler .. ": a cache file cut short is compiled again")
      core.write_file(path, (whole:gsub("scale", "other")))
      local other = child(compile_code(compiler, ptx_file), cache)
      t.ok(other:find("cached=false", 1, true) and other:find("entry=scale", 1, true),
           compiler .. ": a cache file made from another source under the same name is not used")
    end
    local broken = child(string.format("local ok, e = pcall(C.compile, %q, {compiler = %q, name = 'mine.cu'}) print(e)", BROKEN, compiler), cache)
    local line = compiler == "nvrtc" and "mine.cu(3): error" or "mine.cu:3:12: error"
    t.ok(broken:find("^mine.cu does not compile %(") and broken:find(line, 1, true) and broken:find("not_declared", 1, true),
         compiler .. ": a compile error gives its messages with the source's line numbers (" .. broken:gsub("\n", " | ") .. ")")
  end
end

-- A float4 is one 16-byte load and store with either compiler, as nvcc makes
-- it: the counts a kernel gives must not depend on which compiler made its PTX.
local VECTORS = [[extern "C" __global__ void c4(const float4 *in, float4 *out) { float4 v = in[threadIdx.x]; v.x += 1.0f; out[threadIdx.x] = v; }]]
for _, compiler in ipairs({ has_nvrtc and "nvrtc" or nil, has_clang and "clang" or nil }) do
  local out = child(string.format("local p = C.compile(%q, {compiler = %q}).ptx print(p:match('ld%%.global%%.v4%%.%%w+'), p:match('st%%.global%%.v4%%.%%w+'))",
                                  VECTORS, compiler), scratch .. "/vectors")
  t.ok(out:find("^ld%.global%.v4%.%w+\tst%.global%.v4%.%w+") ~= nil, compiler .. ": a float4 is one 16-byte load and one store (" .. out:gsub("\n", " ") .. ")")
end

if has_clang then
  local out = child("local r = C.compile('__global__ void k(int *a) { a[0] = 1; }') print(r.compiler)", scratch .. "/fallback", { "WARPLAB_NO_NVRTC=1" })
  t.ok(out:find("clang", 1, true) ~= nil, "without NVRTC, clang compiles (" .. out:gsub("\n", " ") .. ")")
else
  t.skip("without NVRTC, clang compiles", "no clang here")
end
-- A cache folder that cannot be made (its parent is a file): even root cannot write there.
local not_a_folder = scratch .. "/file"
core.write_file(not_a_folder, "")
for _, compiler in ipairs({ has_nvrtc and "nvrtc" or nil, has_clang and "clang" or nil }) do
  local out = child("local r = C.compile('__global__ void k(int *a) { a[0] = 1; }', {compiler = '" .. compiler .. "'})" ..
                    " print('entry', r.ptx:match('%.entry'), r.cached)", not_a_folder)
  t.ok(out:find("entry\t.entry\tfalse", 1, true) ~= nil,
       compiler .. ": a cache that cannot be written only costs the compile (" .. out:gsub("\n", " ") .. ")")
end

-- headers, defines and instantiate: a header of the caller's, a -D, and a
-- template kernel whose code the PTX holds only because it was asked for.
local TEMPLATE = [[#include "scale.h"
template <int FACTOR> __global__ void times(int *a) { a[threadIdx.x] *= FACTOR * SCALE + OFFSET; }]]
for _, compiler in ipairs({ has_nvrtc and "nvrtc" or nil, has_clang and "clang" or nil }) do
  local out = child(string.format([[
local r = C.compile(%q, {compiler = %q, headers = {["scale.h"] = "#define SCALE 7\n"}, defines = {"OFFSET=1000"}, instantiate = "times<3>"})
local bare = C.compile(%q, {compiler = %q, headers = {["scale.h"] = "#define SCALE 7\n"}, defines = {"OFFSET=1000"}})
print(r.ptx:match("%%.entry ([%%w_]+)"), r.ptx:find("1021", 1, true) ~= nil, bare.ptx:match("%%.entry") == nil)]], TEMPLATE, compiler, TEMPLATE, compiler),
                    scratch .. "/extras")
  t.ok(out:find("^_Z5timesILi3EEvPi\ttrue\ttrue") ~= nil,
       compiler .. ": headers, defines, and a template kernel instantiated by name (" .. out:gsub("\n", " ") .. ")")
end

local errors = child([[
for _, case in ipairs({ {42}, {"x", {compiler = "gcc"}}, {"x", {arch = "sm_7"}}, {"x", {name = "../up.cu"}},
                        {"x", {headers = {["../up.h"] = ""}}}, {"x", {headers = {["cuda_runtime.h"] = ""}}},
                        {"x", {defines = {"1X"}}}, {"x", {instantiate = "k<1>; int y"}} }) do
  print((select(2, pcall(C.compile, table.unpack(case)))))
end]], scratch .. "/errors")
for _, expected in ipairs({ "bad argument #1 to 'compile' (CUDA C source expected, got 42)",
                            "compiler must be \"nvrtc\" or \"clang\", got 'gcc'", "arch must be sm_",
                            "name must be a file name", "headers must be {NAME = text} with file names other than the source's and CUDA's; got '../up.h'",
                            "got 'cuda_runtime.h'", "defines must be a list of NAME or NAME=VALUE; got '1X'",
                            "instantiate must be a kernel's name, such as \"copy<float4>\"; got 'k<1>; int y'" }) do
  t.ok(errors:find(expected, 1, true) ~= nil, "one clear line: " .. expected)
end

run("chmod", "-R", "u+w", scratch)
run("rm", "-rf", scratch)
t.done()
