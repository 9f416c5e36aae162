/*
** arguments.h — checking what a student passes (arguments.c), for the files
** whose functions take kernels and parameters (launch.c, api.c).
*/
#ifndef WARPLAB_ARGUMENTS_H
#define WARPLAB_ARGUMENTS_H

#include <lua.h>
#include <lauxlib.h>
#include "backend/backend.h"

/* Whether the string at idx holds a NUL byte. */
int has_nul(lua_State *L, int idx);
/* The family named by argument arg, or an argument error with the names and a "did you mean". */
const struct family *check_family(lua_State *L, int arg);
/* Reads the params table at stack index `table` (argument number arg) into p,
   and the measuring options a launch may set into o (the session's, changed):
   an argument error for any name, type or value the declaration does not allow. */
void check_params(lua_State *L, int table, int arg, const struct family *f, struct params *p,
                  struct measure_options *o);

/* What arguments.c and launch.c add to the globals and to the core table. */
extern const luaL_Reg argument_globals[], argument_core[];
extern const luaL_Reg launch_globals[], launch_core[];

/* Pushes the value at idx as an error message shows it and returns it: a
   string between two `mark`s, control characters and bytes that are not
   UTF-8 escaped, cut after QUOTED_MAX bytes ("..."); a number or boolean as
   Lua writes it; anything else by its type (a __name such as warplab.result). */
enum { QUOTED_MAX = 40 };
const char *push_quoted(lua_State *L, int idx, char mark);

#endif
