/*
** l1.h — which sectors of a load an SM's L1 already holds.
** A block's warps run side by side on one SM and share its L1, so a sector
** one of them loaded is a hit for the rest of the block; the model keeps one
** block's sectors at a time, in the order the counter hands it the block's
** loads. What other blocks on the same SM loaded, and what L1 evicts while
** the block runs, it does not model: a block's warps read what their
** neighbours read at about the same time. The misses are what goes on to L2.
*/
#ifndef WARPLAB_L1_H
#define WARPLAB_L1_H

#include <stdint.h>
#include "model/family.h"

struct l1_cache;

struct l1_cache *l1_cache_new(void);
void l1_cache_free(struct l1_cache *c);

/* The sectors and lines of a load's request that L1 did not hold (and now does). */
struct l1_misses {
    int sectors, lines;
};
struct l1_misses l1_cache_load(struct l1_cache *c, const struct warp_access *a);

#endif
