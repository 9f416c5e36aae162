/*
** counters.h — hardware counters through CUPTI's Range Profiler. CUPTI is
** loaded at run time, so warplab starts (and runs launches) without it;
** every way counters can be missing becomes a one-line reason, never an error.
*/
#ifndef WARPLAB_COUNTERS_H
#define WARPLAB_COUNTERS_H

#include <stddef.h>
#include "backend/counter_table.h"

enum { MAX_PROFILED_RANGES = 256 };

/* How a counter fared on this GPU. Only the READ states hold a value. */
enum counter_state {
    COUNTER_READ,              /* read under its metric name */
    COUNTER_READ_AS_OTHER,     /* read under its other_metric name */
    COUNTER_NOT_ON_CHIP,       /* the chip has no counter of either name */
    COUNTER_NOT_OFFERED,       /* the chip has it, but the profiler would not take it on this device */
};

struct counter_values {
    double value[COUNTER_COUNT];
    unsigned char state[COUNTER_COUNT];   /* enum counter_state */
    char chip[16];                        /* CUPTI's name for the chip, for saying why one is missing */
};

/* Whether counter id holds the hardware's value; the metric name it was read under. */
int counter_was_read(const struct counter_values *values, enum counter_id id);
const char *counter_metric_read(const struct counter_values *values, enum counter_id id);

/* What one counted item puts on the stream, in two steps: prepare (the L2
   flush, inputs sent again) is not counted, launch (one kernel) is. Both run
   once per pass under user replay. 0, or -1 when a CUDA call failed. */
struct counted_work {
    int (*prepare)(int index, void *user);
    int (*launch)(int index, void *user);
    void *user;
};

/* Sets the profiler up for the current CUDA context, once per session (the
   config image is built once and reused). 0; COUNTERS_BUSY when another
   process was profiling the GPU (worth trying again later); or -1; with the
   reason in why. */
enum { COUNTERS_BUSY = -2 };
int counters_open(int ordinal, char *why, size_t why_size);

/* Profiles `items` items, in one counter batch where the profiler
   allows: item i's kernel into values[i], found[i] set once it is there.
   0 when every item was found, COUNTERS_BUSY (see counters_pause), or -1
   with the reason. */
int counters_read(int items, const struct counted_work *work, struct counter_values *values,
                     int *found, char *why, size_t why_size);
/* Range profiling is turned on by counters_read and stays on, since turning
   it on costs about 0.4 s on the H200; while it is on, no other process can
   profile this GPU (CUPTI answers them CUPTI_ERROR_HARDWARE_BUSY, and
   counters_read then returns COUNTERS_BUSY). This turns it off, as
   warplab does whenever another process waits for the GPU, and after a
   minute with nothing to do (for profilers that do not wait in its way). */
void counters_pause(void);

/* Whether CUPTI saves and restores the memory the GPU can reach between
   passes (kernel replay): then host memory must not be pinned, or every
   launch's counters would copy it. */
int counters_save_memory(void);

/* How many items one counter batch may hold. */
int counters_batch_size(void);

/* Lets go of the profiler (before the CUDA context goes away). */
void counters_close(void);

/* Which counters chip (a CUPTI chip name, such as GH100) offers, and under
   which name, without a GPU: CUPTI's host API knows every chip it supports.
   Fills states[COUNTER_COUNT]; 0, or -1 with the reason (no CUPTI, or a chip
   it does not know). For tests/gpu/counter_table and for reading the rules. */
int counters_for_chip(const char *chip, unsigned char *states, char *why, size_t why_size);

#endif
