/*
** counter_table.h — the hardware counters warplab reads, declared once:
** the result field, Nsight Compute's metric name, and what it means.
*/
#ifndef WARPLAB_COUNTER_TABLE_H
#define WARPLAB_COUNTER_TABLE_H

enum counter_id {
    COUNTER_LOAD_REQUESTS,
    COUNTER_LOAD_SECTORS,
    COUNTER_STORE_REQUESTS,
    COUNTER_STORE_SECTORS,
    COUNTER_DRAM_READ_BYTES,
    COUNTER_DRAM_WRITE_BYTES,
    COUNTER_L2_READ_SECTORS,
    COUNTER_L2_WRITE_SECTORS,
    COUNTER_L1_HIT_RATE,
    COUNTER_L2_HIT_RATE,
    COUNTER_SHARED_LOAD_WAVEFRONTS,
    COUNTER_SHARED_STORE_WAVEFRONTS,
    COUNTER_SHARED_LOAD_CONFLICTS,
    COUNTER_SHARED_STORE_CONFLICTS,
    COUNTER_ATOMIC_REQUESTS,
    COUNTER_ATOMIC_SECTORS,
    COUNTER_REDUCTION_REQUESTS,
    COUNTER_REDUCTION_SECTORS,
    COUNTER_LDGSTS_REQUESTS,
    COUNTER_LDGSTS_SECTORS,
    COUNTER_INSTRUCTIONS,
    COUNTER_COUNT
};

struct counter_decl {
    const char *field;     /* key in result.counters */
    const char *metric;    /* Nsight Compute's name for it */
    const char *meaning;   /* two sentences for explain() */
    const char *meaning_zh;   /* the same in Simplified Chinese, with the glossary's terms */
    const char *metric_zh;    /* a derived term's metric, which is prose, in Chinese (NULL: a counter) */
    const char *other_metric; /* its name on chips where metric is unknown, or NULL */
};

extern const struct counter_decl counter_table[COUNTER_COUNT];

/* Terms explain() knows that are not counters themselves (derived values). */
extern const struct counter_decl derived_terms[];
extern const int derived_term_count;

#endif
