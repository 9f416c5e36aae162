/*
** dram.c — one bit per 64-byte block loaded, per buffer: a block costs DRAM
** traffic the first time its bit is set; and one bit per byte stored, a word
** per 32-byte sector, counted at the end: each sector with a byte written is
** written back once, and read first unless all of it was written. Affine
** accesses set whole ranges of bits at once. Bits are set with atomic ORs,
** so the model's threads share one tracker and each newly set load bit is
** counted by exactly one of them.
**
** With an L2 size, the L2 is modelled too (struct l2 below): a fill clock
** counts the blocks brought into L2, loads and stores alike, and each block
** keeps the eviction clock at its last use. Once the fills pass the L2's
** usable size, each fill pushes out a block at random (a hashed,
** set-associative L2 is closer to that than to LRU: see L2_USABLE_SHARE), so
** a block used again after e evictions is still there with probability
** exp(-e / capacity); what is not is read again, counted as its expected
** value. That needs the accesses in one order: the threads' runs of warps
** are applied in warp order, one run at a time (dram_take_begin/end), and
** the load bits with them; a run that is not next is logged until it is.
*/
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "model/dram.h"
#include "support/memory.h"
#include "model/common.h"
#include "model/model.h"

/* A bit per 64-byte block and per 32-byte sector of every buffer: about 40 GB
   of buffers. The written maps of stored buffers, a word a sector, come on top. */
enum { TRACKER_LIMIT_BYTES = 1u << 30 };

/* Of the L2's bytes, the share one launch's data can hold before blocks are
   pushed out. The H200's DRAM counters (2026-12-02, bench/data/
   h200-model-time.json) put it near half of the 60 MiB: working_set reads
   36 MB at 32 MiB (it fits), but 356 MB at 48 MiB and 671 MB at 80 MiB;
   random gather at its defaults reads 452 MB. At 0.55 the model gives 34,
   244, 601 and 426 MB; at 0.85 it gave 34, 50, 448 and 276. The L2's two
   partitions (each may hold a copy of a line both halves of the chip read)
   and its replacement policy are not modelled apart; this share stands for
   both. */
static const double L2_USABLE_SHARE = 0.55;

/* The chance a block is gone, 1 - exp(-e / capacity), at the start of steps
   of capacity / SURVIVAL_STEPS_A_CAPACITY, up to SURVIVAL_CAPACITIES
   capacities (past that, e^-32: gone). The first step is 0: a block used
   again within 1/256 of the capacity's evictions is kept, so the near reuse
   of stencils and neighbours costs nothing, as without an L2 size. Blocks
   are counted in fixed point, FILL_ONE a block: integer sums are exact and
   fast. */
enum { SURVIVAL_STEPS_A_CAPACITY = 256, SURVIVAL_CAPACITIES = 32,
       SURVIVAL_STEPS = SURVIVAL_STEPS_A_CAPACITY * SURVIVAL_CAPACITIES, FILL_SHIFT = 16 };
static const uint64_t FILL_ONE = 1ull << FILL_SHIFT;

/* Clocks, 4 bytes for every 64-byte block (1/16 of the buffers): beyond this
   (16 GiB of buffers) a launch counts every block once, as with no L2 size. */
static const size_t CLOCK_LIMIT_BYTES = (size_t)1 << 30;

/* Runs of other threads' warps waiting for an earlier one: at most this many
   (each its own log; a thread that would add one more waits). A log holds at
   most LOG_USES_MOST uses (2 MiB): past that (a long warp's loop, matmul's)
   its thread waits for its turn and applies the rest directly. */
enum { PENDING_TAKES_MOST = 32, LOG_USES_MOST = 1 << 18 };

/* One thread's run of warps, its block uses logged until the runs before it are applied. */
struct take_log {
    long long first, end;
    uint64_t *uses;   /* use_record()s */
    size_t count, size;
};

/* The modelled L2: clocks in 64-byte blocks. */
struct l2 {
    uint32_t *last_use[MAX_BUFFERS];   /* eviction clock at the block's last use, plus 1; 0: never used */
    uint64_t capacity;                 /* blocks the launch's data can hold, in FILL_ONEs */
    uint64_t steps_a_block;            /* survival steps an eviction, times 2^32 */
    uint64_t fills;                    /* blocks brought into L2 so far, in FILL_ONEs */
    uint64_t reread;                   /* blocks loaded again from DRAM, expected, in FILL_ONEs */
    uint64_t first_reads;              /* blocks loaded for the first time */
    uint32_t gone[SURVIVAL_STEPS];     /* in FILL_ONEs */
    pthread_mutex_t ordering;          /* held while the next run is applied */
    pthread_cond_t applied;
    long long next_warp;               /* the first warp not yet applied */
    struct take_log pending[PENDING_TAKES_MOST];
    int pending_count;
};

struct dram_tracker {
    int buffer_count;
    uint64_t *loaded[MAX_BUFFERS];   /* bit per 64-byte block */
    uint32_t *written[MAX_BUFFERS];  /* bit per byte, a word per sector; made on a buffer's first store */
    size_t blocks[MAX_BUFFERS], sectors[MAX_BUFFERS];
    pthread_mutex_t making_written;  /* held while a written map is made */
    int written_lost;                /* a written map or a log could not be made: the estimate is incomplete */
    struct l2 *l2;                   /* NULL: every block counted once */
};

static uint64_t modelled_l2_bytes;

void dram_set_modelled_l2(uint64_t l2_bytes) { __atomic_store_n(&modelled_l2_bytes, l2_bytes, __ATOMIC_RELAXED); }
uint64_t dram_modelled_l2(void) { return __atomic_load_n(&modelled_l2_bytes, __ATOMIC_RELAXED); }

/* The thread's current run, while it is logged rather than applied. */
static __thread struct take_log *current_log;

static size_t loaded_bytes(const struct dram_tracker *t, int i) { return (t->blocks[i] / 64 + 1) * sizeof(uint64_t); }
static size_t written_bytes(const struct dram_tracker *t, int i) { return t->sectors[i] * sizeof(uint32_t); }

static size_t clock_bytes(const struct dram_tracker *t, int i) { return t->blocks[i] * sizeof(uint32_t); }

/* Whether the clocks of the launch's blocks stay within CLOCK_LIMIT_BYTES. */
static int clocks_fit(const struct dram_tracker *t)
{
    size_t total = 0;
    for (int i = 0; i < t->buffer_count; i++)
        total += clock_bytes(t, i);
    return total <= CLOCK_LIMIT_BYTES;
}

static void l2_free(const struct dram_tracker *t, struct l2 *l);

/* The modelled L2 of the given size; NULL when memory is short. */
static struct l2 *l2_new(const struct dram_tracker *t, uint64_t l2_bytes)
{
    struct l2 *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    double blocks = L2_USABLE_SHARE * (double)l2_bytes / DRAM_READ_BYTES;
    blocks = blocks < SURVIVAL_STEPS_A_CAPACITY ? SURVIVAL_STEPS_A_CAPACITY : blocks;
    l->capacity = (uint64_t)(blocks * (double)FILL_ONE);
    l->steps_a_block = (uint64_t)((double)SURVIVAL_STEPS_A_CAPACITY * 4294967296.0 / blocks);
    for (int k = 0; k < SURVIVAL_STEPS; k++)
        l->gone[k] = (uint32_t)llround((1 - exp(-(double)k / SURVIVAL_STEPS_A_CAPACITY)) * (double)FILL_ONE);
    pthread_mutex_init(&l->ordering, NULL);
    pthread_cond_init(&l->applied, NULL);
    int failed = 0;
    for (int i = 0; i < t->buffer_count; i++)
        failed = failed || !(l->last_use[i] = zeroed_new(clock_bytes(t, i)));
    if (failed) {
        l2_free(t, l);
        return NULL;
    }
    return l;
}

static void l2_free(const struct dram_tracker *t, struct l2 *l)
{
    if (!l)
        return;
    for (int i = 0; i < t->buffer_count; i++)
        zeroed_free(l->last_use[i], clock_bytes(t, i));
    for (int k = 0; k < l->pending_count; k++)
        free(l->pending[k].uses);
    pthread_mutex_destroy(&l->ordering);
    pthread_cond_destroy(&l->applied);
    free(l);
}

struct dram_tracker *dram_tracker_new(int buffer_count, const size_t *bytes, uint64_t l2_bytes)
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
    int failed = 0;
    for (int i = 0; i < buffer_count; i++) {
        t->blocks[i] = bytes[i] / DRAM_READ_BYTES + 2;
        t->sectors[i] = bytes[i] / SECTOR_BYTES + 2;
        t->loaded[i] = zeroed_new(loaded_bytes(t, i));
        failed = failed || !t->loaded[i];
    }
    if (!failed && l2_bytes > 0 && clocks_fit(t))
        failed = !(t->l2 = l2_new(t, l2_bytes));
    if (failed) {
        dram_tracker_free(t);
        return NULL;
    }
    return t;
}

void dram_tracker_free(struct dram_tracker *t)
{
    if (!t)
        return;
    l2_free(t, t->l2);
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

/* Blocks pushed out of the L2 so far: none until the fills pass its capacity. */
static uint32_t eviction_clock(const struct l2 *l)
{
    return l->fills > l->capacity ? (uint32_t)((l->fills - l->capacity) >> FILL_SHIFT) : 0;
}

/* The chance, in FILL_ONEs, that a block is no longer in L2 after `evictions` random ones. */
static uint64_t gone(const struct l2 *l, uint32_t evictions)
{
    uint64_t step = (uint64_t)evictions * l->steps_a_block >> 32;
    return step < SURVIVAL_STEPS ? l->gone[step] : FILL_ONE;
}

/* One use of a block: a first load reads it from DRAM (the once-each rule);
   a load again reads it as far as the L2 has likely let it go; whatever the
   L2 did not hold is brought in, and the block's clock restarts. The clocks
   are 32-bit: a reuse after 2^32 evictions (256 GiB) reads as a short one. */
static void use_block(struct dram_tracker *t, int buffer, uint64_t block, int store)
{
    struct l2 *l = t->l2;
    uint32_t *last = &l->last_use[buffer][block];
    uint32_t now = eviction_clock(l);
    uint64_t missed = !*last ? FILL_ONE : now == *last - 1 ? 0 : gone(l, now - (*last - 1));
    uint64_t *word = &t->loaded[buffer][block / 64], bit = 1ull << (block % 64);
    if (!store && !(*word & bit)) {
        *word |= bit;
        l->first_reads++;
    } else if (!store) {
        l->reread += missed;
    }
    l->fills += missed;
    *last = (missed ? eviction_clock(l) : now) + 1;
}

/* A use of blocks first..last of a buffer, packed in 64 bits for a log. */
enum { RECORD_BLOCK_BITS = 40, RECORD_BUFFER_BITS = 3, RECORD_COUNT_BITS = 20 };

static uint64_t use_record(int buffer, uint64_t first, uint64_t count, int store)
{
    return first | (uint64_t)buffer << RECORD_BLOCK_BITS | (count - 1) << (RECORD_BLOCK_BITS + RECORD_BUFFER_BITS) |
           (uint64_t)store << 63;
}

static void apply_run(struct dram_tracker *t, int buffer, uint64_t first, uint64_t last, int store)
{
    for (uint64_t block = first; block <= last; block++)
        use_block(t, buffer, block, store);
}

static void apply_record(struct dram_tracker *t, uint64_t record)
{
    uint64_t first = record & ((1ull << RECORD_BLOCK_BITS) - 1);
    int buffer = (int)(record >> RECORD_BLOCK_BITS & ((1u << RECORD_BUFFER_BITS) - 1));
    uint64_t count = (record >> (RECORD_BLOCK_BITS + RECORD_BUFFER_BITS) & ((1ull << RECORD_COUNT_BITS) - 1)) + 1;
    apply_run(t, buffer, first, first + count - 1, (int)(record >> 63));
}

static void apply_log(struct dram_tracker *t, const struct take_log *log)
{
    for (size_t k = 0; k < log->count; k++)
        apply_record(t, log->uses[k]);
}

/* Adds a record to the thread's log; 0 when memory is short. */
static int log_use(struct take_log *log, uint64_t record)
{
    if (log->count == log->size) {
        size_t size = log->size ? 2 * log->size : 4096;
        uint64_t *uses = realloc(log->uses, size * sizeof *uses);
        if (!uses)
            return 0;
        log->uses = uses, log->size = size;
    }
    log->uses[log->count++] = record;
    return 1;
}

/* The thread's log is full: waits until its run comes next, applies the log,
   and applies what follows as it comes (no other thread applies meanwhile). */
static void catch_up(struct dram_tracker *t)
{
    struct l2 *l = t->l2;
    struct take_log *log = current_log;
    pthread_mutex_lock(&l->ordering);
    while (log->first != l->next_warp)
        pthread_cond_wait(&l->applied, &l->ordering);
    pthread_mutex_unlock(&l->ordering);
    apply_log(t, log);
    free(log->uses);
    free(log);
    current_log = NULL;
}

/* Blocks first..last of a buffer used: applied now, or logged while the thread's run waits its turn. */
static void use_run(struct dram_tracker *t, int buffer, uint64_t first, uint64_t last, int store)
{
    if (last >= t->blocks[buffer])
        last = t->blocks[buffer] - 1;
    if (first > last)
        return;
    if (!current_log) {
        apply_run(t, buffer, first, last, store);
        return;
    }
    for (uint64_t from = first; from <= last; from += 1ull << RECORD_COUNT_BITS) {
        uint64_t count = last - from + 1 < (1ull << RECORD_COUNT_BITS) ? last - from + 1 : 1ull << RECORD_COUNT_BITS;
        if (!log_use(current_log, use_record(buffer, from, count, store)))
            t->written_lost = 1;   /* the estimate is incomplete */
    }
    if (current_log->count >= LOG_USES_MOST)
        catch_up(t);
}

/* The 64-byte blocks of one request, in runs: one for an affine request
   whose lanes leave no block out, else one a lane. */
static void use_blocks(struct dram_tracker *t, const struct warp_access *a, int store)
{
    uint64_t offset;
    if (a->affine && a->lane_count > 0 && a->step >= 0 && a->step <= DRAM_READ_BYTES) {
        int buffer = locate(t, a->first_addr, &offset);
        uint64_t end = offset + (uint64_t)(a->lane_count - 1) * (uint64_t)a->step + (uint64_t)a->bytes - 1;
        if (buffer >= 0)
            use_run(t, buffer, offset / DRAM_READ_BYTES, end / DRAM_READ_BYTES, store);
        return;
    }
    struct warp_access expanded = *a;
    warp_access_expand(&expanded);
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        int buffer = expanded.active >> lane & 1 ? locate(t, expanded.addr[lane], &offset) : -1;
        if (buffer >= 0)
            use_run(t, buffer, offset / DRAM_READ_BYTES, (offset + (uint64_t)a->bytes - 1) / DRAM_READ_BYTES, store);
    }
}

void dram_add(struct dram_tracker *t, struct dram_estimate *d, const struct warp_access *a)
{
    if (a->kind != ACCESS_LOAD)
        record_written(t, a);
    if (t->l2)
        use_blocks(t, a, a->kind != ACCESS_LOAD);
    else if (a->kind == ACCESS_LOAD)
        d->read_bytes += DRAM_READ_BYTES * add_units(t, t->loaded, t->blocks, DRAM_READ_BYTES, a);
}

/* Applies the waiting runs that now come next, in warp order; with ordering held. */
static void apply_pending(struct dram_tracker *t)
{
    struct l2 *l = t->l2;
    for (int k = 0; k < l->pending_count;) {
        struct take_log *log = &l->pending[k];
        if (log->first != l->next_warp) {
            k++;
            continue;
        }
        apply_log(t, log);
        l->next_warp = log->end;
        free(log->uses);
        *log = l->pending[--l->pending_count];
        k = 0;
    }
}

void dram_take_begin(struct dram_tracker *t, long long first_warp)
{
    if (!t || !t->l2)
        return;
    pthread_mutex_lock(&t->l2->ordering);
    int next = first_warp == t->l2->next_warp;   /* then no other thread applies until this run ends */
    pthread_mutex_unlock(&t->l2->ordering);
    if (!next && !(current_log = calloc(1, sizeof *current_log)))
        t->written_lost = 1;   /* applied out of order: the estimate is incomplete */
    if (current_log)
        current_log->first = first_warp;
}

void dram_take_end(struct dram_tracker *t, long long end_warp)
{
    if (!t || !t->l2)
        return;
    struct l2 *l = t->l2;
    struct take_log *log = current_log;
    current_log = NULL;
    pthread_mutex_lock(&l->ordering);
    if (log) {
        log->end = end_warp;
        while (log->first != l->next_warp && l->pending_count == PENDING_TAKES_MOST)
            pthread_cond_wait(&l->applied, &l->ordering);
        if (log->first != l->next_warp) {
            l->pending[l->pending_count++] = *log;
            free(log);
            pthread_mutex_unlock(&l->ordering);
            return;
        }
        apply_log(t, log);
        free(log->uses);
        free(log);
    }
    l->next_warp = end_warp;
    apply_pending(t);
    pthread_cond_broadcast(&l->applied);
    pthread_mutex_unlock(&l->ordering);
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
    if (t->l2) {
        d->reread_bytes = DRAM_READ_BYTES * ((t->l2->reread + FILL_ONE / 2) >> FILL_SHIFT);
        d->read_bytes += DRAM_READ_BYTES * t->l2->first_reads + d->reread_bytes;
    }
    /* bits 2k and 2k+1 are the two 64-byte halves of one 128-byte line */
    const uint64_t even = 0x5555555555555555ull;
    d->read_lines = 0;
    for (int i = 0; i < t->buffer_count; i++)
        for (size_t w = 0; w <= t->blocks[i] / 64; w++) {
            uint64_t bits = t->loaded[i][w];
            d->read_lines += (uint64_t)__builtin_popcountll((bits | bits >> 1) & even);
        }
}
