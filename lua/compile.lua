-- compile.lua: CUDA C to PTX while the shell runs, for kernels written at the
-- prompt or in a lab. NVRTC from the CUDA toolkit when there is one
-- (core.nvrtc); else Debian's clang (core.compile_program), with a few
-- definitions of warplab's own in place of the CUDA headers. Neither needs
-- a GPU. Both run in a child process with limits on time, memory and
-- output, that can read no file but the toolkit's and the compiler's own
-- (shell/compile/compile_child.c); a source that includes anything else is refused
-- before (shell/compile/compile_check.c), and the messages that come back are cut
-- to the source's own lines. Ctrl-C ends the child, not the shell. Compiled PTX is kept in $XDG_CACHE_HOME/warplab,
-- named by a hash of the compiler, the options and the source; a cache file
-- holds all three and is used only when they match, so a hash that collides
-- or a damaged file is compiled again, never trusted.
local core = require "warplab.core"
local u = require "warplab.text"

local compile = {}

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
  bad_headers = { en = "bad argument #2 to 'compile' (headers must be {NAME = text} with file names other than the source's and CUDA's; got %s)",
                  zh = "bad argument #2 to 'compile' (headers 必须是 {NAME = text}，NAME 为文件名，且不同于源文件和 CUDA 头文件的名字；得到 %s)" },
  bad_defines = { en = "bad argument #2 to 'compile' (defines must be a list of NAME or NAME=VALUE; got %s)",
                  zh = "bad argument #2 to 'compile' (defines 必须是 NAME 或 NAME=VALUE 的列表；得到 %s)" },
  bad_instantiate = { en = "bad argument #2 to 'compile' (instantiate must be a kernel's name, such as \"copy<float4>\"; got %s)",
                      zh = "bad argument #2 to 'compile' (instantiate 必须是核函数的名字，例如 \"copy<float4>\"；得到 %s)" },
}
local say = u.messages("compile", messages)

-- The oldest architecture warplab builds for: its PTX loads on every later GPU.
local DEFAULT_ARCH = "sm_75"
local CACHE_MAGIC = "warplab ptx cache 1\n"

-- What clang is given in place of the CUDA headers (-nocudainc): the
-- qualifiers, threadIdx and friends (clang's own header), warp shuffles,
-- votes, atomics and bit counts on clang's NVPTX builtins, the loads and stores with
-- cache hints (one ld or st each, with its hint, as CUDA's), and the vector
-- types, as clang's vectors (.x .y .z .w, aligned as CUDA's): a copy of one
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
#define __align__(n) __attribute__((aligned(n)))
typedef __SIZE_TYPE__ size_t;
#include <__clang_cuda_builtin_vars.h>
extern "C" __device__ int printf(const char *, ...);
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
#define WARPLAB_UNSIGNED_SHUFFLE(name)                                                                         \
  __device__ inline unsigned name(unsigned m, unsigned v, int l, int w = 32) { return (unsigned)name(m, (int)v, l, w); }
WARPLAB_UNSIGNED_SHUFFLE(__shfl_sync) WARPLAB_UNSIGNED_SHUFFLE(__shfl_up_sync) WARPLAB_UNSIGNED_SHUFFLE(__shfl_down_sync)
WARPLAB_UNSIGNED_SHUFFLE(__shfl_xor_sync)
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
#define WARPLAB_HINTED_LOAD(name, hint)                                                                       \
  __device__ inline float name(const float *p) { float v; asm("ld.global." hint ".f32 %0, [%1];" : "=f"(v) : "l"(p)); return v; } \
  __device__ inline int name(const int *p) { int v; asm("ld.global." hint ".s32 %0, [%1];" : "=r"(v) : "l"(p)); return v; }
WARPLAB_HINTED_LOAD(__ldg, "nc") WARPLAB_HINTED_LOAD(__ldca, "ca") WARPLAB_HINTED_LOAD(__ldcg, "cg") WARPLAB_HINTED_LOAD(__ldcs, "cs")
#define WARPLAB_HINTED_STORE(name, hint)                                                                       \
  __device__ inline void name(float *p, float v) { asm volatile("st.global." hint ".f32 [%0], %1;" : : "l"(p), "f"(v) : "memory"); } \
  __device__ inline void name(int *p, int v) { asm volatile("st.global." hint ".s32 [%0], %1;" : : "l"(p), "r"(v) : "memory"); } \
  __device__ inline void name(float4 *p, float4 v)                                                             \
  { asm volatile("st.global." hint ".v4.f32 [%0], {%1, %2, %3, %4};" : : "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory"); }
WARPLAB_HINTED_STORE(__stcg, "cg") WARPLAB_HINTED_STORE(__stcs, "cs") WARPLAB_HINTED_STORE(__stwb, "wb")
#define WARPLAB_MAKE(type, vector)                                                                              \
  __device__ inline vector make_##vector(type x, type y) { return (vector){ x, y }; }
#define WARPLAB_MAKE4(type, vector)                                                                             \
  __device__ inline vector make_##vector(type x, type y, type z, type w) { return (vector){ x, y, z, w }; }
WARPLAB_MAKE(int, int2) WARPLAB_MAKE(unsigned, uint2) WARPLAB_MAKE(float, float2) WARPLAB_MAKE(double, double2)
WARPLAB_MAKE4(int, int4) WARPLAB_MAKE4(unsigned, uint4) WARPLAB_MAKE4(float, float4)
#define WARPLAB_MIN_MAX(type)                                                                                   \
  __device__ inline type min(type a, type b) { return a < b ? a : b; }                                          \
  __device__ inline type max(type a, type b) { return a > b ? a : b; }
WARPLAB_MIN_MAX(int) WARPLAB_MIN_MAX(unsigned) WARPLAB_MIN_MAX(long long) WARPLAB_MIN_MAX(unsigned long long)
__device__ inline float min(float a, float b) { return __builtin_fminf(a, b); }
__device__ inline float max(float a, float b) { return __builtin_fmaxf(a, b); }
#define WARPLAB_MATH(name, builtin)                                                                             \
  __device__ inline float name##f(float x) { return __builtin_##builtin##f(x); }                               \
  __device__ inline double name(double x) { return __builtin_##builtin(x); }
WARPLAB_MATH(floor, floor) WARPLAB_MATH(ceil, ceil) WARPLAB_MATH(trunc, trunc) WARPLAB_MATH(rint, rint)
WARPLAB_MATH(round, round) WARPLAB_MATH(fabs, fabs) WARPLAB_MATH(sqrt, sqrt)
__device__ inline float fminf(float a, float b) { return __builtin_fminf(a, b); }
__device__ inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
__device__ inline double fmin(double a, double b) { return __builtin_fmin(a, b); }
__device__ inline double fmax(double a, double b) { return __builtin_fmax(a, b); }
__device__ inline float __saturatef(float x) { float v; asm("cvt.sat.f32.f32 %0, %1;" : "=f"(v) : "f"(x)); return v; }
__device__ inline int __popc(unsigned x) { return __builtin_popcount(x); }
__device__ inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__device__ inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
__device__ inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
]]

-- The C and C++ headers of the host a kernel may include that neither
-- compiler has: NVRTC ships no standard headers, and clang runs without the
-- system's (-nostdlibinc). Each stand-in holds only what device code can use
-- of its header, and includes the real thing where there is one: the
-- toolkit's libcu++ <cuda/std/...> for NVRTC (whose NVRTC branches define
-- the fixed-width types and the limits' macros), clang's own C headers for
-- its C++ names. printf needs no declaration: NVRTC declares it, and clang's
-- prelude does. NVRTC has no <float.h> (libcu++'s <cuda/std/cfloat> is empty
-- there) and device code no <stdarg.h>: those stay not found.
local STD_INTEGERS = "namespace std {\n" ..
  "using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t; using ::uint8_t; using ::uint16_t;\n" ..
  "using ::uint32_t; using ::uint64_t; using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;\n}\n"
local STDIO = "/* warplab: device code's <cstdio> is printf, which the compiler declares */\n"
-- NVRTC declares size_t and ptrdiff_t itself; libcu++ adds offsetof, and the limits' macros.
local function libcu(header, after) return "/* warplab: NVRTC's is the toolkit's libcu++ */\n#include <cuda/std/" .. header .. ">\n" .. (after or "") end
local function clang_own(header, after) return "/* warplab: clang's own <" .. header .. ">, in namespace std too */\n#include <" .. header .. ">\n" .. (after or "") end
local STD_SIZES = "namespace std { using ::size_t; using ::ptrdiff_t; }\n"
local SYSTEM_HEADERS = {
  nvrtc = {
    ["cstdio"] = STDIO .. "namespace std { using ::printf; }\n",
    ["stdio.h"] = STDIO,
    ["cstdint"] = libcu("cstdint", STD_INTEGERS),
    ["stdint.h"] = libcu("cstdint"),
    ["cstddef"] = libcu("cstddef", STD_SIZES),
    ["stddef.h"] = libcu("cstddef"),
    ["climits"] = libcu("climits"),
    ["limits.h"] = libcu("climits"),
    ["stdbool.h"] = "/* warplab: bool is C++'s own */\n#define __bool_true_false_are_defined 1\n",
  },
  clang = {
    ["cstdio"] = STDIO .. "namespace std { using ::printf; }\n",
    ["stdio.h"] = STDIO,
    ["cstdint"] = clang_own("stdint.h", STD_INTEGERS),
    ["cstddef"] = clang_own("stddef.h", STD_SIZES),
    ["climits"] = clang_own("limits.h"),
    ["cfloat"] = clang_own("float.h"),
  },
}

-- The CUDA headers a kernel may include with <...>, as clang finds them
-- (-I): what they declare is in the prelude, or here (the pipeline's
-- asynchronous copies, cp.async: compute capability 8.0 and later).
local CLANG_HEADERS = {
  ["cuda_runtime.h"] = "/* warplab: what a kernel uses of cuda_runtime.h, clang has from the prelude */\n",
  ["cuda_pipeline.h"] = [[
/* warplab: the pipeline primitives of CUDA's cuda_pipeline.h, on cp.async */
__device__ inline void __pipeline_memcpy_async(void *to, const void *from, unsigned long size, unsigned long zeros = 0)
{
  unsigned long long shared;
  unsigned copied = (unsigned)(size - zeros);
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(shared) : "l"(to));
  switch (size) {
  case 4: asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" : : "l"(shared), "l"(from), "r"(copied) : "memory"); break;
  case 8: asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" : : "l"(shared), "l"(from), "r"(copied) : "memory"); break;
  default: asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" : : "l"(shared), "l"(from), "r"(copied) : "memory"); break;
  }
}
__device__ inline void __pipeline_commit() { asm volatile("cp.async.commit_group;" : : : "memory"); }
__device__ inline void __pipeline_wait_prior(unsigned long prior)
{
  switch (prior) {
  case 0: asm volatile("cp.async.wait_group 0;" : : : "memory"); break;
  case 1: asm volatile("cp.async.wait_group 1;" : : : "memory"); break;
  case 2: asm volatile("cp.async.wait_group 2;" : : : "memory"); break;
  default: asm volatile("cp.async.wait_group 3;" : : : "memory"); break;
  }
}
]],
}

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

-- The cache: a file per compilation, holding the key it was made from and the PTX (or CUBIN).
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

-- The headers' names and texts in one text, in name order, for a cache key.
local function headers_key(headers)
  local names, parts = {}, {}
  for header in pairs(headers) do names[#names + 1] = header end
  table.sort(names)
  for _, header in ipairs(names) do parts[#parts + 1] = header .. "\0" .. headers[header] end
  return table.concat(parts, "\0")
end

-- The caller's headers with the compiler's stand-ins for system headers beside them.
local function with_system_headers(headers, compiler)
  local all = {}
  for _, set in ipairs({ SYSTEM_HEADERS[compiler], headers }) do
    for header, text in pairs(set) do all[header] = text end
  end
  return all
end

local function define_options(defines)
  local options = {}
  for i, define in ipairs(defines) do options[i] = "-D" .. define end
  return options
end

-- binary: the machine code of arch itself (a CUBIN, which only NVRTC makes here), not PTX.
local function nvrtc_compile(source, name, arch, headers, defines, binary)
  headers = with_system_headers(headers, "nvrtc")
  local target = binary and "--gpu-architecture=" .. arch or "--gpu-architecture=" .. arch:gsub("^sm_", "compute_")
  local options = { target, "-default-device", "--std=c++17", "-lineinfo", table.unpack(define_options(defines)) }
  local version, why = core.nvrtc_version()
  if not version then return nil, why end
  local output = binary and "cubin" or "ptx"
  local key = table.concat({ version, output, table.concat(options, " "), name, headers_key(headers), source }, "\0")
  local result = { compiler = version, cached = true }
  result[output] = cached_ptx(key)
  if result[output] then return result end
  local ok, code_or_log, _, stopped = core.nvrtc(source, name, options, headers, output)
  if ok == nil then return nil, code_or_log end
  if stopped then error(code_or_log, 0) end   -- warplab's own line: a refused include, a limit
  if not ok then error(say("not_compiled", name, version, code_or_log), 0) end
  keep_ptx(key, code_or_log)
  result[output], result.cached = code_or_log, false
  return result
end

-- clang runs in the compile child's empty folder, where the source has the
-- student's file name, so that messages name it, beside the headers it
-- includes (the CUDA stand-ins and the caller's) and warplab's prelude.
-- The PTX ISA clang is asked for: 6.3 (CUDA 10.0) has the warp-synchronous
-- builtins and sm_75; cp.async needs 7.0 (CUDA 11.0) and sm_80.
local function ptx_feature(arch)
  return tonumber(arch:match("%d+")) >= 80 and "+ptx70" or "+ptx63"
end

-- clang's options beside the target: -gline-tables-only gives the PTX the
-- .loc lines that NVRTC's -lineinfo gives, so the emulator's messages name
-- the source's line with either compiler; it changes no instruction.
local CLANG_OPTIONS = { "-O3", "-Wno-unknown-cuda-version", "-gline-tables-only" }

local function clang_compile(source, name, arch, program, headers, defines)
  local identity = identity_of_clang(program)
  local key = table.concat({ identity, arch, table.concat(CLANG_OPTIONS, " "), CLANG_PRELUDE, headers_key(CLANG_HEADERS), headers_key(SYSTEM_HEADERS.clang), headers_key(headers),
                             table.concat(defines, " "), name, source }, "\0")
  local cached = cached_ptx(key)
  if cached then return { ptx = cached, compiler = identity, cached = true } end
  local all_headers = with_system_headers(headers, "clang")
  for header, text in pairs(CLANG_HEADERS) do all_headers[header] = text end
  local argv = { program, "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-nostdlibinc", "-S",
                 "--cuda-gpu-arch=" .. arch, "-Xclang", "-target-feature", "-Xclang", ptx_feature(arch),
                 "-I", ".", "-include", "warplab-prelude.h" }
  for _, option in ipairs(CLANG_OPTIONS) do argv[#argv + 1] = option end
  for _, option in ipairs(define_options(defines)) do argv[#argv + 1] = option end
  for _, last in ipairs({ "-o", "kernel.ptx", name }) do argv[#argv + 1] = last end
  local ok, ptx, _, stopped = core.compile_program(argv, source, name, all_headers, CLANG_PRELUDE, "kernel.ptx")
  if stopped then error(ptx, 0) end
  if not ok then
    local log = ptx:gsub("\n%d+ errors? generated[^\n]*", ""):gsub("\n+$", "")
    error(say("not_compiled", name, identity, log), 0)
  end
  keep_ptx(key, ptx)
  return { ptx = ptx, compiler = identity, cached = false }
end

local function file_name(text) return type(text) == "string" and text:match("^[%w_%-%.]+$") and not text:match("^%.+$") end

-- headers = {NAME = text}, defines = {"NAME" or "NAME=VALUE", ...}, checked.
local function check_extras(options, name)
  local headers, defines = options.headers or {}, options.defines or {}
  if type(headers) ~= "table" then error(say("bad_headers", u.quote(headers)), 3) end
  for header, text in pairs(headers) do
    if not file_name(header) or header == name or CLANG_HEADERS[header] or SYSTEM_HEADERS.nvrtc[header]
       or SYSTEM_HEADERS.clang[header] or type(text) ~= "string" then
      error(say("bad_headers", u.quote(header)), 3)
    end
  end
  if type(defines) ~= "table" then error(say("bad_defines", u.quote(defines)), 3) end
  for _, define in ipairs(defines) do
    if type(define) ~= "string" or not define:match("^[%a_][%w_]*=?[%w_%.%-]*$") then error(say("bad_defines", u.quote(define)), 3) end
  end
  local instantiate = options.instantiate
  if instantiate ~= nil and (type(instantiate) ~= "string" or not instantiate:match("^[%a_][%w_:<>, %*&]*$")) then
    error(say("bad_instantiate", u.quote(instantiate)), 3)
  end
  return headers, defines, instantiate
end

---------------------------------------------------------------------------
-- What a CUBIN says of a kernel: its registers and static shared memory
---------------------------------------------------------------------------

local ELF_SECTION = "<I4I4I8I8I8I8I4I4I8I8"   -- Elf64_Shdr: name, type, ..., offset, size, link, info
local EIATTR_REGCOUNT, EIFMT_SVAL = 0x2f, 4   -- an .nv.info attribute: {symbol index, registers}

-- The sections of an ELF64 file: {name=, offset=, size=, link=}, in order from 0.
local function elf_sections(elf)
  local table_at, entry_bytes, count, names_index = string.unpack("<I8", elf, 0x29), string.unpack("<I2", elf, 0x3b),
                                                    string.unpack("<I2", elf, 0x3d), string.unpack("<I2", elf, 0x3f)
  local sections = {}
  for i = 0, count - 1 do
    local name, _, _, _, offset, size, link = string.unpack(ELF_SECTION, elf, table_at + i * entry_bytes + 1)
    sections[i] = { name_at = name, offset = offset, size = size, link = link }
  end
  local names = sections[names_index]
  for i = 0, count - 1 do sections[i].name = string.unpack("z", elf, names.offset + sections[i].name_at + 1) end
  return sections
end

-- The index of symbol in the ELF's .symtab, or nil.
local function symbol_index(elf, sections, symbol)
  for _, section in pairs(sections) do
    if section.name == ".symtab" then
      local names = sections[section.link]
      for i = 0, section.size // 24 - 1 do
        local name_at = string.unpack("<I4", elf, section.offset + i * 24 + 1)
        if string.unpack("z", elf, names.offset + name_at + 1) == symbol then return i end
      end
    end
  end
end

-- The registers .nv.info gives the symbol of that index, or nil.
local function registers_of(elf, sections, index)
  for _, section in pairs(sections) do
    if section.name == ".nv.info" then
      local at, last = section.offset + 1, section.offset + section.size
      while at + 3 <= last do
        local format, attribute = string.unpack("BB", elf, at)
        if format ~= EIFMT_SVAL then
          at = at + 4
        else
          local bytes = string.unpack("<I2", elf, at + 2)
          if attribute == EIATTR_REGCOUNT and bytes == 8 and string.unpack("<I4", elf, at + 4) == index then
            return string.unpack("<I4", elf, at + 8)
          end
          at = at + 4 + bytes
        end
      end
    end
  end
end

-- compile.cubin_resources(cubin, symbol): the registers a thread of kernel
-- symbol uses and its static shared memory in bytes, as NVRTC's CUBIN
-- records them (the .nv.info attribute ptxas writes, and the size of
-- .nv.shared.SYMBOL); nil where the file does not say.
function compile.cubin_resources(cubin, symbol)
  local ok, registers, shared = pcall(function()
    if cubin:sub(1, 4) ~= "\127ELF" then return nil end
    local sections = elf_sections(cubin)
    local index = symbol_index(cubin, sections, symbol)
    local shared = 0
    for _, section in pairs(sections) do
      if section.name == ".nv.shared." .. symbol then shared = section.size end
    end
    return index and registers_of(cubin, sections, index), shared
  end)
  if not ok or not registers then return nil end
  return registers, shared
end

-- compile.listing(cubin): nvdisasm's listing of a CUBIN (the text the SASS
-- engine runs), kept in the cache beside the compiles (nvdisasm takes about
-- half a second a run), or nil and why (no disassembler, or it failed).
function compile.listing(cubin)
  local program, none = core.disassembler()
  if not program then return nil, none end
  local key = "nvdisasm listing 1\0" .. program .. "\0" .. cubin
  local kept = cached_ptx(key)
  if kept then return kept end
  local listing, why = core.disassemble(cubin)
  if not listing then return nil, why end
  keep_ptx(key, listing.text)
  return listing.text
end

-- compile.compile(source [, {name=, compiler=, arch=, headers=, defines=, instantiate=, binary=}]):
-- {ptx=, compiler=, cached=}. name ("kernel.cu") is what messages call the
-- source; compiler "nvrtc" or "clang" (default: NVRTC where there is one,
-- else clang); arch the PTX target (default sm_75); headers what #include
-- "NAME" finds ({NAME = text}); defines -D's; instantiate a template
-- kernel's name expression ("copy<float4>"), whose code the PTX then holds
-- (its address is taken after the source). binary = true: {cubin=, ...},
-- arch's own machine code, from NVRTC only. A compile error raises the
-- compiler's messages, with the line numbers of the source.
function compile.compile(source, options)
  options = options or {}
  if type(source) ~= "string" or source:find("%z") then error(say("bad_source", u.quote(source)), 2) end
  local name, compiler, arch = options.name or "kernel.cu", options.compiler, options.arch or DEFAULT_ARCH
  if not file_name(name) then error(say("bad_name", u.quote(name)), 2) end
  if compiler ~= nil and compiler ~= "nvrtc" and compiler ~= "clang" then error(say("bad_compiler", u.quote(compiler)), 2) end
  if type(arch) ~= "string" or not arch:match("^sm_%d%d%d?$") then error(say("bad_arch", u.quote(arch)), 2) end
  local headers, defines, instantiate = check_extras(options, name)
  if instantiate then source = source .. "\nstatic auto *const warplab_instance = &" .. instantiate .. ";\n" end
  local no_nvrtc
  if compiler ~= "clang" then
    local result, why = nvrtc_compile(source, name, arch, headers, defines, options.binary)
    if result then return result end
    no_nvrtc = why
    if compiler == "nvrtc" or options.binary then error(why, 2) end
  end
  local program = clang_program()
  if not program then error(no_nvrtc and say("no_compiler", no_nvrtc) or say("no_clang"), 2) end
  return clang_compile(source, name, arch, program, headers, defines)
end

return compile
