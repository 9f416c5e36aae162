/*
** sandbox.h — what lab code runs under: an instruction budget that also
** counts the slow work of standard functions, a memory cap, and a Ctrl-C
** that lab code cannot catch (Redis's script_lua.c guards its scripts so).
*/
#ifndef WARPLAB_SANDBOX_H
#define WARPLAB_SANDBOX_H

#include <lua.h>

/* The allocator every session's Lua state uses: it counts bytes, and refuses
   what would take lab code past its memory cap. */
void *sandbox_alloc(void *ud, void *ptr, size_t old_size, size_t new_size);

/* Adds sandbox_call and friends to the core table on top of the stack. */
void sandbox_open(lua_State *L);

/* Whether lab code is running now (Ctrl-C then ends it for good). */
int sandbox_active(void);
/* Time spent in launches while lab code runs: not charged to its budget. */
void sandbox_exclude(double ms);
/* The clock the budget reads and sandbox_exclude takes: this thread's CPU time, in ms. */
double sandbox_clock_ms(void);
/* Ends the running lab code: every later instruction of it raises `message`. */
void sandbox_trip(lua_State *L, const char *message);

#endif
