/*
** result.h — what one launch produced, before it becomes a Lua table.
*/
#ifndef WARPLAB_RESULT_H
#define WARPLAB_RESULT_H

#include <lua.h>
#include "family.h"
#include "model.h"

enum { MAX_SAMPLES = 1000 };

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
    struct timing timing;
    int correct;                      /* 1 or 0; -1 when not checked */
    char mismatch[256];               /* first wrong element, when correct is 0 */
};

/* Pushes r as a result table (docs/results.md lists the fields). */
void result_push(lua_State *L, const struct result *r);

#endif
