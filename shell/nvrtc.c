/*
** nvrtc.c — CUDA C to PTX in this process, through the CUDA toolkit's NVRTC,
** loaded with dlopen: a build or a machine without it still starts, and
** lua/compile.lua then uses clang. NVRTC needs no GPU. Also the two small
** things the compile cache needs from C: a hash and the cache's folder.
*/
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "api.h"
#include "device_compile.h"
#include "paths.h"
#include "session.h"

#ifdef HAVE_CUDA
#include <nvrtc.h>

/* Every NVRTC function warplab calls, looked up by name once. */
#define NVRTC_FUNCTIONS(X)                                                                      \
    X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcCompileProgram)       \
    X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetPTXSize) X(nvrtcGetPTX)          \
    X(nvrtcDestroyProgram) X(nvrtcAddNameExpression) X(nvrtcGetLoweredName) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN)

#define DECLARE_POINTER(name) __typeof__(&name) name;
static struct {
    NVRTC_FUNCTIONS(DECLARE_POINTER)
} nvrtc;

#define FUNCTION_ENTRY(name) { #name, (void **)&nvrtc.name },
static const struct {
    const char *name;
    void **pointer;
} nvrtc_symbols[] = { NVRTC_FUNCTIONS(FUNCTION_ENTRY) };

/* Where libnvrtc may be: the loader's path, then the toolkit warplab was built with. */
static const char *const nvrtc_paths[] = {
    "libnvrtc.so.13",
    "libnvrtc.so",
    CUDA_DIR "/lib64/libnvrtc.so.13",
    CUDA_DIR "/lib64/libnvrtc.so",
};

/* NVRTC's functions, loaded once; NULL when it cannot be, with why. */
static const char *load_nvrtc(void)
{
    static int tried;
    static const char *why;
    static void *library;
    if (tried)
        return why;
    tried = 1;
    if (getenv("WARPLAB_NO_NVRTC"))   /* to run the clang path where both exist */
        return why = SAY("NVRTC is turned off (WARPLAB_NO_NVRTC)", "NVRTC 已关闭（WARPLAB_NO_NVRTC）");
    for (size_t i = 0; i < sizeof nvrtc_paths / sizeof nvrtc_paths[0] && !library; i++)
        library = dlopen(nvrtc_paths[i], RTLD_NOW | RTLD_LOCAL);
    if (!library)
        return why = SAY("NVRTC (libnvrtc.so.13) was not found", "找不到 NVRTC（libnvrtc.so.13）");
    for (size_t i = 0; i < sizeof nvrtc_symbols / sizeof nvrtc_symbols[0]; i++)
        if (!(*nvrtc_symbols[i].pointer = dlsym(library, nvrtc_symbols[i].name)))
            return why = SAY("this NVRTC lacks a function warplab needs", "这个 NVRTC 缺少 warplab 需要的函数");
    return NULL;
}

/* What NVRTC said: its log, or its error's name; malloc'd, without the trailing newlines. */
static char *program_log(nvrtcProgram program, nvrtcResult result)
{
    size_t size = 0;
    char *log = NULL;
    if (nvrtc.nvrtcGetProgramLogSize(program, &size) == NVRTC_SUCCESS && size > 1 && (log = malloc(size)) &&
        nvrtc.nvrtcGetProgramLog(program, log) == NVRTC_SUCCESS) {
        while (size > 1 && (log[size - 2] == '\n' || log[size - 2] == 0))
            log[--size - 1] = 0;
        return log;
    }
    free(log);
    return strdup(nvrtc.nvrtcGetErrorString(result));
}

/* The compiled program's PTX, or its CUBIN when job->binary: malloc'd in *out, its size in *size; 0 or -1. */
static int program_output(const struct nvrtc_job *job, nvrtcProgram program, char **out, size_t *size)
{
    nvrtcResult (*get_size)(nvrtcProgram, size_t *) = job->binary ? nvrtc.nvrtcGetCUBINSize : nvrtc.nvrtcGetPTXSize;
    nvrtcResult (*get)(nvrtcProgram, char *) = job->binary ? nvrtc.nvrtcGetCUBIN : nvrtc.nvrtcGetPTX;
    *size = 0;
    return get_size(program, size) == NVRTC_SUCCESS && (*out = malloc(*size + 1)) && get(program, *out) == NVRTC_SUCCESS ? 0 : -1;
}

int nvrtc_compile_sized(const struct nvrtc_job *job, char **output, size_t *output_size, char *lowered, size_t lowered_size,
                        char **log)
{
    const char *why = load_nvrtc();
    *output = *log = NULL;
    if (why) {
        *log = strdup(why);
        return -1;
    }
    nvrtcProgram program;
    nvrtcResult result = nvrtc.nvrtcCreateProgram(&program, job->source, job->name, job->header_count,
                                                  job->header_texts, job->header_names);
    if (result != NVRTC_SUCCESS) {
        *log = strdup(nvrtc.nvrtcGetErrorString(result));
        return -1;
    }
    if (job->expression)
        nvrtc.nvrtcAddNameExpression(program, job->expression);
    result = nvrtc.nvrtcCompileProgram(program, job->option_count, job->options);
    const char *name = NULL;
    int compiled = result == NVRTC_SUCCESS && program_output(job, program, output, output_size) == 0 &&
                   (!job->expression || nvrtc.nvrtcGetLoweredName(program, job->expression, &name) == NVRTC_SUCCESS);
    if (compiled && job->expression)
        snprintf(lowered, lowered_size, "%s", name);
    if (!compiled) {
        free(*output);
        *output = NULL;
        *log = program_log(program, result);
    }
    nvrtc.nvrtcDestroyProgram(&program);
    return compiled ? 0 : -1;
}

const char *nvrtc_version(void)
{
    static char text[32];
    int major = 0, minor = 0;
    if (load_nvrtc() || nvrtc.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
        return NULL;
    snprintf(text, sizeof text, "NVRTC %d.%d", major, minor);
    return text;
}

/* core.nvrtc_version(): "NVRTC 13.0", or nil and why there is no NVRTC here. */
static int core_nvrtc_version(lua_State *L)
{
    const char *version = nvrtc_version();
    if (!version) {
        lua_pushnil(L);
        lua_pushstring(L, load_nvrtc() ? load_nvrtc() : "NVRTC does not say its version");
        return 2;
    }
    lua_pushstring(L, version);
    return 1;
}

enum { MAX_HEADERS = 16 };

/* The table at index 4, {NAME = text} (none when nil), into names and texts; the table keeps them alive. */
static int check_headers(lua_State *L, const char **names, const char **texts)
{
    int count = 0;
    if (lua_isnoneornil(L, 4))
        return 0;
    luaL_checktype(L, 4, LUA_TTABLE);
    for (lua_pushnil(L); lua_next(L, 4); lua_pop(L, 1)) {
        luaL_argcheck(L, count < MAX_HEADERS && lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING, 4,
                      "at most 16 headers, {NAME = text}");
        names[count] = lua_tostring(L, -2);
        texts[count++] = lua_tostring(L, -1);
    }
    return count;
}

/* core.nvrtc(source, name, options [, headers [, "cubin"]]): true, the PTX (or, with "cubin", the
   machine code for the real architecture the options name) and NVRTC's version ("NVRTC 13.0") when
   it compiled; false, NVRTC's messages and its version when it did not; nil and why when
   there is no NVRTC here. headers: {NAME = text}, what #include "NAME" finds. */
static int core_nvrtc(lua_State *L)
{
    size_t length;
    const char *source = luaL_checklstring(L, 1, &length), *name = luaL_checkstring(L, 2);
    const char *options[32], *header_names[MAX_HEADERS], *header_texts[MAX_HEADERS];
    luaL_checktype(L, 3, LUA_TTABLE);
    int count = (int)lua_rawlen(L, 3);
    luaL_argcheck(L, count <= 32, 3, "at most 32 options");
    luaL_argcheck(L, strlen(source) == length, 1, SAY("the source holds a NUL byte", "源代码中含有 NUL 字节"));
    for (int i = 0; i < count; i++) {
        lua_rawgeti(L, 3, i + 1);
        options[i] = luaL_checkstring(L, -1);   /* the table keeps it alive */
        lua_pop(L, 1);
    }
    const char *version = nvrtc_version();
    if (!version) {
        lua_pushnil(L);
        lua_pushstring(L, load_nvrtc());
        return 2;
    }
    int header_count = check_headers(L, header_names, header_texts);
    static const char *const outputs[] = { "ptx", "cubin", NULL };
    struct nvrtc_job job = { .source = source, .name = name, .options = options, .option_count = count,
                             .header_names = header_names, .header_texts = header_texts, .header_count = header_count,
                             .binary = luaL_checkoption(L, 5, "ptx", outputs) == 1 };
    char *ptx, *log;
    size_t size = 0;
    int compiled = nvrtc_compile_sized(&job, &ptx, &size, NULL, 0, &log) == 0;
    lua_pushboolean(L, compiled);
    if (compiled)
        lua_pushlstring(L, ptx, job.binary ? size : strlen(ptx));
    else
        lua_pushstring(L, log);
    free(ptx);
    free(log);
    lua_pushstring(L, version);
    return 3;
}
#else
/* core.nvrtc and core.nvrtc_version: nil and why. */
static int core_nvrtc(lua_State *L)
{
    lua_pushnil(L);
    lua_pushstring(L, SAY("this warplab was built without CUDA, so without NVRTC", "这个 warplab 构建时没有 CUDA，因此没有 NVRTC"));
    return 2;
}
#define core_nvrtc_version core_nvrtc

int nvrtc_compile_sized(const struct nvrtc_job *job, char **ptx, size_t *size, char *lowered, size_t lowered_size, char **log)
{
    (void)job, (void)lowered, (void)lowered_size;
    *size = 0;
    *ptx = NULL;
    *log = strdup(SAY("this warplab was built without CUDA, so without NVRTC", "这个 warplab 构建时没有 CUDA，因此没有 NVRTC"));
    return -1;
}

const char *nvrtc_version(void)
{
    return NULL;
}
#endif

int nvrtc_compile(const struct nvrtc_job *job, char **ptx, char *lowered, size_t lowered_size, char **log)
{
    size_t size;
    return nvrtc_compile_sized(job, ptx, &size, lowered, lowered_size, log);
}

/* core.hash(text): FNV-1a of text as 16 hex digits, to name cache files (the
   file keeps what it was made from, which is compared before it is used). */
static int core_hash(lua_State *L)
{
    size_t length;
    const unsigned char *text = (const unsigned char *)luaL_checklstring(L, 1, &length);
    uint64_t hash = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < length; i++)
        hash = (hash ^ text[i]) * 0x100000001b3ull;
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash);
    lua_pushstring(L, hex);
    return 1;
}

/* core.cache_path(name): $XDG_CACHE_HOME/warplab/name (the folders made), or nil without a home. */
static int core_cache_path(lua_State *L)
{
    char path[4096];
    if (xdg_file("XDG_CACHE_HOME", ".cache", luaL_checkstring(L, 1), path, sizeof path) != 0)
        lua_pushnil(L);
    else
        lua_pushstring(L, path);
    return 1;
}

const luaL_Reg compile_core[] = {
    { "nvrtc", core_nvrtc },
    { "nvrtc_version", core_nvrtc_version },
    { "hash", core_hash },
    { "cache_path", core_cache_path },
    { NULL, NULL },
};
