/*
** result.h — what one launch produced, as the backends fill it in C; it
** becomes a Lua table in result.c (result_lua.h).
*/
#ifndef WARPLAB_RESULT_H
#define WARPLAB_RESULT_H

#include "model/family.h"
#include "model/model.h"
#include "backend/counters.h"
#include "model/profiles.h"
#include "emulator/ptx.h"

enum { MAX_SAMPLES = 1000, MAX_WARNINGS = 4 };

struct timing {
    int sample_count;
    double median_ms, min_ms, max_ms;
    double iqr_relative;              /* interquartile range / median */
    double samples_ms[MAX_SAMPLES];   /* in the order they were taken */
};

struct result {
    const struct family *family;
    struct params params;
    const char *backend;              /* "gpu" or "sim" */
    const char *cache;                /* "cold" or "warm" */
    struct model_counts model;
    uint64_t useful_bytes;
    uint64_t footprint_bytes;         /* all buffers together */
    int measured;                     /* timing holds GPU measurements */
    double wall_ms;                   /* the whole launch() call, model and counters included */
    struct timing timing;
    double sm_clock_mhz;              /* measured on the device during the samples; 0: not */
    const struct device_profile *profile;   /* the device the estimate is for */
    struct time_estimate estimate;    /* the model's time */
    const char *model_source;         /* "formula" (the family's counting in C) or "emulator" */
    const char *model_level;          /* on the emulator: "sass" (the machine code) or "ptx"; NULL by formula */
    char model_level_why[320];        /* at PTX level: why not SASS */
    int have_counters;                /* counters holds the hardware's values */
    struct counter_values counters;
    char counters_unavailable[256];   /* why not, when counters were asked for and are missing */
    int correct;                      /* 1 or 0; -1 when not checked */
    char mismatch[256];               /* first wrong element, when correct is 0 */
    long long checked_elements;       /* output elements compared with a Lua reference (a sample, when fewer than */
    long long output_elements;        /* the launch's output elements); both 0 when there was no such check */
    char unchecked[160];              /* why a kernel with a Lua check was not checked, when it was not */
    struct sum_tolerance summed;      /* the outputs float atomics summed, compared within their rounding */
    int warning_count;
    char warnings[MAX_WARNINGS][256]; /* said on screen under the result */
    char printed[PTX_PRINTED_MOST_BYTES + 1];   /* what the kernel's printf printed, as the launch showed it (its first lines) */
    unsigned long long printed_not_shown;   /* the lines of it not shown */
};

/* Adds a warning line to r (printf-style); extra ones beyond MAX_WARNINGS are dropped. */
void result_warn(struct result *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Fills median, extremes and relative IQR from the samples. */
void timing_summarize(struct timing *t);
/* Whether the median's standard error (estimated from the IQR) is under
   target, relative to the median. Summarizes t as a side effect. */
int timing_median_is_stable(struct timing *t, double target);

#endif
