/*
** profiles.h — device profiles for the model: the devices the sim backend
** can stand in for, and what the time estimate needs to know about each.
*/
#ifndef WARPLAB_PROFILES_H
#define WARPLAB_PROFILES_H

#include <stddef.h>
#include "device.h"
#include "model.h"

struct device_profile {
    const char *key;                 /* --profile NAME, config{profile=NAME} */
    const char *source;              /* where the figures come from */
    struct device_info info;
    double stream_gbs;               /* DRAM bandwidth a streaming kernel reaches */
    double inflight_gbs_per_byte;    /* bandwidth per DRAM byte each thread keeps in flight (Little's law) */
    double sectors_per_clock_per_sm; /* L1 sectors handled per SM per clock */
    double sparse_exponent;          /* DRAM slows as (used share of each 128-byte line) ^ this */
    double overhead_us;              /* a launch's fixed cost */
};

extern const struct device_profile device_profiles[];
extern const int device_profile_count;

const struct device_profile *profile_find(const char *key);
/* "h200, h100, a100, ...", for messages. */
const char *profile_names(char *out, size_t size);
/* The profile for a real device: the one of the same name, else one derived
   from its attributes and measured copy ceiling. */
const struct device_profile *profile_for_device(const struct device_info *info);

struct time_estimate {
    double time_ms;
    double dram_ms, sectors_ms;      /* the two limits; the larger one sets the time */
    const char *limit;               /* "DRAM bandwidth", "bytes in flight", "L1 sector throughput" */
};

/* Modelled kernel time for a launch of `threads` threads with these counts. */
struct time_estimate estimate_time(const struct device_profile *profile, const struct model_counts *counts,
                                   long long threads);

#endif
