/*
** emulate_core.c — the emulator in Lua: core.emulate(ptx, kernel, launch), a
** kernel's PTX run over buffers of its own (the tests', and the corpus');
** core.emulate_family, a family's own kernel as the model runs it
** (emulate.c); and core.family_device, what the emulator compiles for it.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "api/arguments.h"
#include "backend/emulate.h"
#include "compile/device_compile.h"
#include "api/emulate_core.h"
#include "backend/host_parts.h"
#include "interrupt.h"
#include "model/model.h"
#include "model/registry.h"
#include "emulator/ptx.h"
#include "emulator/sass_run.h"
#include "api/session.h"
#include "support/text.h"

enum { MAX_EMULATED_BUFFERS = 8, MAX_ARGS = 32 };

/* A dimension list {x [, y [, z]]} at field name of the table at idx. */
static void read_dims(lua_State *L, int idx, const char *name, unsigned *dims)
{
    dims[0] = dims[1] = dims[2] = 1;
    lua_getfield(L, idx, name);
    luaL_argcheck(L, lua_istable(L, -1), 3, lua_pushfstring(L, "%s = {x [, y [, z]]} expected", name));
    for (int i = 0; i < 3; i++) {
        if (lua_rawgeti(L, -1, i + 1) != LUA_TNIL) {
            lua_Integer v = luaL_checkinteger(L, -1);
            luaL_argcheck(L, v >= 1 && v <= (1 << 30), 3, lua_pushfstring(L, "%s[%d] must be from 1 to 2^30", name, i + 1));
            dims[i] = (unsigned)v;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* buffers = {{bytes = N [, fill = "zero" | "random" | STRING]}, ...}, at the
   model's addresses; their memory is userdata kept in the table at anchor. */
static int read_buffers(lua_State *L, int options, int anchor, struct ptx_buffer *buffers)
{
    uint64_t base[MAX_EMULATED_BUFFERS];
    lua_getfield(L, options, "buffers");
    int list = lua_gettop(L), count = lua_istable(L, list) ? (int)lua_rawlen(L, list) : 0;
    luaL_argcheck(L, count <= MAX_EMULATED_BUFFERS, 3, "at most 8 buffers");
    model_buffer_bases(count, base);
    for (int i = 0; i < count; i++) {
        lua_rawgeti(L, list, i + 1);
        int item = lua_gettop(L);
        luaL_argcheck(L, lua_istable(L, item), 3, "each buffer is {bytes = N [, fill = ...]}");
        lua_getfield(L, item, "bytes");
        lua_Integer bytes = luaL_checkinteger(L, -1);
        luaL_argcheck(L, bytes >= 1 && bytes <= (1ll << 32), 3, "a buffer's bytes must be from 1 to 2^32");
        lua_pop(L, 1);
        unsigned char *data = lua_newuserdatauv(L, (size_t)bytes, 0);
        lua_rawseti(L, anchor, i + 1);
        buffers[i] = (struct ptx_buffer){ base[i], data, (size_t)bytes, NULL };
        lua_getfield(L, item, "fill");
        size_t length = 0;
        const char *fill = lua_tolstring(L, -1, &length);
        memset(data, 0, (size_t)bytes);
        if (fill && strcmp(fill, "random") == 0) {
            random_floats_in_parts(data, (size_t)bytes, 0x12345678u + (uint32_t)i);
        } else if (fill && strcmp(fill, "zero") != 0) {
            memcpy(data, fill, length < (size_t)bytes ? length : (size_t)bytes);
        }
        lua_pop(L, 2);   /* fill, item */
    }
    lua_pop(L, 1);
    return count;
}

static void push_counts(lua_State *L, const struct model_counts *c)
{
    const struct { const char *name; const struct traffic *t; } traffic[] = { { "load", &c->load }, { "store", &c->store } };
    const struct { const char *name; const struct shared_traffic *t; } shared[] = { { "shared_load", &c->shared_load },
                                                                                   { "shared_store", &c->shared_store } };
    for (int i = 0; i < 2; i++) {
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, (lua_Integer)traffic[i].t->requests), lua_setfield(L, -2, "requests");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->sectors), lua_setfield(L, -2, "sectors");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->lines), lua_setfield(L, -2, "lines");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->bytes), lua_setfield(L, -2, "bytes");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->ideal_sectors), lua_setfield(L, -2, "ideal_sectors");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->l2_sectors), lua_setfield(L, -2, "l2_sectors");
        lua_setfield(L, -2, traffic[i].name);
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, (lua_Integer)shared[i].t->requests), lua_setfield(L, -2, "requests");
        lua_pushinteger(L, (lua_Integer)shared[i].t->wavefronts), lua_setfield(L, -2, "wavefronts");
        lua_pushinteger(L, (lua_Integer)shared[i].t->ideal_wavefronts), lua_setfield(L, -2, "ideal_wavefronts");
        lua_setfield(L, -2, shared[i].name);
    }
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)c->constant.requests), lua_setfield(L, -2, "requests");
    lua_pushinteger(L, (lua_Integer)c->constant.passes), lua_setfield(L, -2, "passes");
    lua_setfield(L, -2, "constant");
    const struct { const char *name; const struct atomic_traffic *t; } atomics[] = {
        { "atomic", &c->atomic }, { "reduction", &c->reduction }, { "shared_atomic", &c->shared_atomic } };
    for (int i = 0; i < COUNT_OF(atomics); i++) {
        lua_createtable(L, 0, 6);
        lua_pushinteger(L, (lua_Integer)atomics[i].t->requests), lua_setfield(L, -2, "requests");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->sectors), lua_setfield(L, -2, "sectors");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->operations), lua_setfield(L, -2, "operations");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->same_address_lanes), lua_setfield(L, -2, "same_address_lanes");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->hottest_operations), lua_setfield(L, -2, "hottest_operations");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->addresses), lua_setfield(L, -2, "addresses");
        lua_setfield(L, -2, atomics[i].name);
    }
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)c->ldgsts.requests), lua_setfield(L, -2, "requests");
    lua_pushinteger(L, (lua_Integer)c->ldgsts.sectors), lua_setfield(L, -2, "sectors");
    lua_setfield(L, -2, "ldgsts");
    lua_pushinteger(L, (lua_Integer)c->instructions), lua_setfield(L, -2, "instructions");
}

/* printf's output into the table on top: printf (the text, when there is
   any) and printf_not_shown (the lines left out); the text is freed. */
static void push_printed(lua_State *L, struct ptx_printed *printed)
{
    if (printed->text && printed->text[0]) {
        lua_pushstring(L, printed->text);
        lua_setfield(L, -2, "printf");
    }
    lua_pushinteger(L, (lua_Integer)printed->lines_not_shown);
    lua_setfield(L, -2, "printf_not_shown");
    free(printed->text);
    printed->text = NULL;
}

/* The launch either engine runs, from the table at index 3: its kernel, shape
   and budget, each access counted into counting. */
static void read_launch(lua_State *L, const char *kernel, struct ptx_launch *launch, struct ptx_buffer *buffers,
                        uint64_t *args, struct emulation_counting *counting)
{
    *launch = (struct ptx_launch){ .kernel = kernel, .args = args, .buffers = buffers, .on_access = emulation_count,
                                   .user = counting, .interrupted = &interrupt_requested };
    read_dims(L, 3, "grid", launch->grid);
    read_dims(L, 3, "block", launch->block);
    emulation_set_budget(launch);
}

/* What a run gives back, into the table on top: its counts, lane_instructions and buffers (their contents). */
static void push_run(lua_State *L, const struct model_counts *counts, uint64_t lane_instructions, const struct ptx_launch *launch)
{
    push_counts(L, counts);
    lua_pushinteger(L, (lua_Integer)lane_instructions);
    lua_setfield(L, -2, "lane_instructions");
    lua_createtable(L, launch->buffer_count, 0);
    for (int i = 0; i < launch->buffer_count; i++) {
        lua_pushlstring(L, launch->buffers[i].data, launch->buffers[i].bytes);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "buffers");
}

/* core.emulate(ptx, kernel, {grid=, block=, buffers=, args= [, shared=, printf_lines=]}): the kernel run
   on the emulator: {load=, store=, shared_load=, shared_store=, instructions= (warp-instructions), lane_instructions=,
   buffers = {contents...}, printf = what its printf printed (the first printf_lines lines, 64 unless told), printf_not_shown}. args: integers, floats, or {buffer = i} for buffer i's address. */
static int core_emulate(lua_State *L)
{
    char why[512];
    const char *text = luaL_checkstring(L, 1), *kernel = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    struct ptx_buffer buffers[MAX_EMULATED_BUFFERS];
    uint64_t args[MAX_ARGS];
    struct emulation_counting counting = { 0 };
    struct ptx_launch launch;
    read_launch(L, kernel, &launch, buffers, args, &counting);
    lua_getfield(L, 3, "shared");   /* extern __shared__ bytes, as <<<grid, block, shared>>> */
    lua_Integer shared = luaL_optinteger(L, -1, 0);
    luaL_argcheck(L, shared >= 0 && shared <= (1 << 20), 3, "shared must be from 0 to 2^20 bytes");
    launch.dynamic_shared_bytes = (unsigned)shared;
    lua_pop(L, 1);
    struct ptx_printed printed;
    lua_getfield(L, 3, "printf_lines");
    launch.printed_lines = (int)luaL_optinteger(L, -1, PRINTF_LINES_SHOWN);
    launch.printed = &printed;
    lua_pop(L, 1);
    lua_newtable(L);   /* the buffers' memory, kept alive until the results are pushed */
    launch.buffer_count = read_buffers(L, 3, lua_gettop(L), buffers);
    struct ptx_module *m = ptx_parse(text, why, sizeof why);
    if (!m)
        return luaL_error(L, "%s", why);
    lua_getfield(L, 3, "args");
    launch.arg_count = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
    for (int i = 0; i < launch.arg_count && i < MAX_ARGS; i++) {
        int size = ptx_param_size(m, kernel, i);
        lua_rawgeti(L, -1, i + 1);
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "buffer");
            lua_Integer k = lua_tointeger(L, -1);
            args[i] = k >= 1 && k <= launch.buffer_count ? buffers[k - 1].address : 0;
            lua_pop(L, 1);
        } else if (lua_isinteger(L, -1)) {
            args[i] = (uint64_t)lua_tointeger(L, -1);
        } else {
            double d = lua_tonumber(L, -1);
            float f = (float)d;
            args[i] = 0;
            if (size == 4)
                memcpy(&args[i], &f, 4);
            else
                memcpy(&args[i], &d, 8);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    struct ptx_ran ran;
    counting.counts.l1 = l1_cache_new();
    int failed = ptx_run(m, &launch, &ran, why, sizeof why);
    l1_cache_free(counting.counts.l1);
    counting.counts.l1 = NULL;
    ptx_free(m);
    model_counts_finish(&counting.counts);   /* frees the atomics' address map, before an error can skip it */
    if (failed)
        return luaL_error(L, "%s", why);
    counting.counts.instructions = ran.issued;
    lua_createtable(L, 0, 8);
    push_printed(L, &printed);
    push_run(L, &counting.counts, ran.lane_instructions, &launch);
    return 1;
}

/* The args of a SASS launch and each one's bytes: {buffer = i} an address (8), an
   integer or float as arg_bytes says (4 unless told; a float's bits at 4). */
static void read_sass_args(lua_State *L, struct ptx_launch *launch, uint64_t *args, int *bytes)
{
    lua_getfield(L, 3, "arg_bytes");
    int sizes = lua_gettop(L);
    lua_getfield(L, 3, "args");
    launch->arg_count = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
    luaL_argcheck(L, launch->arg_count <= MAX_ARGS, 3, "at most 32 args");
    for (int i = 0; i < launch->arg_count; i++) {
        lua_rawgeti(L, sizes, i + 1);
        bytes[i] = lua_istable(L, sizes) && lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 4;
        luaL_argcheck(L, bytes[i] == 4 || bytes[i] == 8, 3, "arg_bytes are 4 or 8");
        lua_rawgeti(L, -2, i + 1);
        args[i] = 0;
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "buffer");
            lua_Integer k = lua_tointeger(L, -1);
            args[i] = k >= 1 && k <= launch->buffer_count ? launch->buffers[k - 1].address : 0;
            bytes[i] = 8;
            lua_pop(L, 1);
        } else if (lua_isinteger(L, -1)) {
            args[i] = (uint64_t)lua_tointeger(L, -1);
        } else {
            double d = lua_tonumber(L, -1);
            float f = (float)d;
            if (bytes[i] == 4)
                memcpy(&args[i], &f, 4);
            else
                memcpy(&args[i], &d, 8);
        }
        lua_pop(L, 2);
    }
    lua_pop(L, 2);
}

/* core.emulate_sass(listing, kernel, {grid=, block=, buffers=, args= [, arg_bytes=]}): the kernel's
   SASS (nvdisasm -c -g's listing) run on the SASS engine: the counts as core.emulate's, lane_instructions,
   buffers; or nil and why (an opcode it does not know, with its offset: run the PTX instead). */
static int core_emulate_sass(lua_State *L)
{
    char why[512];
    const char *text = luaL_checkstring(L, 1), *kernel = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    struct ptx_buffer buffers[MAX_EMULATED_BUFFERS];
    uint64_t args[MAX_ARGS];
    int arg_bytes[MAX_ARGS];
    struct emulation_counting counting = { 0 };
    struct ptx_launch launch;
    read_launch(L, kernel, &launch, buffers, args, &counting);
    lua_newtable(L);   /* the buffers' memory, kept alive until the results are pushed */
    launch.buffer_count = read_buffers(L, 3, lua_gettop(L), buffers);
    read_sass_args(L, &launch, args, arg_bytes);
    struct sass_program *p = sass_decode(text, kernel, why, sizeof why);
    struct sass_ran ran;
    int failed = !p;
    if (p) {
        counting.counts.l1 = l1_cache_new();
        failed = sass_run(p, &launch, arg_bytes, &ran, why, sizeof why) != 0;
        l1_cache_free(counting.counts.l1);
        counting.counts.l1 = NULL;
        sass_program_free(p);
    }
    model_counts_finish(&counting.counts);
    if (failed) {
        lua_pushnil(L);
        lua_pushstring(L, why);
        return 2;
    }
    counting.counts.instructions = ran.warp_instructions;
    lua_createtable(L, 0, 8);
    push_run(L, &counting.counts, ran.lane_instructions, &launch);
    return 1;
}

/* core.emulate_family(name, params [, {ptx = TEXT}]): emulate_family's counts
   {load=, store=, shared_load=, shared_store=}, lane_instructions, kernel
   (the mangled name), correct (and mismatch) against the CPU reference, and
   level ("sass" or "ptx", and level_why).
   ptx: the family's kernel as another compiler made it (core.family_device's source). */
static int core_emulate_family(lua_State *L)
{
    char why[2048];
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    struct emulation emulation, *e = &emulation;
    check_params(L, 2, 2, f, &p, &o);
    const char *ptx = NULL;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_getfield(L, 3, "ptx");
        ptx = luaL_checkstring(L, -1);   /* the table keeps it alive */
    }
    if (emulate_family(f, &p, &session.device, ptx, &interrupt_requested, e, why, sizeof why))
        return luaL_error(L, "%s", why);
    lua_createtable(L, 0, 10);
    push_printed(L, &e->printed);
    push_counts(L, &e->counts);
    lua_pushinteger(L, (lua_Integer)e->ran.lane_instructions);
    lua_setfield(L, -2, "lane_instructions");
    lua_pushstring(L, e->kernel);
    lua_setfield(L, -2, "kernel");
    lua_pushboolean(L, e->correct);
    lua_setfield(L, -2, "correct");
    if (!e->correct) {
        lua_pushstring(L, e->mismatch);
        lua_setfield(L, -2, "mismatch");
    }
    lua_pushstring(L, e->level);
    lua_setfield(L, -2, "level");
    if (e->level_why[0]) {
        lua_pushstring(L, e->level_why);
        lua_setfield(L, -2, "level_why");
    }
    return 1;
}

/* core.family_device(name, params): what the emulator compiles for the launch:
   {source = the .cu, headers = {NAME = text}, kernel = "copy<float4>", arch = "sm_75",
   defines = {"WARPLAB_DEVICE_ONLY"}}, for another compiler to make the same PTX. */
static int core_family_device(lua_State *L)
{
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    struct kernel_call call;
    check_params(L, 2, 2, f, &p, &o);
    if (!f->kernel_call)
        return luaL_error(L, SAY("'%s' does not tell the emulator its kernel yet", "'%s' 还没有告诉模拟器它的核函数"), f->name);
    f->kernel_call(&p, &call);
    lua_createtable(L, 0, 5);
    lua_pushstring(L, f->source);
    lua_setfield(L, -2, "source");
    const char *names[16], *texts[16];
    int header_count = device_headers_of(f->source, names, texts, 16);
    lua_createtable(L, 0, header_count);
    for (int i = 0; i < header_count; i++) {
        lua_pushstring(L, texts[i]);
        lua_setfield(L, -2, names[i]);
    }
    lua_setfield(L, -2, "headers");
    lua_pushstring(L, call.kernel);
    lua_setfield(L, -2, "kernel");
    lua_pushfstring(L, "sm_%d", emulation_compute_capability(f, &p));
    lua_setfield(L, -2, "arch");
    lua_createtable(L, 1, 0);
    lua_pushstring(L, "WARPLAB_DEVICE_ONLY");
    lua_rawseti(L, -2, 1);
    lua_setfield(L, -2, "defines");
    return 1;
}

/* The names of the kinds of access, as push_counts names their counts. */
static const char *const kind_names[ACCESS_KINDS] = {
    [ACCESS_LOAD] = "load", [ACCESS_STORE] = "store", [ACCESS_SHARED_LOAD] = "shared_load",
    [ACCESS_SHARED_STORE] = "shared_store", [ACCESS_CONSTANT_LOAD] = "constant", [ACCESS_ATOMIC] = "atomic",
    [ACCESS_REDUCTION] = "reduction", [ACCESS_SHARED_ATOMIC] = "shared_atomic", [ACCESS_LDGSTS] = "ldgsts",
};

/* The global buffer an address lies in (base: where each starts): its index, or -1. */
static int buffer_at(const struct family *f, const struct params *p, const uint64_t *base, uint64_t address)
{
    size_t bytes[MAX_BUFFERS];
    family_buffer_bytes(f, p, bytes);
    for (int i = 0; i < f->buffer_count; i++)
        if (address >= base[i] && address < base[i] + bytes[i])
            return i;
    return -1;
}

/* One access as a table: {block=, bytes=, addresses = {[lane + 1] = address or false}}
   and, for global memory, buffer (its name) and offsets (bytes into it, by lane). */
static void push_sample(lua_State *L, const struct family *f, const struct params *p, const struct warp_access *a)
{
    int global = a->kind == ACCESS_LOAD || a->kind == ACCESS_STORE || a->kind == ACCESS_ATOMIC ||
                 a->kind == ACCESS_REDUCTION || a->kind == ACCESS_LDGSTS;
    int first = a->active ? __builtin_ctz(a->active) : 0;
    uint64_t base[MAX_BUFFERS];
    model_buffer_bases(f->buffer_count, base);
    int buffer = global ? buffer_at(f, p, base, a->addr[first]) : -1;
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, a->bytes);
    lua_setfield(L, -2, "bytes");
    lua_pushinteger(L, a->block);
    lua_setfield(L, -2, "block");
    lua_createtable(L, WARP_SIZE, 0);
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        if (a->active & 1u << lane)
            lua_pushinteger(L, (lua_Integer)(buffer >= 0 ? a->addr[lane] - base[buffer] : a->addr[lane]));
        else
            lua_pushboolean(L, 0);
        lua_rawseti(L, -2, lane + 1);
    }
    lua_setfield(L, -2, buffer >= 0 ? "offsets" : "addresses");
    if (buffer >= 0) {
        lua_pushstring(L, f->buffers[buffer].name);
        lua_setfield(L, -2, "buffer");
    }
}

static void push_samples(lua_State *L, const struct family *f, const struct params *p, const struct line_counts *line)
{
    lua_createtable(L, 0, ACCESS_KINDS);
    for (int k = 0; k < ACCESS_KINDS; k++)
        if (line->sampled & 1u << k) {
            push_sample(L, f, p, &line->sample[k]);
            lua_setfield(L, -2, kind_names[k]);
        }
    lua_setfield(L, -2, "samples");
}

/* core.emulate_lines(name, params [, by_instruction]): the launch on the
   emulator, its accesses counted by source line: a list sorted by line of
   {line=, load=, store=, shared_load=, ...} as emulate_family's counts
   (line 0: no line known), and samples: of each kind, the line's costliest
   first access (push_sample); by_instruction, each of a line's
   instructions apart, sorted by instruction (instruction=, its number in
   the kernel's SASS, from 1). Then the level it ran at, and at PTX level why. */
static int core_emulate_lines(lua_State *L)
{
    char why[2048];
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    check_params(L, 2, 2, f, &p, &o);
    int by_instruction = lua_toboolean(L, 3);
    struct line_counts *lines = calloc(MOST_COUNTED_LINES, sizeof *lines);
    if (!lines)
        return luaL_error(L, "%s", SAY("out of memory", "内存不足"));
    struct emulation_level level = { "ptx", "" };
    int count = emulate_lines(f, &p, &session.device, by_instruction, lines, MOST_COUNTED_LINES, &level, why, sizeof why);
    if (count < 0) {
        free(lines);
        return luaL_error(L, "%s", why);
    }
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        lua_createtable(L, 0, 12);
        lua_pushinteger(L, lines[i].line);
        lua_setfield(L, -2, "line");
        if (lines[i].instruction) {
            lua_pushinteger(L, lines[i].instruction);
            lua_setfield(L, -2, "instruction");
        }
        push_counts(L, &lines[i].counts);
        push_samples(L, f, &p, &lines[i]);
        lua_rawseti(L, -2, i + 1);
    }
    free(lines);
    lua_pushstring(L, level.level);
    if (!*level.why)
        return 2;
    lua_pushstring(L, level.why);
    return 3;
}

/* core.family_listing(name, params): the SASS listing's text of the kernel
   the launch runs, and that kernel's name expression ("strided<2>"), or nil
   and why. */
static int core_family_listing(lua_State *L)
{
    char why[1024], kernel[128];
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    check_params(L, 2, 2, f, &p, &o);
    const char *listing = emulation_listing(f, &p, kernel, sizeof kernel, why, sizeof why);
    if (!listing) {
        lua_pushnil(L);
        lua_pushstring(L, why);
        return 2;
    }
    lua_pushstring(L, listing);
    lua_pushstring(L, kernel);
    return 2;
}

const luaL_Reg emulate_core[] = {
    { "emulate_lines", core_emulate_lines },
    { "family_listing", core_family_listing },
    { "emulate", core_emulate },
    { "emulate_sass", core_emulate_sass },
    { "emulate_family", core_emulate_family },
    { "family_device", core_family_device },
    { NULL, NULL },
};
