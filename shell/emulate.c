/*
** emulate.c — core.emulate(ptx, kernel, launch): a kernel's PTX run on the
** emulator (kernels/ptx.c) over buffers of its own, counted by the model's
** one accounting. For the tests and, next, for kernels students write.
*/
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "api.h"
#include "interrupt.h"
#include "model.h"
#include "ptx.h"
#include "session.h"

enum { MAX_EMULATED_BUFFERS = 8, MAX_ARGS = 32 };

struct counting {
    struct model_counts counts;
};

static void count(void *user, const struct warp_access *a)
{
    model_count_access(&((struct counting *)user)->counts, NULL, a);
}

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
        buffers[i] = (struct ptx_buffer){ base[i], data, (size_t)bytes };
        lua_getfield(L, item, "fill");
        size_t length = 0;
        const char *fill = lua_tolstring(L, -1, &length);
        memset(data, 0, (size_t)bytes);
        if (fill && strcmp(fill, "random") == 0) {
            uint32_t state = 0x12345678u + (uint32_t)i;
            for (lua_Integer k = 0; k + 4 <= bytes; k += 4) {
                state = state * 1664525u + 1013904223u;
                float value = (float)(state >> 8) / (float)(1u << 24);
                memcpy(data + k, &value, 4);
            }
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
        lua_setfield(L, -2, traffic[i].name);
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, (lua_Integer)shared[i].t->requests), lua_setfield(L, -2, "requests");
        lua_pushinteger(L, (lua_Integer)shared[i].t->wavefronts), lua_setfield(L, -2, "wavefronts");
        lua_setfield(L, -2, shared[i].name);
    }
}

/* core.emulate(ptx, kernel, {grid=, block=, buffers=, args=}): the kernel run
   on the emulator: {load=, store=, shared_load=, shared_store=, lane_instructions=,
   buffers = {contents...}}. args: integers, floats, or {buffer = i} for buffer i's address. */
static int core_emulate(lua_State *L)
{
    char why[512];
    const char *text = luaL_checkstring(L, 1), *kernel = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    struct ptx_buffer buffers[MAX_EMULATED_BUFFERS];
    uint64_t args[MAX_ARGS];
    struct counting counting = { 0 };
    struct ptx_launch launch = { .kernel = kernel, .args = args, .buffers = buffers, .on_access = count, .user = &counting,
                                 .instruction_budget = 1ull << 34, .interrupted = (volatile int *)&interrupt_requested };
    read_dims(L, 3, "grid", launch.grid);
    read_dims(L, 3, "block", launch.block);
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
    uint64_t ran;
    int failed = ptx_run(m, &launch, &ran, why, sizeof why);
    ptx_free(m);
    if (failed)
        return luaL_error(L, "%s", why);
    lua_createtable(L, 0, 6);
    push_counts(L, &counting.counts);
    lua_pushinteger(L, (lua_Integer)ran);
    lua_setfield(L, -2, "lane_instructions");
    lua_createtable(L, launch.buffer_count, 0);
    for (int i = 0; i < launch.buffer_count; i++) {
        lua_pushlstring(L, buffers[i].data, buffers[i].bytes);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "buffers");
    return 1;
}

const luaL_Reg emulate_core[] = {
    { "emulate", core_emulate },
    { NULL, NULL },
};
