/*
** lua_keys.h — the names the Lua API keeps things under in the registry,
** and the setters of a table's fields: what every file that builds Lua
** values shares, without the rest of the API.
*/
#ifndef WARPLAB_LUA_KEYS_H
#define WARPLAB_LUA_KEYS_H

#include <lua.h>

#define RESULT_METATABLE "warplab.result"
#define MISSING_COUNTER_KEY "warplab.missing_counter"   /* registry: the last counter a lab asked for in vain */
/* Registry key of the core table, which the prelude fills with show() and friends. */
#define CORE_REGISTRY_KEY "warplab.core"
/* Registry key of the latest launch's result, for the lab runner's checks. */
#define LAST_RESULT_KEY "warplab.last_result"
/* ... and of the latest list of launches (a sweep's). */
#define LAST_RESULTS_KEY "warplab.last_results"

/* Field setters for the table on top of the stack. */
#define SET_NUMBER(field, value) (lua_pushnumber(L, (value)), lua_setfield(L, -2, field))
#define SET_INTEGER(field, value) (lua_pushinteger(L, (lua_Integer)(value)), lua_setfield(L, -2, field))
#define SET_STRING(field, value) (lua_pushstring(L, (value)), lua_setfield(L, -2, field))

#endif
