/*
** result_lua.h — a launch's result, its params and a block shape as Lua
** values (result.c).
*/
#ifndef WARPLAB_RESULT_LUA_H
#define WARPLAB_RESULT_LUA_H

#include <lua.h>
#include "backend/result.h"

/* Pushes r as a result table (docs/results.md lists the fields). */
void result_push(lua_State *L, const struct result *r);
/* A launch's params as Lua sees them, {NAME = value}: choices as their names, shapes as {x, y}. */
void result_push_params(lua_State *L, const struct family *f, const struct params *p);

/* Pushes a block shape value as {x, y}. */
void push_shape(lua_State *L, long long value);

#endif
