/*
** dram.c — one bit per 64-byte block loaded and per 32-byte sector stored,
** per buffer: a block or sector costs DRAM traffic the first time its bit
** is set. Affine accesses set whole ranges of bits at once.
*/
#include <stdlib.h>
#include <string.h>
#include "dram.h"
#include "common.h"
#include "model.h"

enum { TRACKER_LIMIT_BYTES = 1u << 30 };   /* bitmaps for about 40 GB of buffers */

struct dram_tracker {
    int buffer_count;
    uint64_t *loaded[MAX_BUFFERS];   /* bit per 64-byte block */
    uint64_t *stored[MAX_BUFFERS];   /* bit per 32-byte sector */
    size_t blocks[MAX_BUFFERS], sectors[MAX_BUFFERS];
};

struct dram_tracker *dram_tracker_new(int buffer_count, const size_t *bytes)
{
    size_t total = 0;
    for (int i = 0; i < buffer_count; i++)
        total += bytes[i] / DRAM_READ_BYTES / 8 + bytes[i] / SECTOR_BYTES / 8;
    if (total > TRACKER_LIMIT_BYTES)
        return NULL;
    struct dram_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->buffer_count = buffer_count;
    for (int i = 0; i < buffer_count; i++) {
        t->blocks[i] = bytes[i] / DRAM_READ_BYTES + 2;
        t->sectors[i] = bytes[i] / SECTOR_BYTES + 2;
        t->loaded[i] = calloc(t->blocks[i] / 64 + 1, sizeof(uint64_t));
        t->stored[i] = calloc(t->sectors[i] / 64 + 1, sizeof(uint64_t));
        if (!t->loaded[i] || !t->stored[i]) {
            dram_tracker_free(t);
            return NULL;
        }
    }
    return t;
}

void dram_tracker_free(struct dram_tracker *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->buffer_count; i++) {
        free(t->loaded[i]);
        free(t->stored[i]);
    }
    free(t);
}

/* Sets bits first..last (inclusive); returns how many were newly set. */
static uint64_t set_range(uint64_t *bits, size_t limit, uint64_t first, uint64_t last)
{
    uint64_t added = 0;
    if (last >= limit)
        last = limit - 1;
    for (uint64_t i = first; i <= last;) {
        uint64_t word = i / 64, from = i % 64;
        uint64_t to = (last / 64 == word) ? last % 64 : 63;
        uint64_t mask = (to == 63 ? ~0ull : ((1ull << (to + 1)) - 1)) & ~((1ull << from) - 1);
        added += (uint64_t)__builtin_popcountll(mask & ~bits[word]);
        bits[word] |= mask;
        i = word * 64 + to + 1;
    }
    return added;
}

/* Which buffer an address of the model's address space falls in, and where. */
static int locate(const struct dram_tracker *t, uint64_t address, uint64_t *offset)
{
    int buffer = (int)(address >> 40) - 1;
    *offset = address & ((1ull << 40) - 1);
    return buffer >= 0 && buffer < t->buffer_count ? buffer : -1;
}

/* Sectors the lanes of one request cover only in part: the lanes' byte
   ranges in address order, merged, summed sector by sector. */
static uint64_t partial_sectors_by_lane(const struct warp_access *a)
{
    struct warp_access e = *a;
    uint64_t start[WARP_SIZE], sector = 0, covered = 0, partial = 0, reached = 0;
    int n = 0;
    warp_access_expand(&e);
    for (int lane = 0; lane < WARP_SIZE; lane++)
        if (e.active >> lane & 1) {
            int k = n++;
            for (; k > 0 && start[k - 1] > e.addr[lane]; k--)
                start[k] = start[k - 1];
            start[k] = e.addr[lane];
        }
    for (int i = 0; i < n; i++) {
        uint64_t from = start[i] > reached ? start[i] : reached, end = start[i] + (uint64_t)e.bytes;
        for (; from < end; from = (from / SECTOR_BYTES + 1) * SECTOR_BYTES) {
            uint64_t upto = (from / SECTOR_BYTES + 1) * SECTOR_BYTES;
            if (from / SECTOR_BYTES != sector || covered == 0) {
                partial += covered > 0 && covered < SECTOR_BYTES;
                sector = from / SECTOR_BYTES;
                covered = 0;
            }
            covered += (end < upto ? end : upto) - from;
        }
        reached = end > reached ? end : reached;
    }
    return partial + (covered > 0 && covered < SECTOR_BYTES);
}

/* Bytes of one lane's element that fall in each 32-byte sector are counted
   per request: a sector the request covers only in part needs a read first. */
static uint64_t partial_sectors(const struct warp_access *a)
{
    if (a->affine && a->step == a->bytes) {   /* contiguous: only the ends can be partial */
        uint64_t begin = a->first_addr, end = begin + (uint64_t)a->lane_count * (uint64_t)a->bytes;
        uint64_t head = begin % SECTOR_BYTES != 0, tail = end % SECTOR_BYTES != 0;
        if (head && tail && begin / SECTOR_BYTES == (end - 1) / SECTOR_BYTES)
            return 1;
        return head + tail;
    }
    if (a->bytes >= SECTOR_BYTES)
        return 0;
    return partial_sectors_by_lane(a);   /* scattered or in several runs: sector by sector */
}

/* Sets bit i (when under limit); returns 1 when it was new. */
static uint64_t set_bit(uint64_t *bits, size_t limit, uint64_t i)
{
    if (i >= limit)
        return 0;
    uint64_t mask = 1ull << (i % 64), was = bits[i / 64] & mask;
    bits[i / 64] |= mask;
    return was == 0;
}

/* Lane by lane: the element's first and last unit (elements of at most 16
   bytes touch at most two units of 32 or 64). */
static void add_lanes(const struct dram_tracker *t, uint64_t **bits, const size_t *limits, int unit,
                      const struct warp_access *a, uint64_t *added)
{
    int shift = __builtin_ctz((unsigned)unit), seen = 0;
    uint64_t previous_first = 0, previous_last = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        uint64_t offset;
        if (!(a->active >> lane & 1))
            continue;
        uint64_t unit_first = a->addr[lane] >> shift, unit_last = (a->addr[lane] + a->bytes - 1) >> shift;
        if (seen && unit_first == previous_first && unit_last == previous_last)
            continue;   /* the same units as the lane before: already set */
        seen = 1;
        previous_first = unit_first;
        previous_last = unit_last;
        int buffer = locate(t, a->addr[lane], &offset);
        if (buffer < 0)
            continue;
        uint64_t first = offset >> shift, last = (offset + a->bytes - 1) >> shift;
        *added += set_bit(bits[buffer], limits[buffer], first);
        if (last != first)
            *added += set_bit(bits[buffer], limits[buffer], last);
    }
}

/* The units (64-byte blocks or 32-byte sectors) a request touches, newly set. */
static uint64_t add_units(const struct dram_tracker *t, uint64_t **bits, const size_t *limits, int unit,
                          const struct warp_access *a)
{
    uint64_t offset, added = 0;
    if (a->affine && a->lane_count > 0 && a->step >= 0 && a->step <= unit) {
        int buffer = locate(t, a->first_addr, &offset);
        uint64_t end = offset + (uint64_t)(a->lane_count - 1) * (uint64_t)a->step + (uint64_t)a->bytes - 1;
        return buffer < 0 ? 0 : set_range(bits[buffer], limits[buffer], offset / unit, end / unit);
    }
    struct warp_access expanded;
    if (a->affine) {
        expanded = *a;
        warp_access_expand(&expanded);
        a = &expanded;
    }
    add_lanes(t, bits, limits, unit, a, &added);
    return added;
}

void dram_add(struct dram_tracker *t, struct dram_estimate *d, const struct warp_access *a)
{
    if (a->kind == ACCESS_LOAD) {
        d->read_bytes += DRAM_READ_BYTES * add_units(t, t->loaded, t->blocks, DRAM_READ_BYTES, a);
        return;
    }
    uint64_t new_sectors = add_units(t, t->stored, t->sectors, SECTOR_BYTES, a);
    uint64_t partial = partial_sectors(a);
    uint64_t allocate = SECTOR_BYTES * (partial < new_sectors ? partial : new_sectors);
    d->write_bytes += SECTOR_BYTES * new_sectors;
    d->write_allocate_bytes += allocate;
    d->read_bytes += allocate;
}

void dram_tracker_finish(const struct dram_tracker *t, struct dram_estimate *d)
{
    /* bits 2k and 2k+1 are the two 64-byte halves of one 128-byte line */
    const uint64_t even = 0x5555555555555555ull;
    d->read_lines = 0;
    for (int i = 0; i < t->buffer_count; i++)
        for (size_t w = 0; w <= t->blocks[i] / 64; w++) {
            uint64_t bits = t->loaded[i][w];
            d->read_lines += (uint64_t)__builtin_popcountll((bits | bits >> 1) & even);
        }
}
