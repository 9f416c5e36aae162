-- compile.lua: CUDA C to PTX while the shell runs, for kernels written at the
-- prompt or in a lab. NVRTC from the CUDA toolkit when there is one
-- (core.nvrtc, in this process); else Debian's clang, started without a
-- shell, with a few definitions of warplab's own in place of the CUDA
-- headers. Neither needs a GPU. Compiled PTX is kept in $XDG_CACHE_HOME/warplab,
-- named by a hash of the compiler, the options and the source; a cache file
-- holds all three and is used only when they match, so a hash that collides
-- or a damaged file is compiled again, never trusted.
local core = ...
local u = core.util

local messages = {
  not_compiled = { en = "%s does not compile (%s):\n%s", zh = "%s 无法编译（%s）：\n%s" },
  no_compiler = { en = "no CUDA compiler here: %s, and clang was not found (Debian: apt-get install clang)",
                  zh = "这里没有 CUDA 编译器：%s，也找不到 clang（Debian：apt-get install clang）" },
  no_clang = { en = "clang was not found (Debian: apt-get install clang)", zh = "找不到 clang（Debian：apt-get install clang）" },
  bad_compiler = { en = "bad argument #2 to 'compile' (compiler must be \"nvrtc\" or \"clang\", got %s)",
                   zh = "bad argument #2 to 'compile' (compiler 必须是 \"nvrtc\" 或 \"clang\"，得到 %s)" },
  bad_arch = { en = "bad argument #2 to 'compile' (arch must be sm_ and two or three digits, such as \"sm_75\"; got %s)",
               zh = "bad argument #2 to 'compile' (arch 必须是 sm_ 加两到三位数字，例如 \"sm_75\"；得到 %s)" },
  bad_name = { en = "bad argument #2 to 'compile' (name must be a file name such as \"kernel.cu\", got %s)",
               zh = "bad argument #2 to 'compile' (name 必须是文件名，例如 \"kernel.cu\"，得到 %s)" },
  bad_source = { en = "bad argument #1 to 'compile' (CUDA C source expected, got %s)",
                 zh = "bad argument #1 to 'compile' (需要 CUDA C 源代码，得到 %s)" },
  clang_failed = { en = "clang could not be run: %s", zh = "无法运行 clang：%s" },
}
local say = u.messages("compile", messages)

-- The oldest architecture warplab builds for: its PTX loads on every later GPU.
local DEFAULT_ARCH = "sm_75"
local CACHE_MAGIC = "warplab ptx cache 1\n"

-- What clang is given in place of the CUDA headers (-nocudainc): the
-- qualifiers, threadIdx and friends (clang's own header), warp shuffles,
-- votes and atomics on clang's NVPTX builtins, and the vector types, as clang's vectors (.x .y .z .w, aligned as CUDA's): a copy of one
-- is then one wide load or store, as nvcc and NVRTC make it, where a struct
-- of four floats was copied as two 8-byte halves.
local CLANG_PRELUDE = [[
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __restrict__ __restrict
#include <__clang_cuda_builtin_vars.h>
typedef signed char char2 __attribute__((ext_vector_type(2)));
typedef signed char char4 __attribute__((ext_vector_type(4)));
typedef short short2 __attribute__((ext_vector_type(2)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned uint2 __attribute__((ext_vector_type(2)));
typedef unsigned uint4 __attribute__((ext_vector_type(4)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef double double2 __attribute__((ext_vector_type(2)));
#define WARPLAB_SHUFFLE(name, mode, type, suffix, clamp)                                              \
  __device__ inline type name(unsigned mask, type v, int lane, int width = 32)                     \
  { return __nvvm_shfl_sync_##mode##_##suffix(mask, v, lane, ((32 - width) << 8) | (clamp)); }
#define WARPLAB_SHUFFLES(type, suffix)                                                              \
  WARPLAB_SHUFFLE(__shfl_sync, idx, type, suffix, 0x1f) WARPLAB_SHUFFLE(__shfl_up_sync, up, type, suffix, 0) \
  WARPLAB_SHUFFLE(__shfl_down_sync, down, type, suffix, 0x1f) WARPLAB_SHUFFLE(__shfl_xor_sync, bfly, type, suffix, 0x1f)
WARPLAB_SHUFFLES(int, i32)
WARPLAB_SHUFFLES(float, f32)
__device__ inline unsigned __shfl_sync(unsigned m, unsigned v, int l, int w = 32) { return (unsigned)__shfl_sync(m, (int)v, l, w); }
__device__ inline unsigned __ballot_sync(unsigned mask, int p) { return __nvvm_vote_ballot_sync(mask, p); }
__device__ inline int __any_sync(unsigned mask, int p) { return __nvvm_vote_any_sync(mask, p); }
__device__ inline int __all_sync(unsigned mask, int p) { return __nvvm_vote_all_sync(mask, p); }
__device__ inline void __syncwarp(unsigned mask = 0xffffffff) { __nvvm_bar_warp_sync(mask); }
__device__ inline int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
__device__ inline unsigned atomicAdd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
__device__ inline float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
__device__ inline int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
__device__ inline int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__device__ inline int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
__device__ inline int atomicCAS(int *p, int compare, int v) { return __nvvm_atom_cas_gen_i(p, compare, v); }
]]

local function clang_program()
  local found = core.find_program("clang")
  if found then return found end
  for version = 30, 11, -1 do
    found = core.find_program("clang-" .. version)
    if found then return found end
  end
end

-- The compiler's identity, for the cache key: NVRTC's version, or clang's first line of --version.
local clang_identity = {}
local function identity_of_clang(program)
  if clang_identity[program] then return clang_identity[program] end
  local out = os.tmpname()   -- scratch files go to the temporary folder: the cache may be unwritable
  local status = core.spawn({ program, "--version" }, { stdout = out, stderr = "/dev/null" })
  local text = status == 0 and core.read_file(out) or nil
  os.remove(out)
  clang_identity[program] = text and text:match("^([^\n]+)") or program
  return clang_identity[program]
end

-- The cache: a file per compilation, holding the key it was made from and the PTX.
local function cache_file(key)
  return core.cache_path("ptx-" .. core.hash(key) .. ".ptx")
end

-- The file's text: the magic line, the key's length and the key, the PTX's length and the PTX.
local function cache_text(key, ptx)
  return CACHE_MAGIC .. #key .. "\n" .. key .. #ptx .. "\n" .. ptx
end

-- The PTX kept for key, or nil: a file of another key (the hash collided),
-- or cut short, or grown, is not used.
local function cached_ptx(key)
  local file = cache_file(key)
  local text = file and core.read_file(file)
  local header = CACHE_MAGIC .. #key .. "\n" .. key
  if not (text and text:sub(1, #header) == header) then return nil end
  local size, ptx = text:match("^(%d+)\n(.*)$", #header + 1)
  if size and #ptx == tonumber(size) then return ptx end
end

-- Keeps the PTX for next time; a cache that cannot be written (a full disk) only costs a compile.
local function keep_ptx(key, ptx)
  local file = cache_file(key)
  if file then pcall(core.write_file, file, cache_text(key, ptx)) end
end

local function nvrtc_compile(source, name, arch)
  local options = { "--gpu-architecture=" .. arch:gsub("^sm_", "compute_"), "-default-device", "--std=c++17", "-lineinfo" }
  local version, why = core.nvrtc_version()
  if not version then return nil, why end
  local key = table.concat({ version, table.concat(options, " "), name, source }, "\0")
  local cached = cached_ptx(key)
  if cached then return { ptx = cached, compiler = version, cached = true } end
  local ok, ptx_or_log = core.nvrtc(source, name, options)
  if not ok then error(say("not_compiled", name, version, ptx_or_log), 0) end
  keep_ptx(key, ptx_or_log)
  return { ptx = ptx_or_log, compiler = version, cached = false }
end

-- clang writes its PTX and messages to files in a folder of their own, where
-- the source has the student's file name, so that messages name it.
local function escaped(text) return (text:gsub("%p", "%%%0")) end

local function clang_compile(source, name, arch, program)
  local identity = identity_of_clang(program)
  local key = table.concat({ identity, arch, CLANG_PRELUDE, name, source }, "\0")
  local cached = cached_ptx(key)
  if cached then return { ptx = cached, compiler = identity, cached = true } end
  local work = os.tmpname()   -- its own file, removed with the rest
  local files = { work = work, prelude = work .. "-prelude.h", source = work .. "-" .. name, ptx = work .. ".ptx",
                  log = work .. ".log" }
  core.write_file(files.prelude, CLANG_PRELUDE)
  core.write_file(files.source, source)
  local status, why = core.spawn({ program, "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-S",
                                   "--cuda-gpu-arch=" .. arch, "-O3", "-Wno-unknown-cuda-version",
                                   -- PTX 6.3 (CUDA 10.0): the warp-synchronous builtins need 6.0, sm_75 needs 6.3
                                   "-Xclang", "-target-feature", "-Xclang", "+ptx63", "-include", files.prelude,
                                   "-o", files.ptx, files.source }, { stdin = "/dev/null", stdout = "/dev/null", stderr = files.log })
  local ptx, log = core.read_file(files.ptx), core.read_file(files.log) or ""
  for _, file in pairs(files) do os.remove(file) end
  if status == nil then error(say("clang_failed", why), 0) end
  if status ~= 0 or not ptx then
    log = log:gsub(escaped(work .. "-"), ""):gsub("\n%d+ errors? generated[^\n]*", ""):gsub("\n+$", "")
    error(say("not_compiled", name, identity, log), 0)
  end
  keep_ptx(key, ptx)
  return { ptx = ptx, compiler = identity, cached = false }
end

-- core.compile(source [, {name=, compiler=, arch=}]): {ptx=, compiler=, cached=}.
-- name ("kernel.cu") is what messages call the source; compiler "nvrtc" or
-- "clang" (default: NVRTC where there is one, else clang); arch the PTX
-- target (default sm_75). A compile error raises the compiler's messages,
-- with the line numbers of the source.
function core.compile(source, options)
  options = options or {}
  if type(source) ~= "string" or source:find("%z") then error(say("bad_source", u.quote(source)), 2) end
  local name, compiler, arch = options.name or "kernel.cu", options.compiler, options.arch or DEFAULT_ARCH
  if type(name) ~= "string" or not name:match("^[%w_%-%.]+$") then error(say("bad_name", u.quote(name)), 2) end
  if compiler ~= nil and compiler ~= "nvrtc" and compiler ~= "clang" then error(say("bad_compiler", u.quote(compiler)), 2) end
  if type(arch) ~= "string" or not arch:match("^sm_%d%d%d?$") then error(say("bad_arch", u.quote(arch)), 2) end
  local no_nvrtc
  if compiler ~= "clang" then
    local result, why = nvrtc_compile(source, name, arch)
    if result then return result end
    no_nvrtc = why
    if compiler == "nvrtc" then error(why, 2) end
  end
  local program = clang_program()
  if not program then error(no_nvrtc and say("no_compiler", no_nvrtc) or say("no_clang"), 2) end
  return clang_compile(source, name, arch, program)
end
