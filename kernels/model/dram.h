/*
** dram.h — the access model's DRAM estimate for a cold L2: every distinct
** 64-byte block the launch loads is read once (the H200 reads DRAM in 64-byte
** units), a sector written only in part is read first (write-allocate at
** sector granularity) unless a load of the launch already brought its
** 64-byte block into L2 (x += ...), and every distinct sector stored is written back
** once — an upper bound, since what is still in L2 when the kernel ends is
** written later. With the modelled device's L2 size given, a block loaded
** again is read from DRAM again when the L2 has likely let it go (dram.c).
*/
#ifndef WARPLAB_DRAM_H
#define WARPLAB_DRAM_H

#include "model/family.h"

enum { DRAM_READ_BYTES = 64 };

struct dram_estimate {
    uint64_t read_bytes;             /* loads plus write-allocate reads */
    uint64_t write_allocate_bytes;   /* of read_bytes: sectors read because a store filled them in part */
    uint64_t reread_bytes;           /* of read_bytes: blocks loaded again after the L2 let them go */
    uint64_t write_bytes;            /* upper bound: every stored sector written back once */
    uint64_t read_lines;             /* 128-byte lines with at least one 64-byte block loaded */
    int estimated;                   /* 0 when the footprint was too large to track */
};

struct dram_tracker;

/* The L2 size of the device the model stands for (its profile's l2_bytes),
   set before each launch; 0, the default, models an L2 that keeps everything. */
void dram_set_modelled_l2(uint64_t l2_bytes);
uint64_t dram_modelled_l2(void);

/* A tracker for a launch with these buffer sizes; NULL when too large to
   track. l2_bytes 0 counts every block once; otherwise re-reads are counted
   as the L2 of that size would let them go, in the order of the takes below. */
struct dram_tracker *dram_tracker_new(int buffer_count, const size_t *bytes, uint64_t l2_bytes);
void dram_tracker_free(struct dram_tracker *t);
/* Fills what is counted over the whole launch at its end (read_lines). */
void dram_tracker_finish(const struct dram_tracker *t, struct dram_estimate *d);
/* Adds one warp instruction's DRAM traffic. */
void dram_add(struct dram_tracker *t, struct dram_estimate *d, const struct warp_access *a);
/* A thread's run of warps [first, end), in warp order: what it adds between
   these calls is applied to the L2 in warp order whatever thread runs it, so
   the counts do not depend on the threads. Without them (one thread, or the
   emulator's l2_bytes 0) accesses apply as they come. */
void dram_take_begin(struct dram_tracker *t, long long first_warp);
void dram_take_end(struct dram_tracker *t, long long end_warp);

#endif
