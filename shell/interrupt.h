/*
** interrupt.h — Ctrl-C. The handler only sets a flag and a Lua hook (as
** lua.c does); Lua code stops at the hook, C loops poll the flag.
*/
#ifndef WARPLAB_INTERRUPT_H
#define WARPLAB_INTERRUPT_H

#include <pthread.h>
#include <signal.h>
#include <lua.h>

extern volatile sig_atomic_t interrupt_requested;

void interrupt_install(lua_State *L);
/* Acts as if Ctrl-C came again: the Lua code running now stops at its next instruction. */
void interrupt_raise_again(lua_State *L);
/* Forgets a pending Ctrl-C and removes the hook it set (while lab code runs,
   the sandbox's hook stays, and a pending Ctrl-C ends the lab code). */
void interrupt_clear(lua_State *L);

/* Adds core.with_deadline (a call with limits of CPU and wall time) to the core table on the stack. */
void interrupt_open(lua_State *L);

/* Starts a worker thread that receives no signal (the main thread takes
   Ctrl-C and the watchdog's alarm): the shell's one way to start a thread.
   0 on success, as pthread_create. */
int start_worker(pthread_t *thread, void *(*run)(void *), void *argument);

enum { MAX_PARTS = 16 };

/* Calls work(argument, part, parts) for every part from 0 to parts - 1 (at
   most MAX_PARTS), each on a worker thread, or on this one where none could
   start; returns when all are done. */
void run_in_parts(int parts, void (*work)(void *argument, int part, int parts), void *argument);

/* How many threads a large host job should use: the online CPUs, at most 8. */
int host_threads(void);

#endif
