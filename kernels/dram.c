/*
** dram.c — one bit per 64-byte block loaded, per buffer: a block costs DRAM
** traffic the first time its bit is set; and one bit per byte stored, a word
** per 32-byte sector, counted at the end: each sector with a byte written is
** written back once, and read first unless all of it was written. Affine
** accesses set whole ranges of bits at once. Bits are set with atomic ORs,
** so the model's threads share one tracker and each newly set load bit is
** counted by exactly one of them.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dram.h"
#include "common.h"
#include "model.h"

/* A bit per 64-byte block and per 32-byte sector of every buffer: about 40 GB
   of buffers. The written maps of stored buffers, a word a sector, come on top. */
enum { TRACKER_LIMIT_BYTES = 1u << 30 };

struct dram_tracker {
    int buffer_count;
    uint64_t *loaded[MAX_BUFFERS];   /* bit per 64-byte block */
    uint32_t *written[MAX_BUFFERS];  /* bit per byte, a word per sector; made on a buffer's first store */
    size_t blocks[MAX_BUFFERS], sectors[MAX_BUFFERS];
    pthread_mutex_t making_written;  /* held while a written map is made */
    int written_lost;                /* a written map could not be made: the estimate is incomplete */
};

static size_t loaded_bytes(const struct dram_tracker *t, int i) { return (t->blocks[i] / 64 + 1) * sizeof(uint64_t); }
static size_t written_bytes(const struct dram_tracker *t, int i) { return t->sectors[i] * sizeof(uint32_t); }

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
    pthread_mutex_init(&t->making_written, NULL);
    for (int i = 0; i < buffer_count; i++) {
        t->blocks[i] = bytes[i] / DRAM_READ_BYTES + 2;
        t->sectors[i] = bytes[i] / SECTOR_BYTES + 2;
        t->loaded[i] = zeroed_new(loaded_bytes(t, i));
        if (!t->loaded[i]) {
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
        zeroed_free(t->loaded[i], loaded_bytes(t, i));
        zeroed_free(t->written[i], written_bytes(t, i));
    }
    pthread_mutex_destroy(&t->making_written);
    free(t);
}

/* ORs mask into a word; returns how many of its bits were not set before. */
static uint64_t set_bits(uint64_t *word, uint64_t mask)
{
    if ((__atomic_load_n(word, __ATOMIC_RELAXED) & mask) == mask)
        return 0;   /* the usual repeat: read only, so the threads share the line without writing it */
    uint64_t had = __atomic_fetch_or(word, mask, __ATOMIC_RELAXED);
    return (uint64_t)__builtin_popcountll(mask & ~had);
}

/* Sets bits first..last (inclusive); returns how many were newly set. */
static uint64_t set_range(uint64_t *bits, size_t limit, uint64_t first, uint64_t last)
{
    uint64_t added = 0;
    if (last >= limit)
        last = limit - 1;
    if (first == last)   /* one unit, as for most scattered lanes */
        return set_bits(&bits[first / 64], 1ull << (first % 64));
    for (uint64_t i = first; i <= last;) {
        uint64_t word = i / 64, from = i % 64;
        uint64_t to = (last / 64 == word) ? last % 64 : 63;
        uint64_t mask = (to == 63 ? ~0ull : ((1ull << (to + 1)) - 1)) & ~((1ull << from) - 1);
        added += set_bits(&bits[word], mask);
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

/* Lane by lane: the element's first and last unit. */
static void add_lanes(const struct dram_tracker *t, uint64_t **bits, const size_t *limits, int unit,
                      const struct warp_access *a, uint64_t *added)
{
    int shift = __builtin_ctz((unsigned)unit);   /* units are powers of two: no division per lane */
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        uint64_t offset;
        if (!(a->active >> lane & 1))
            continue;
        int buffer = locate(t, a->addr[lane], &offset);
        if (buffer >= 0)
            *added += set_range(bits[buffer], limits[buffer], offset >> shift, (offset + a->bytes - 1) >> shift);
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
    struct warp_access expanded = *a;
    warp_access_expand(&expanded);
    add_lanes(t, bits, limits, unit, &expanded, &added);
    return added;
}

/* ORs the written bytes mask into a sector's word, writing only when it adds some. */
static void mark_bytes(uint32_t *sector_word, uint32_t mask)
{
    if ((__atomic_load_n(sector_word, __ATOMIC_RELAXED) & mask) != mask)
        __atomic_fetch_or(sector_word, mask, __ATOMIC_RELAXED);
}

/* Marks bytes [from, to) of a buffer as written: a bit per byte, one 32-bit word per sector. */
static void mark_written(uint32_t *written, size_t sectors, uint64_t from, uint64_t to)
{
    for (uint64_t sector = from / SECTOR_BYTES; sector * SECTOR_BYTES < to && sector < sectors; sector++) {
        uint64_t begin = from > sector * SECTOR_BYTES ? from - sector * SECTOR_BYTES : 0;
        uint64_t end = to < (sector + 1) * SECTOR_BYTES ? to - sector * SECTOR_BYTES : SECTOR_BYTES;
        mark_bytes(&written[sector], (uint32_t)(((1ull << end) - 1) & ~((1ull << begin) - 1)));
    }
}

/* The written-bytes map of a buffer, made on its first store; NULL when memory is short. */
static uint32_t *written_map(struct dram_tracker *t, int buffer)
{
    uint32_t *map = __atomic_load_n(&t->written[buffer], __ATOMIC_ACQUIRE);
    if (map)
        return map;
    pthread_mutex_lock(&t->making_written);
    if (!(map = t->written[buffer])) {
        map = zeroed_new(written_bytes(t, buffer));
        __atomic_store_n(&t->written[buffer], map, __ATOMIC_RELEASE);
        if (!map)
            t->written_lost = 1;
    }
    pthread_mutex_unlock(&t->making_written);
    return map;
}

/* Marks one element at a buffer's offset as written; most fall within one sector. */
static void mark_element(uint32_t *written, size_t sectors, uint64_t offset, int bytes)
{
    uint64_t sector = offset / SECTOR_BYTES, begin = offset % SECTOR_BYTES;
    if (begin + (uint64_t)bytes <= SECTOR_BYTES && sector < sectors)
        mark_bytes(&written[sector], (uint32_t)(((1ull << bytes) - 1) << begin));
    else
        mark_written(written, sectors, offset, offset + (uint64_t)bytes);
}

/* The same for an element at an address of the model's address space. */
static void mark_address(struct dram_tracker *t, uint64_t address, int bytes)
{
    uint64_t offset;
    int buffer = locate(t, address, &offset);
    uint32_t *written = buffer >= 0 ? written_map(t, buffer) : NULL;
    if (written)
        mark_element(written, t->sectors[buffer], offset, bytes);
}

/* Records which bytes a store writes, for the write-allocate reads counted at
   the end. An affine store within one buffer is walked by offset alone. */
static void record_written(struct dram_tracker *t, const struct warp_access *a)
{
    if (!a->affine) {
        for (int lane = 0; lane < WARP_SIZE; lane++)
            if (a->active >> lane & 1)
                mark_address(t, a->addr[lane], a->bytes);
        return;
    }
    if (a->lane_count <= 0)
        return;
    int64_t span = (int64_t)(a->lane_count - 1) * a->step;
    uint64_t offset, last_offset;
    int buffer = locate(t, a->first_addr, &offset);
    uint32_t *written = buffer >= 0 && locate(t, a->first_addr + (uint64_t)span, &last_offset) == buffer
                        ? written_map(t, buffer) : NULL;
    if (!written) {
        for (int k = 0; k < a->lane_count; k++)
            mark_address(t, a->first_addr + (uint64_t)((int64_t)k * a->step), a->bytes);
    } else if (a->step == a->bytes) {   /* one contiguous run */
        mark_written(written, t->sectors[buffer], offset, offset + (uint64_t)a->lane_count * (uint64_t)a->bytes);
    } else {
        for (int k = 0; k < a->lane_count; k++)
            mark_element(written, t->sectors[buffer], offset + (uint64_t)((int64_t)k * a->step), a->bytes);
    }
}

void dram_add(struct dram_tracker *t, struct dram_estimate *d, const struct warp_access *a)
{
    if (a->kind == ACCESS_LOAD) {
        d->read_bytes += DRAM_READ_BYTES * add_units(t, t->loaded, t->blocks, DRAM_READ_BYTES, a);
        return;
    }
    record_written(t, a);
}

/* The stored sectors, each written back once, and write-allocate over the
   whole launch: a stored sector whose 32 bytes the launch never all writes is
   read from DRAM first, unless a load of the launch already brought its
   64-byte block into L2 (a read-modify-write). Sectors that other warps
   complete are merged in L2 and read nothing (the H200's transpose: 70 MB
   read where a per-request rule said 134 MB). */
static void count_stored(const struct dram_tracker *t, struct dram_estimate *d)
{
    uint64_t stored = 0, partial = 0;
    for (int i = 0; i < t->buffer_count; i++) {
        if (!t->written[i])
            continue;
        for (size_t s = 0; s < t->sectors[i]; s++) {
            uint32_t w = t->written[i][s];
            size_t block = s * SECTOR_BYTES / DRAM_READ_BYTES;
            stored += w != 0;
            if (w != 0 && w != ~0u && !(t->loaded[i][block / 64] >> (block % 64) & 1))
                partial++;
        }
    }
    d->write_bytes = stored * SECTOR_BYTES;
    d->write_allocate_bytes = partial * SECTOR_BYTES;
    if (t->written_lost)
        d->estimated = 0;
}

void dram_tracker_finish(const struct dram_tracker *t, struct dram_estimate *d)
{
    count_stored(t, d);
    d->read_bytes += d->write_allocate_bytes;
    /* bits 2k and 2k+1 are the two 64-byte halves of one 128-byte line */
    const uint64_t even = 0x5555555555555555ull;
    d->read_lines = 0;
    for (int i = 0; i < t->buffer_count; i++)
        for (size_t w = 0; w <= t->blocks[i] / 64; w++) {
            uint64_t bits = t->loaded[i][w];
            d->read_lines += (uint64_t)__builtin_popcountll((bits | bits >> 1) & even);
        }
}
