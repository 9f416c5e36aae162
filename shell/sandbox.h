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

/* Around the launches lab code starts (no-ops for the student's own): their
   CPU time, every thread's (the model's for every launch, on a GPU too, whose
   own waits kernel_timeout bounds), comes out of the call's launch budget;
   once it is spent, the running launch stops as at Ctrl-C
   (interrupt_requested), and sandbox_launches_check raises the budget's error. */
void sandbox_launches_begin(void);
void sandbox_launches_end(void);
void sandbox_launches_check(lua_State *L);

/* Pushes a value marked to be closed: until the calling C function returns
   or raises, the lab code it calls at the prompt (a lab's kernel's sizes,
   fills and reference, each guarded on its own) draws on one budget. */
void sandbox_share_budget(lua_State *L);

/* Around lab code that a launch runs in proportion to its size (a kernel's
   reference, checking the launch's outputs): the lab code running now, or
   the next guarded call when none runs, may take instructions more. */
void sandbox_grant_begin(long long instructions);
void sandbox_grant_end(void);

/* Around warplab's own Lua work inside a call of lab code (reading a
   kernel's machine code at its launch): its instructions, string calls and
   CPU time are not charged to the lab code. */
struct sandbox_pause {
    int paused;
    lua_Hook hook;
    int mask, count;
    double started_ms;
};
void sandbox_pause_begin(lua_State *L, struct sandbox_pause *pause);
void sandbox_pause_end(lua_State *L, const struct sandbox_pause *pause);

/* Whether bytes more of buffers would take the session past the memory cap
   that holds now (lab code's, or the shell's own, each over Lua's memory
   too); then why, in one line, naming `what`. */
int sandbox_memory_refuses(double bytes, const char *what, char *why, size_t why_size);
/* The emulator's buffers kept between launches, as they are made and freed: they count against the cap. */
void sandbox_hold_c_bytes(long long change);

#endif
