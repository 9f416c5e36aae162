/*
** profiles.h — device profiles for the model: the devices the sim backend
** can stand in for, and what the time estimate needs to know about each.
*/
#ifndef WARPLAB_PROFILES_H
#define WARPLAB_PROFILES_H

#include <stddef.h>
#include "model/device.h"
#include "model/model.h"

/* The rates a launch's time is made of (docs/model.md, "Time"): each term of
   the estimate is a count divided by one of these. Per-clock rates are per
   SM and per SM clock. */
struct time_rates {
    double dram_gbs;                    /* DRAM read + write bandwidth a streaming kernel reaches */
    double sparse_exponent;             /* DRAM slows as (used share of each 128-byte line) ^ this */
    double l2_held_writes;              /* share of the L2 whose writes are still there when a kernel ends */
    /* L2's loads: L1's misses, a request per 128-byte line and a transfer per 32-byte sector */
    double l2_load_lines_per_clock, l2_load_sectors_per_clock;
    double l2_store_requests_per_clock;  /* store requests the SMs send L2, one per 128-byte line a warp writes */
    /* one SM's L1 for loads: a look-up per 128-byte line a request touches, a transfer per sector */
    double l1_lines_per_clock, l1_sectors_per_clock;
    double shared_wavefronts_per_clock; /* passes of the shared-memory pipeline */
    double constant_passes_per_clock;   /* constant-cache passes (one address each) */
    double atomic_sector_ns;            /* an atomic request's turn at one 32-byte sector of L2 */
    double atomics_per_clock;           /* global atomic operations on distinct addresses (RED) */
    double shared_atomics_per_clock;    /* shared-memory atomic operations (ATOMS) */
    double instructions_per_clock;      /* warp-instructions an SM issues (four schedulers, one each at most) */
    double latency_ns;                  /* a warp's round trip to memory and back (Little's law) */
    double loads_in_flight;             /* a warp's loads that share one round trip */
    double overlap_exponent;            /* DRAM and latency combine as (dram^p + latency^p)^(1/p): 1 adds them, larger tends to the larger;
                                           times the DRAM bytes no load waits for per byte one does, where more */
    double block_ns;                    /* an SM starting one block */
    double launch_us;                   /* a launch's fixed cost, its first round trip to memory included */
};

struct device_profile {
    const char *key;                 /* --profile NAME, config{profile=NAME} */
    const char *source;              /* where the figures come from */
    struct device_info info;
    struct time_rates rates;
};

extern const struct device_profile device_profiles[];
extern const int device_profile_count;

const struct device_profile *profile_find(const char *key);
/* The profile bench/calibrate's coefficients file at path describes (KEY
   VALUE lines: the device's sizes and clocks, and the rates it measured);
   NULL with why when it cannot be read or lacks one. The last one loaded
   stays; its key is path. */
const struct device_profile *profile_load(const char *path, char *why, size_t why_size);
/* "h200, h100, a100, ...", for messages. */
const char *profile_names(char *out, size_t size);
/* The profile for a real device: the one of the same name, else one derived
   from its attributes and measured copy ceiling. */
const struct device_profile *profile_for_device(const struct device_info *info);

/* The terms of the time estimate, each a unit or limit that can set a
   launch's time; the largest one does, and the card names it. */
enum time_term {
    TERM_DRAM, TERM_L2_LOADS, TERM_L2_STORES, TERM_L1_LINES, TERM_SHARED, TERM_CONSTANT,
    TERM_ATOMICS, TERM_ISSUE, TERM_LATENCY, TERM_BLOCKS,
    TERM_LAUNCH,   /* the fixed cost: the limit when it outweighs every other term */
    TERM_COUNT
};

struct time_term_decl {
    const char *key;         /* result.model.terms.KEY, result.model.limit_key */
    const char *limit;       /* "limited by ..." in English */
    const char *limit_zh;    /* the same in Chinese */
};
extern const struct time_term_decl time_terms[TERM_COUNT];

/* What a launch's time depends on besides its counts: its shape, and how
   its loads wait for each other. */
struct launch_geometry {
    long long threads;            /* in the grid */
    int block_threads;
    unsigned shared_bytes;        /* a block's shared memory, static and dynamic, where known */
    int registers;                /* a thread's, where known; 0: not limiting */
    int load_chain;               /* loads a warp waits for one after another (struct warp_cost) */
};

struct time_estimate {
    double time_ms;
    double term_ms[TERM_COUNT];   /* each term alone; TERM_LAUNCH's is added to the largest of the others */
    int resident_warps;           /* per SM: occupancy, from the shape and the device's limits */
    int registers;                /* a thread's, where the machine code says (launch_geometry); else 0 */
    double warps, waves;          /* the grid's warps, and how many times the SMs fill with them */
    enum time_term limit;         /* the largest term */
};

/* Modelled kernel time for a launch of this shape with these counts. */
struct time_estimate estimate_time(const struct device_profile *profile, const struct model_counts *counts,
                                   const struct launch_geometry *shape);

#endif
