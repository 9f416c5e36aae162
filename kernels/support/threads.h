/*
** threads.h — the work a launch splits across host threads, and the flag
** that stops it. The shell's Ctrl-C handler sets the flag (shell/interrupt.c);
** the model's and the emulator's loops poll it.
*/
#ifndef WARPLAB_THREADS_H
#define WARPLAB_THREADS_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>

/* Set when Ctrl-C asked the work running now to stop. */
extern volatile sig_atomic_t interrupt_requested;

/* Starts a worker thread that receives no signal (the main thread takes
   Ctrl-C and the watchdog's alarm): the one way warplab starts a thread.
   0 on success, as pthread_create. */
int start_worker(pthread_t *thread, void *(*run)(void *), void *argument);

enum { MAX_PARTS = 16 };

/* Calls work(argument, part, parts) for every part from 0 to parts - 1 (at
   most MAX_PARTS), each on a worker thread, or on this one where none could
   start; returns when all are done. */
void run_in_parts(int parts, void (*work)(void *argument, int part, int parts), void *argument);

/* How many threads a large host job should use: the online CPUs, at most 8. */
int host_threads(void);

/* Threads for host work over this many bytes: one per 16 MB, up to host_threads(). */
int threads_for_bytes(size_t bytes);

#endif
