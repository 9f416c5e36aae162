/*
** api.c — the Lua API beside launch(): device(), info's declarations, warp
** maps, explain(), print and capture, measure_copy(), alloc_alignment(); and
** the core table the prelude is given, which arguments.c and launch.c add to.
*/
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>
#include "api/api.h"
#include "api/labs.h"
#include "api/result_lua.h"
#include "api/declare_kernel.h"
#include "api/arguments.h"
#include "model/common.h"
#include "backend/counter_table.h"
#include "compile/device_compile.h"
#include "api/files.h"
#include "interrupt.h"
#include "output.h"
#include "backend/emulate.h"
#include "api/emulate_core.h"
#include "model/params.h"
#include "model/profiles.h"
#include "support/clock.h"
#include "model/registry.h"
#include "sandbox.h"
#include "api/session.h"

static int api_device(lua_State *L)
{
    const struct device_info *d = &session.device;
    lua_createtable(L, 0, 16);
    SET_STRING("backend", session.backend->name);
    SET_STRING("name", d->name);
    lua_pushfstring(L, "%d.%d", d->major, d->minor);
    lua_setfield(L, -2, "compute_capability");
    SET_INTEGER("sm_count", d->sm_count);
    SET_INTEGER("l2_bytes", d->l2_bytes);
    SET_INTEGER("memory_bytes", d->memory_bytes);
    SET_INTEGER("free_bytes", d->free_bytes);
    SET_INTEGER("bus_width_bits", d->bus_width_bits);
    SET_NUMBER("memory_clock_mhz", d->memory_clock_mhz);
    SET_NUMBER("peak_gbs", d->peak_gbs);
    SET_NUMBER("sm_clock_mhz", d->sm_clock_mhz);
    SET_INTEGER("shared_bytes_per_sm", d->shared_bytes_per_sm);
    SET_INTEGER("shared_bytes_per_block", d->shared_bytes_per_block);
    SET_INTEGER("max_threads_per_sm", d->max_threads_per_sm);
    SET_INTEGER("max_blocks_per_sm", d->max_blocks_per_sm);
    if (d->copy_gbs > 0)
        SET_NUMBER("copy_gbs", d->copy_gbs);
    SET_INTEGER("ordinal", d->ordinal);
    if (d->driver_version)
        SET_INTEGER("driver_version", d->driver_version);
    if (session.backend_notice[0])
        SET_STRING("notice", session.backend_notice);
    luaL_setmetatable(L, "warplab.device");
    return 1;
}

/* One parameter's declaration as a table for info(). */
static void push_param(lua_State *L, const struct param_decl *d)
{
    char allowed[256];
    lua_createtable(L, 0, 6);
    SET_STRING("name", d->name);
    static const char *const type_names[] = { "integer", "string", "block shape", "number" };
    SET_STRING("type", type_names[d->type]);
    if (d->type == PARAM_CHOICE)
        SET_STRING("default", d->choices[d->fallback]);
    else if (d->type == PARAM_SHAPE)
        push_shape(L, d->fallback), lua_setfield(L, -2, "default");
    else if (d->type == PARAM_FLOAT)
        SET_NUMBER("default", PARAM_FLOAT_VALUE(d->fallback));
    else
        SET_INTEGER("default", d->fallback);
    param_describe(d, allowed, sizeof allowed);
    SET_STRING("allowed", allowed);
    if (d->type == PARAM_CHOICE || d->only) {   /* choices: the allowed values as a list, to iterate */
        lua_newtable(L);
        for (int i = 0; d->type == PARAM_CHOICE ? d->choices[i] != NULL : i < d->only_count; i++) {
            if (d->type == PARAM_CHOICE)
                lua_pushstring(L, d->choices[i]);
            else
                lua_pushinteger(L, d->only[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "choices");
    }
    if (d->type == PARAM_INT && !d->only) {
        SET_INTEGER("min", d->min);
        SET_INTEGER("max", d->max);
    }
    if (d->type == PARAM_FLOAT) {
        SET_NUMBER("min", d->low);
        SET_NUMBER("max", d->high);
    }
    SET_STRING("doc", d->doc);
    SET_STRING("doc_zh", d->doc_zh ? d->doc_zh : d->doc);
}

int api_add_family(lua_State *L, const struct family *f, char *why, size_t why_size)
{
    if (registry_add(f, why, why_size))
        return -1;
    lua_getfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);   /* on L, which may be a coroutine, not the session's own state */
    lua_getfield(L, -1, "families_changed");
    lua_remove(L, -2);
    lua_call(L, 0, 0);
    return 0;
}

/* core.families(): every family's declaration as plain tables, in registry order. */
static int core_families(lua_State *L)
{
    lua_createtable(L, family_count, 0);
    for (int i = 0; i < family_count; i++) {
        const struct family *f = families[i];
        lua_createtable(L, 0, 6);
        SET_STRING("name", f->name);
        SET_STRING("summary", f->summary);
        SET_STRING("teaches", f->teaches);
        SET_STRING("summary_zh", f->summary_zh ? f->summary_zh : f->summary);
        SET_STRING("teaches_zh", f->teaches_zh ? f->teaches_zh : f->teaches);
        SET_STRING("source", f->source);
        lua_createtable(L, f->param_count, 0);
        for (int k = 0; k < f->param_count; k++) {
            push_param(L, &f->params[k]);
            lua_rawseti(L, -2, k + 1);
        }
        lua_setfield(L, -2, "params");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* core.warp(kernel, params, warp): one warp's memory instructions, each
   {kind=, buffer=, bytes=, lanes={[lane+1] = byte offset in the buffer}},
   for the warp maps that show() draws. */
static int core_warp(lua_State *L)
{
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    struct warp_access acc[MAX_WARP_ACCESSES];
    uint64_t base[MAX_BUFFERS];
    check_params(L, 2, 2, f, &p, &o);
    struct launch_shape shape = f->shape(&p);   /* ceil(block / 32) warps a block, as the emulator counts them */
    long long warps = shape.threads / shape.block * ((shape.block + WARP_SIZE - 1) / WARP_SIZE);
    lua_Integer warp = luaL_optinteger(L, 3, 0);
    char why[512];
    luaL_argcheck(L, warp >= 0 && warp < warps, 3,
                  lua_pushfstring(L, SAY("warp must be from 0 to %I", "warp 必须在 0 到 %I 之间"), (lua_Integer)(warps - 1)));
    model_buffer_bases(f->buffer_count, base);
    /* a kernel declared in Lua: the emulator runs the warp's block */
    int count = f->warp_accesses ? f->warp_accesses(&p, base, warp, acc) : emulate_warp(f, &p, &session.device, warp, acc, why, sizeof why);
    if (count < 0)   /* one line, not a place in the prelude */
        return luaL_error(L, SAY("the emulator cannot draw warp %I of '%s': %s", "模拟器无法画出 warp %I（'%s'）：%s"),
                          warp, f->name, why);
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        warp_access_expand(&acc[i]);
        lua_createtable(L, 0, 4);
        static const char *const kinds[] = { "load", "store", "shared load", "shared store", "constant load",
                                             "atomic", "reduction", "shared atomic", "ldgsts" };
        int shared = acc[i].kind == ACCESS_SHARED_LOAD || acc[i].kind == ACCESS_SHARED_STORE ||
                     acc[i].kind == ACCESS_CONSTANT_LOAD || acc[i].kind == ACCESS_SHARED_ATOMIC;
        SET_STRING("kind", kinds[acc[i].kind]);
        if (shared)
            SET_INTEGER("wavefronts", shared_wavefronts(&acc[i]));
        SET_INTEGER("bytes", acc[i].bytes);
        lua_createtable(L, WARP_SIZE, 0);
        for (int lane = 0; lane < WARP_SIZE; lane++) {
            if (!(acc[i].active >> lane & 1))
                continue;
            int buffer = shared ? -1 : (int)(acc[i].addr[lane] >> 40) - 1;
            lua_pushinteger(L, (lua_Integer)(acc[i].addr[lane] - (shared ? 0 : base[buffer])));
            lua_rawseti(L, -2, lane + 1);
            if (!lua_getfield(L, -2, "buffer")) {
                lua_pushstring(L, !shared ? f->buffers[buffer].name
                                  : acc[i].kind == ACCESS_CONSTANT_LOAD ? "constant" : "shared");
                lua_setfield(L, -4, "buffer");
            }
            lua_pop(L, 1);
        }
        lua_setfield(L, -2, "lanes");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* print() through the one writer. */
static int api_print(lua_State *L)
{
    int count = lua_gettop(L);
    for (int i = 1; i <= count; i++) {
        size_t length;
        const char *text = luaL_tolstring(L, i, &length);
        if (i > 1)
            out_write("\t", 1);
        out_write(text, length);
        lua_pop(L, 1);
    }
    out_write("\n", 1);
    return 0;
}

/* core.write(text): output without a newline. */
static int core_write(lua_State *L)
{
    size_t length;
    const char *text = luaL_checklstring(L, 1, &length);
    out_write(text, length);
    return 0;
}

/* core.capture(true): from now on the one writer keeps what it gets instead
   of showing it; core.capture(false) stops and returns it (for tests). */
static int core_capture(lua_State *L)
{
    size_t length;
    if (lua_toboolean(L, 1)) {
        out_capture_start();
        return 0;
    }
    const char *text = out_capture_stop(&length);
    lua_pushlstring(L, text, length);
    return 1;
}

/* core.format(): "table", "csv" or "json" (--format). */
static int core_format(lua_State *L)
{
    lua_pushstring(L, out_format());
    return 1;
}

/* core.profiles(): the names of the device profiles, in docs/model.md's order. */
static int core_profiles(lua_State *L)
{
    lua_createtable(L, device_profile_count, 0);
    for (int i = 0; i < device_profile_count; i++) {
        lua_pushstring(L, device_profiles[i].key);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* core.lang([lang]): "en" or "zh"; with lang, the session speaks it from now
   on (for tests of both languages in one run) and the one before is returned. */
static int core_lang(lua_State *L)
{
    static const char *const languages[] = { "en", "zh", NULL };
    lua_pushstring(L, text_language[0] ? text_language : "en");
    if (!lua_isnoneornil(L, 1))
        snprintf(text_language, sizeof text_language, "%s", languages[luaL_checkoption(L, 1, NULL, languages)]);
    return 1;
}

/* core.colour(): whether output may be coloured. */
static int core_colour(lua_State *L)
{
    lua_pushboolean(L, out_use_colour());
    return 1;
}

/* core.fancy(): whether output may use Unicode blocks. */
static int core_fancy(lua_State *L)
{
    lua_pushboolean(L, out_is_fancy());
    return 1;
}

/* measure_copy(): measures the copy ceiling again (and caches it); returns GB/s. */
static int api_measure_copy(lua_State *L)
{
    char error[512];
    if (!session.backend->measures)
        return luaL_error(L, SAY("measure_copy needs a GPU: the %s backend has nothing to measure", "measure_copy 需要 GPU：%s 后端没有可测量的设备"),
                          session.backend->name);
    if (session.backend->measure_copy(&session.device, error, sizeof error) != 0)
        return luaL_error(L, SAY("measure_copy failed: %s", "measure_copy 失败：%s"), error);
    lua_pushnumber(L, session.device.copy_gbs);
    return 1;
}

/* The counter or derived term named `name`, or NULL. */
static const struct counter_decl *find_term(const char *name)
{
    for (int i = 0; i < COUNTER_COUNT; i++)
        if (strcmp(counter_table[i].field, name) == 0)
            return &counter_table[i];
    for (int i = 0; i < derived_term_count; i++)
        if (strcmp(derived_terms[i].field, name) == 0)
            return &derived_terms[i];
    return NULL;
}

/* The derived terms, then the counters. */
static const char *term_name(const void *list, int i)
{
    return i < derived_term_count ? derived_terms[i].field : counter_table[i - derived_term_count].field;
}

static void add_term_names(luaL_Buffer *b)
{
    char names[1024];
    luaL_addstring(b, join_names(names, sizeof names, derived_term_count + COUNTER_COUNT, term_name, NULL));
}

/* Prints the string on top of the stack wrapped to the terminal (core.util.wrap). */
static int print_wrapped(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);
    lua_getfield(L, -1, "util");
    lua_getfield(L, -1, "wrap");
    lua_pushvalue(L, -4);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK)   /* no wrap to be had: as it is */
        lua_pushvalue(L, -4);
    out_printf("%s\n", lua_tostring(L, -1));
    return 0;
}

/* explain(term): what a counter or derived number means, and its Nsight Compute metric. */
static int api_explain(lua_State *L)
{
    luaL_Buffer b;
    lua_settop(L, 1);   /* what follows the term is not part of the text built on the stack */
    const char *name = luaL_optstring(L, 1, NULL);
    const struct counter_decl *term = name && !has_nul(L, 1) ? find_term(name) : NULL;
    if (term) {
        lua_pushfstring(L, SAY("%s: %s\n  Nsight Compute: %s", "%s：%s\n  Nsight Compute：%s"), term->field,
                        SAY(term->meaning, term->meaning_zh), term->metric_zh ? SAY(term->metric, term->metric_zh) : term->metric);
        if (term->other_metric)
            lua_pushfstring(L, SAY("\n  on the GB202 to GB207 chips (the RTX 50 series): %s", "\n  GB202 至 GB207 芯片上：%s"),
                            term->other_metric);
        lua_concat(L, lua_gettop(L) - 1);
        return print_wrapped(L);
    }
    luaL_buffinit(L, &b);
    if (name) {
        lua_pushfstring(L, SAY("unknown term %s (terms: ", "未知术语 %s（术语："), push_quoted(L, 1, '\''));
        lua_remove(L, -2);
        luaL_addvalue(&b);
        add_term_names(&b);
        luaL_addstring(&b, SAY(")", "）"));
        luaL_pushresult(&b);
        return luaL_argerror(L, 1, lua_tostring(L, -1));
    }
    luaL_addstring(&b, SAY("explain(term) knows: ", "explain(term) 能解释："));
    add_term_names(&b);
    luaL_pushresult(&b);
    print_wrapped(L);
    return 0;
}

/* alloc_alignment(count, bytes): the addresses of count allocations and the
   largest power of two each is aligned to (cudaMalloc promises 256). */
static int api_alloc_alignment(lua_State *L)
{
    lua_Integer count = luaL_checkinteger(L, 1), bytes = luaL_optinteger(L, 2, 1);
    uint64_t addresses[MAX_ALLOCATIONS];
    char error[512];
    luaL_argcheck(L, count >= 1 && count <= MAX_ALLOCATIONS, 1, SAY("count must be from 1 to 256", "count 必须在 1 到 256 之间"));
    luaL_argcheck(L, bytes >= 1 && (uint64_t)bytes <= session.device.memory_bytes / 2, 2,
                  SAY("bytes must be at least 1 and at most half the device memory", "bytes 必须至少为 1，且不超过显存的一半"));
    if (session.backend->allocate((int)count, (size_t)bytes, addresses, error, sizeof error) != 0)
        return luaL_error(L, SAY("alloc_alignment failed: %s", "alloc_alignment 失败：%s"), error);
    lua_createtable(L, (int)count, 1);
    for (int i = 0; i < count; i++) {
        lua_createtable(L, 0, 2);
        lua_pushfstring(L, "%p", (void *)(uintptr_t)addresses[i]);
        lua_setfield(L, -2, "address");
        SET_INTEGER("alignment", addresses[i] & (~addresses[i] + 1));
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushboolean(L, !session.backend->measures);
    lua_setfield(L, -2, "modelled");
    luaL_setmetatable(L, "warplab.allocations");
    return 1;
}

static const luaL_Reg globals[] = {
    { "alloc_alignment", api_alloc_alignment },
    { "explain", api_explain },
    { "measure_copy", api_measure_copy },
    { "device", api_device },
    { "print", api_print },
    { NULL, NULL },
};

/* core.explain_terms(): the terms explain() knows, in its order, for completion. */
static int core_explain_terms(lua_State *L)
{
    lua_createtable(L, derived_term_count + COUNTER_COUNT, 0);
    for (int i = 0; i < derived_term_count + COUNTER_COUNT; i++) {
        lua_pushstring(L, term_name(NULL, i));
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* core.now_ms(): the shell's monotonic clock, for benchmarks written in Lua. */
static int core_now_ms(lua_State *L)
{
    lua_pushnumber(L, monotonic_ms());
    return 1;
}

/* core.format_bytes(n): 536870912 -> "536.9 MB", as every message writes bytes. */
static int core_format_bytes(lua_State *L)
{
    char text[32];
    lua_pushstring(L, format_bytes(luaL_checknumber(L, 1), text, sizeof text));
    return 1;
}

static const luaL_Reg core_functions[] = {
    { "format_bytes", core_format_bytes },
    { "now_ms", core_now_ms },
    { "explain_terms", core_explain_terms },
    { "families", core_families },
    { "warp", core_warp },
    { "write", core_write },
    { "capture", core_capture },
    { "fancy", core_fancy },
    { "colour", core_colour },
    { "lang", core_lang },
    { "format", core_format },
    { "profiles", core_profiles },
    { NULL, NULL },
};

void api_open(lua_State *L)
{
    luaL_newlib(L, core_functions);
    lua_newtable(L);   /* core.globals: what lua/globals.lua makes the students' globals */
    luaL_setfuncs(L, globals, 0);
    luaL_setfuncs(L, argument_globals, 0);
    luaL_setfuncs(L, launch_globals, 0);
    lua_setfield(L, -2, "globals");
    luaL_setfuncs(L, argument_core, 0);
    luaL_setfuncs(L, launch_core, 0);
    luaL_setfuncs(L, compile_core, 0);
    luaL_setfuncs(L, disassemble_core, 0);
    luaL_setfuncs(L, emulate_core, 0);
    luaL_setfuncs(L, declare_kernel_core, 0);
    labs_open(L);
    sandbox_open(L);
    files_open(L);
    interrupt_open(L);
    SET_STRING("version", PACKAGE_VERSION);
#if defined(HAVE_CUDA) && defined(HAVE_CUPTI_RANGE_PROFILER)
    lua_pushboolean(L, 1);
#else   /* no GPU backend, or one built without the Range Profiler (--disable-counters) */
    lua_pushboolean(L, 0);
#endif
    lua_setfield(L, -2, "counters_built");
    lua_pushboolean(L, compile_memory_limited);
    lua_setfield(L, -2, "compile_memory_limited");
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);
    luaL_newmetatable(L, RESULT_METATABLE);
    lua_setfield(L, -2, "Result");
    luaL_newmetatable(L, "warplab.device");
    lua_setfield(L, -2, "Device");
    luaL_newmetatable(L, "warplab.allocations");
    lua_setfield(L, -2, "Allocations");
}
