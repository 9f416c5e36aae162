/*
** api.h — the Lua functions written in C: launch() and device(), plus the
** internal `core` table the prelude builds the rest of the API on.
*/
#ifndef WARPLAB_API_H
#define WARPLAB_API_H

#include <lua.h>
#include "api/lua_keys.h"

/* Registers the globals and pushes the core table for the prelude. */
void api_open(lua_State *L);

struct family;
/* Adds a family while the shell runs (registry_add) and tells the prelude,
   so that completion, info, launch, sweep and export take it as a built-in.
   0, or -1 with why. */
int api_add_family(lua_State *L, const struct family *f, char *why, size_t why_size);

#endif
