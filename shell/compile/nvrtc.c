/*
** nvrtc.c — CUDA C to PTX through the CUDA toolkit's NVRTC, loaded with
** dlopen (a build or a machine without it still starts, and lua/compile.lua
** then uses clang; NVRTC needs no GPU). The compile itself runs only in the
** compile child (compile_child.c); the shell loads NVRTC for its version
** alone. Also the Lua side of compiling: core.nvrtc and
** core.compile_program, which go through the child, and the two small things
** the compile cache needs: a hash and the cache's folder.
*/
#include <dlfcn.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "compile/device_compile.h"
#include "interrupt.h"
#include "libraries.h"
#include "paths.h"
#include "support/text.h"

#ifdef HAVE_CUDA
/* NVRTC's functions, loaded once; NULL when it cannot be, with why. */
static const char *load_nvrtc(void)
{
    static int tried;
    static const char *why;
    if (tried)
        return why;
    tried = 1;
    if (getenv("WARPLAB_NO_NVRTC"))   /* to run the clang path where both exist */
        return why = SAY("NVRTC is turned off (WARPLAB_NO_NVRTC)", "NVRTC 已关闭（WARPLAB_NO_NVRTC）");
    const char *missing;
    if (library_load(LIBRARY_NVRTC, &missing) == 0)
        return NULL;
    return why = missing ? SAY("this NVRTC lacks a function warplab needs", "这个 NVRTC 缺少 warplab 需要的函数")
                         : SAY("NVRTC (libnvrtc.so.13) was not found", "找不到 NVRTC（libnvrtc.so.13）");
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
static int program_output(const struct compile_job *job, nvrtcProgram program, char **out, size_t *size)
{
    nvrtcResult (*get_size)(nvrtcProgram, size_t *) = job->binary ? nvrtc.nvrtcGetCUBINSize : nvrtc.nvrtcGetPTXSize;
    nvrtcResult (*get)(nvrtcProgram, char *) = job->binary ? nvrtc.nvrtcGetCUBIN : nvrtc.nvrtcGetPTX;
    *size = 0;
    if (get_size(program, size) != NVRTC_SUCCESS || !(*out = malloc(*size + 1)) || get(program, *out) != NVRTC_SUCCESS)
        return -1;
    (*out)[*size] = 0;
    if (!job->binary)
        *size = strlen(*out);   /* PTX is text: its size counts a NUL */
    return 0;
}

int nvrtc_compile_here(const struct compile_job *job, char **output, size_t *output_size, char *lowered, size_t lowered_size, char **log)
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

int nvrtc_knows_arch(int cc)
{
    int count = 0, archs[128];
    if (load_nvrtc() || nvrtc.nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count > 128 ||
        nvrtc.nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
        return 0;
    for (int i = 0; i < count; i++)
        if (archs[i] == cc)
            return 1;
    return 0;
}

const char *nvrtc_unavailable(void)
{
    return load_nvrtc() ? load_nvrtc() : SAY("NVRTC does not say its version", "NVRTC 没有给出版本");
}

const char *nvrtc_library_folder(void)
{
    static char folder[4096];
    Dl_info info;
    if (load_nvrtc() || !dladdr((void *)nvrtc.nvrtcVersion, &info) || !info.dli_fname || !realpath(info.dli_fname, folder))
        return NULL;
    return dirname(folder);
}

/* Loads NVRTC's builtins library (libnvrtc-builtins.so.MAJOR.MINOR), which
   NVRTC itself opens only when it compiles: from NVRTC's own folder, else
   where the loader finds it. Once loaded, NVRTC's own dlopen takes it by its
   name, wherever the files it came from are shut off (the compile child's
   Landlock: the H200 machine's loader found it outside NVRTC's folder). */
void nvrtc_load_builtins(void)
{
    int major = 0, minor = 0;
    char name[64], path[4200];
    if (load_nvrtc() || nvrtc.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
        return;
    snprintf(name, sizeof name, "libnvrtc-builtins.so.%d.%d", major, minor);
    const char *folder = nvrtc_library_folder();
    snprintf(path, sizeof path, "%s/%s", folder ? folder : ".", name);
    if (!(folder && dlopen(path, RTLD_NOW | RTLD_GLOBAL)))
        dlopen(name, RTLD_NOW | RTLD_GLOBAL);
}
#else
static const char *without_cuda(void)
{
    return SAY("this warplab was built without CUDA, so without NVRTC", "这个 warplab 构建时没有 CUDA，因此没有 NVRTC");
}

int nvrtc_compile_here(const struct compile_job *job, char **output, size_t *size, char *lowered, size_t lowered_size, char **log)
{
    (void)job, (void)lowered, (void)lowered_size;
    *size = 0;
    *output = NULL;
    *log = strdup(without_cuda());
    return -1;
}

const char *nvrtc_version(void)
{
    return NULL;
}

const char *nvrtc_unavailable(void)
{
    return without_cuda();
}

int nvrtc_knows_arch(int cc)
{
    (void)cc;
    return 0;
}

const char *nvrtc_library_folder(void)
{
    return NULL;
}

void nvrtc_load_builtins(void) {}
#endif

int nvrtc_compile(const struct compile_job *job, char **ptx, char *lowered, size_t lowered_size, char **log)
{
    struct compile_outcome outcome;
    int status = compile_isolated(job, &outcome);
    if (lowered && lowered_size)
        snprintf(lowered, lowered_size, "%s", outcome.lowered);
    *ptx = outcome.output, *log = outcome.log;
    if (!*log && status != 0)
        *log = strdup("?");
    return status;
}

/* core.nvrtc_version(): "NVRTC 13.0", or nil and why there is no NVRTC here. */
static int core_nvrtc_version(lua_State *L)
{
    const char *version = nvrtc_version();
    if (!version) {
        lua_pushnil(L);
        lua_pushstring(L, nvrtc_unavailable());
        return 2;
    }
    lua_pushstring(L, version);
    return 1;
}

enum { MAX_HEADERS = 24, MAX_OPTIONS = 32 };

/* The table at index, {NAME = text} (none when nil), into names and texts; the table keeps them alive. */
static int check_headers(lua_State *L, int index, const char **names, const char **texts)
{
    int count = 0;
    if (lua_isnoneornil(L, index))
        return 0;
    luaL_checktype(L, index, LUA_TTABLE);
    for (lua_pushnil(L); lua_next(L, index); lua_pop(L, 1)) {
        luaL_argcheck(L, count < MAX_HEADERS && lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING, index,
                      "at most 24 headers, {NAME = text}");
        names[count] = lua_tostring(L, -2);
        texts[count++] = lua_tostring(L, -1);
    }
    return count;
}

/* The list of strings at index into words (at most max, NULL after them); the table keeps them alive. */
static int check_words(lua_State *L, int index, const char **words, int max)
{
    luaL_checktype(L, index, LUA_TTABLE);
    int count = (int)lua_rawlen(L, index);
    luaL_argcheck(L, count < max, index, "too many words");
    for (int i = 0; i < count; i++) {
        lua_rawgeti(L, index, i + 1);
        words[i] = luaL_checkstring(L, -1);   /* the table keeps it alive */
        lua_pop(L, 1);
    }
    words[count] = NULL;
    return count;
}

static const char *check_source(lua_State *L, int index)
{
    size_t length;
    const char *source = luaL_checklstring(L, index, &length);
    luaL_argcheck(L, strlen(source) == length, index, SAY("the source holds a NUL byte", "源代码中含有 NUL 字节"));
    return source;
}

/* What a compile gave, for Lua: true, the output and the compiler's version; false, the
   compiler's messages, its version and nil; false, warplab's one line (a refused include, a
   limit), the version and true; or nil and why there is no NVRTC. Ctrl-C during the
   compile raises "compile interrupted". */
static int push_outcome(lua_State *L, struct compile_outcome *outcome, const char *version)
{
    const char *shown_version = outcome->version[0] ? outcome->version : version;
    int status = outcome->status;
    if (outcome->interrupted) {   /* one line, no position: the Ctrl-C is taken here (lab code still ends) */
        interrupt_clear(L);
        lua_pushstring(L, outcome->log);
        compile_outcome_free(outcome);
        return lua_error(L);
    }
    if (status == NO_COMPILER) {
        lua_pushnil(L);
        lua_pushstring(L, outcome->log ? outcome->log : nvrtc_unavailable());
        compile_outcome_free(outcome);
        return 2;
    }
    lua_pushboolean(L, status == COMPILED);
    if (status == COMPILED)
        lua_pushlstring(L, outcome->output, outcome->output_size);
    else
        lua_pushstring(L, outcome->log ? outcome->log : "");
    if (shown_version)
        lua_pushstring(L, shown_version);
    else
        lua_pushnil(L);
    lua_pushboolean(L, status == COMPILE_STOPPED);
    compile_outcome_free(outcome);
    return 4;
}

/* core.nvrtc(source, name, options [, headers [, "cubin"]]): the source compiled by NVRTC
   in the compile child (push_outcome says what comes back): the PTX, or with "cubin" the
   machine code for the real architecture the options name. headers: {NAME = text}, what
   #include "NAME" finds. */
static int core_nvrtc(lua_State *L)
{
    const char *source = check_source(L, 1), *name = luaL_checkstring(L, 2);
    const char *options[MAX_OPTIONS + 1], *header_names[MAX_HEADERS], *header_texts[MAX_HEADERS];
    int count = check_words(L, 3, options, MAX_OPTIONS + 1);
    const char *version = nvrtc_version();
    if (!version) {
        lua_pushnil(L);
        lua_pushstring(L, nvrtc_unavailable());
        return 2;
    }
    int header_count = check_headers(L, 4, header_names, header_texts);
    static const char *const outputs[] = { "ptx", "cubin", NULL };
    struct compile_job job = { .source = source, .name = name, .options = options, .option_count = count,
                               .header_names = header_names, .header_texts = header_texts, .header_count = header_count,
                               .binary = luaL_checkoption(L, 5, "ptx", outputs) == 1 };
    struct compile_outcome outcome;
    compile_isolated(&job, &outcome);
    return push_outcome(L, &outcome, version);
}

/* core.compile_program(argv, source, name, headers, prelude, output): runs a compiler
   program (clang) in the compile child, as core.nvrtc runs NVRTC: argv names files in
   its working folder, where the source is the file name, each header {NAME = text} a
   file, prelude (warplab's own text, not checked) warplab-prelude.h; output is the file
   it writes. */
static int core_compile_program(lua_State *L)
{
    const char *argv[97], *header_names[MAX_HEADERS], *header_texts[MAX_HEADERS];
    check_words(L, 1, argv, 97);
    luaL_argcheck(L, argv[0] != NULL, 1, "a program expected");
    const char *source = check_source(L, 2), *name = luaL_checkstring(L, 3);
    int header_count = check_headers(L, 4, header_names, header_texts);
    struct compile_job job = { .source = source, .name = name, .header_names = header_names, .header_texts = header_texts,
                               .header_count = header_count, .program = argv, .prelude = luaL_optstring(L, 5, NULL),
                               .output_file = luaL_checkstring(L, 6) };
    struct compile_outcome outcome;
    compile_isolated(&job, &outcome);
    return push_outcome(L, &outcome, NULL);
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
    { "compile_program", core_compile_program },
    { "hash", core_hash },
    { "cache_path", core_cache_path },
    { NULL, NULL },
};
