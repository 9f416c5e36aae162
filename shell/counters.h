/*
** counters.h — hardware counters through CUPTI's Range Profiler. CUPTI is
** loaded at run time, so warplab starts (and runs launches) without it;
** every way counters can be missing becomes a one-line reason, never an error.
*/
#ifndef WARPLAB_COUNTERS_H
#define WARPLAB_COUNTERS_H

#include <stddef.h>
#include "counter_table.h"

enum { MAX_PROFILED_RANGES = 256 };

struct counter_values {
    double value[COUNTER_COUNT];
};

/* Puts the kernels of profiled item `index` on the stream (ranges_per_item of them). */
typedef int (*enqueue_fn)(int index, void *user);

/* Sets the profiler up for the current CUDA context, once per session (the
   config image is built once and reused). 0, or -1 with the reason in why. */
int counters_open(int ordinal, char *why, size_t why_size);

/* Profiles `items` items in one profiling session (one range per kernel):
   enqueue(i) launches ranges_per_item kernels, and the last one of each is
   the one measured into values[i]; under user replay (the default) enqueue
   runs once per pass. 0, or -1 with the reason. */
int counters_profile(int items, int ranges_per_item, enqueue_fn enqueue, void *user,
                     struct counter_values *values, char *why, size_t why_size);

/* How many items one session may hold, with ranges_per_item kernels each. */
int counters_items_per_session(int ranges_per_item);

/* Lets go of the profiler (before the CUDA context goes away). */
void counters_close(void);

#endif
