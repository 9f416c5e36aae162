/*
** l1.c — a block's sectors in L1 (l1.h): an open-addressing set of sector
** numbers, emptied by a new stamp when another block starts or when it
** fills past what any block's loads reach.
*/
#include <stdlib.h>
#include "model/l1.h"
#include "support/sort.h"
#include "model/model.h"

enum {
    L1_RECENT = 64,                /* sectors the last requests touched, looked at before the set */
    L1_SLOTS = 1 << 13,            /* a power of two */
    L1_MOST = L1_SLOTS / 2,        /* sectors held at most: 128 KiB, about what an SM's L1 keeps beside shared memory */
};

struct l1_slot {
    uint64_t sector;
    uint32_t stamp;                /* the slot holds its sector while this is the cache's stamp */
};

struct l1_cache {
    long long block;
    uint32_t stamp;
    int held;
    struct l1_slot recent[L1_RECENT];   /* by the sector's low bits: neighbouring warps re-read the same few */
    struct l1_slot slot[L1_SLOTS];
};

struct l1_cache *l1_cache_new(void)
{
    struct l1_cache *c = calloc(1, sizeof *c);
    if (c) {
        c->block = -1;
        c->stamp = 1;
    }
    return c;
}

void l1_cache_free(struct l1_cache *c)
{
    free(c);
}

static void empty(struct l1_cache *c)
{
    c->held = 0;
    if (++c->stamp == 0) {   /* stamps wrapped: no slot may look current */
        for (int i = 0; i < L1_SLOTS; i++)
            c->slot[i].stamp = 0;
        for (int i = 0; i < L1_RECENT; i++)
            c->recent[i].stamp = 0;
        c->stamp = 1;
    }
}

/* 1 when the sector was held; else it is held from now on. */
static int held_before(struct l1_cache *c, uint64_t sector)
{
    struct l1_slot *recent = &c->recent[sector % L1_RECENT];
    if (recent->stamp == c->stamp && recent->sector == sector)
        return 1;
    *recent = (struct l1_slot){ sector, c->stamp };
    unsigned h = (unsigned)((sector * 0x9e3779b97f4a7c15ull) >> 51) & (L1_SLOTS - 1);
    while (c->slot[h].stamp == c->stamp) {
        if (c->slot[h].sector == sector)
            return 1;
        h = (h + 1) & (L1_SLOTS - 1);
    }
    if (c->held == L1_MOST) {
        empty(c);
        return held_before(c, sector);
    }
    c->slot[h] = (struct l1_slot){ sector, c->stamp };
    c->held++;
    return 0;
}

/* The distinct sectors of affine lanes whose addresses rise with the lane
   (step >= 0): each lane's in order, past the last one kept. */
static int rising_sectors(const struct warp_access *a, uint64_t *sector)
{
    int n = 0;
    if (a->step <= SECTOR_BYTES) {   /* no sector between the first lane's and the last one's is skipped */
        uint64_t last = a->first_addr + (uint64_t)(a->step * (a->lane_count - 1)) + (uint64_t)a->bytes - 1;
        for (uint64_t s = a->first_addr / SECTOR_BYTES; s <= last / SECTOR_BYTES; s++)
            sector[n++] = s;
        return n;
    }
    for (int k = 0; k < a->lane_count; k++) {
        uint64_t addr = a->first_addr + (uint64_t)((int64_t)k * a->step);
        for (uint64_t s = addr / SECTOR_BYTES; s <= (addr + (uint64_t)a->bytes - 1) / SECTOR_BYTES; s++)
            if (n == 0 || s > sector[n - 1])
                sector[n++] = s;
    }
    return n;
}

/* Lane's address, or 0 with *on = 0 when it does not run the access. */
static uint64_t lane_address(const struct warp_access *a, int lane, int *on)
{
    if (!a->affine) {
        *on = a->active >> lane & 1;
        return a->addr[lane];
    }
    int k = lane - a->first_lane;
    *on = k >= 0 && k < a->lane_count;
    return a->first_addr + (uint64_t)((int64_t)k * a->step);
}

/* The distinct sectors the active lanes' bytes cover, in order. */
static int sectors_of(const struct warp_access *a, uint64_t *sector)
{
    if (a->affine && a->step >= 0)
        return rising_sectors(a, sector);
    int n = 0, on;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        uint64_t addr = lane_address(a, lane, &on);
        if (!on)
            continue;
        for (uint64_t s = addr / SECTOR_BYTES; s <= (addr + (uint64_t)a->bytes - 1) / SECTOR_BYTES; s++)
            sector[n++] = s;
    }
    sort_addresses(sector, n);
    int distinct = 0;
    for (int i = 0; i < n; i++)
        if (distinct == 0 || sector[distinct - 1] != sector[i])
            sector[distinct++] = sector[i];
    return distinct;
}

struct l1_misses l1_cache_load(struct l1_cache *c, const struct warp_access *a)
{
    uint64_t sector[2 * WARP_SIZE];   /* a lane's 16 bytes at most: two sectors */
    struct l1_misses m = { 0, 0 };
    if (a->block != c->block) {
        empty(c);
        c->block = a->block;
    }
    int n = sectors_of(a, sector);
    uint64_t last_line = UINT64_MAX;
    for (int i = 0; i < n; i++) {
        int hit = !a->l2_only && held_before(c, sector[i]);
        if (hit)
            continue;
        m.sectors++;
        uint64_t line = sector[i] / (LINE_BYTES / SECTOR_BYTES);
        if (line != last_line)   /* sorted: a line's sectors are neighbours */
            m.lines++;
        last_line = line;
    }
    return m;
}
