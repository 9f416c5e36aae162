/*
** interrupt.h — Ctrl-C. The handler only sets a flag and a Lua hook (as
** lua.c does); Lua code stops at the hook, C loops poll the flag.
*/
#ifndef WARPLAB_INTERRUPT_H
#define WARPLAB_INTERRUPT_H

#include <lua.h>
#include "support/threads.h"   /* interrupt_requested, which the handler sets */

void interrupt_install(lua_State *L);
/* Acts as if Ctrl-C came again: the Lua code running now stops at its next instruction. */
void interrupt_raise_again(lua_State *L);
/* Forgets a pending Ctrl-C and removes the hook it set (while lab code runs,
   the sandbox's hook stays, and a pending Ctrl-C ends the lab code). */
void interrupt_clear(lua_State *L);

/* What Ctrl-C does to lab code, which the sandbox (above this file) tells
   it: whether lab code runs now, and how to end it so that it cannot catch
   the stop. Without one, no lab code ever runs (the compile child, the GPU
   process). */
struct interrupt_guard {
    int (*active)(void);
    void (*trip)(lua_State *L, const char *message);
};
void interrupt_set_guard(const struct interrupt_guard *guard);

/* Adds core.with_deadline (a call with limits of CPU and wall time) to the core table on the stack. */
void interrupt_open(lua_State *L);

#endif
