/*
** api.h — the Lua functions written in C: launch() and device(), plus the
** internal `core` table the prelude builds the rest of the API on.
*/
#ifndef WARPLAB_API_H
#define WARPLAB_API_H

#include <lua.h>
#include <lauxlib.h>

#define RESULT_METATABLE "warplab.result"
#define MISSING_COUNTER_KEY "warplab.missing_counter"   /* registry: the last counter a lab asked for in vain */
/* Registry key of the core table, which the prelude fills with show() and friends. */
#define CORE_REGISTRY_KEY "warplab.core"

/* Field setters for the table on top of the stack. */
#define SET_NUMBER(field, value) (lua_pushnumber(L, (value)), lua_setfield(L, -2, field))
#define SET_INTEGER(field, value) (lua_pushinteger(L, (lua_Integer)(value)), lua_setfield(L, -2, field))
#define SET_STRING(field, value) (lua_pushstring(L, (value)), lua_setfield(L, -2, field))

/* Pushes the value at idx as an error message shows it and returns it: a
   string between two `mark`s, control characters and bytes that are not
   UTF-8 escaped, cut after QUOTED_MAX bytes ("..."); a number or boolean as
   Lua writes it; anything else by its type (a __name such as warplab.result). */
enum { QUOTED_MAX = 40 };
const char *push_quoted(lua_State *L, int idx, char mark);

/* Pushes a block shape value as {x, y}. */
void push_shape(lua_State *L, long long value);

/* Registry key of the latest launch's result, for the lab runner's checks. */
#define LAST_RESULT_KEY "warplab.last_result"
/* ... and of the latest list of launches (a sweep's). */
#define LAST_RESULTS_KEY "warplab.last_results"

/* Adds the lab runner's functions to the core table on top of the stack. */
void labs_open(lua_State *L);

/* Registers the globals and pushes the core table for the prelude. */
void api_open(lua_State *L);

/* What nvrtc.c adds to the core table: nvrtc, hash, cache_path (for lua/compile.lua). */
extern const luaL_Reg compile_core[];
/* What emulate.c adds: emulate (a kernel's PTX on the emulator). */
extern const luaL_Reg emulate_core[];
/* What user_kernel.c adds: declare_kernel (for lua/kernel.lua's kernel{}). */
extern const luaL_Reg user_kernel_core[];

struct family;
/* Adds a family while the shell runs (registry_add) and tells the prelude,
   so that completion, info, launch, sweep and export take it as a built-in.
   0, or -1 with why. */
int api_add_family(lua_State *L, const struct family *f, char *why, size_t why_size);

#endif
