/*
** labs.h — the lab runner's functions in C: lab files found, their
** sandboxed runs and the records of their steps.
*/
#ifndef WARPLAB_LABS_H
#define WARPLAB_LABS_H

#include <lua.h>

/* Adds the lab runner's functions to the core table on top of the stack. */
void labs_open(lua_State *L);

#endif
