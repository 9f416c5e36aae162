/*
** model.c — the access model's accounting: for each warp instruction,
** the distinct sectors and lines its active lanes touch.
*/
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/model.h"
#include "model/registry.h"
#include "model/common.h"
#include "support/sort.h"
#include "support/threads.h"

void model_buffer_bases(int buffer_count, uint64_t *base)
{
    for (int i = 0; i < buffer_count; i++)
        base[i] = (uint64_t)(i + 1) << 40;
}

/* Number of distinct values among n unit indices (n <= 64). */
static int count_distinct(const uint64_t *unit, int n)
{
    enum { SLOTS = 128 };   /* a small open-addressing set: at most 64 units come in */
    uint64_t slot[SLOTS];
    unsigned char used[SLOTS] = { 0 };
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        unsigned h = (unsigned)((unit[i] * 0x9e3779b97f4a7c15ull) >> 57);   /* 7 bits */
        while (used[h] && slot[h] != unit[i])
            h = (h + 1) % SLOTS;
        if (!used[h]) {
            used[h] = 1;
            slot[h] = unit[i];
            distinct++;
        }
    }
    return distinct;
}

/* Distinct units of `unit_bytes` covered by the active lanes' bytes. */
static int distinct_units(const struct warp_access *a, int unit_bytes)
{
    uint64_t unit[2 * WARP_SIZE];
    int n = 0, shift = __builtin_ctz((unsigned)unit_bytes);   /* units are powers of two */
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        if (!(a->active >> lane & 1))
            continue;
        uint64_t first = a->addr[lane] >> shift;
        uint64_t last = (a->addr[lane] + a->bytes - 1) >> shift;
        unit[n++] = first;
        if (last != first)
            unit[n++] = last;
    }
    return count_distinct(unit, n);
}

/* Sectors and lines of one instruction. */
struct units {
    int sectors, lines;
};

static struct units count_units(const struct warp_access *a)
{
    struct units u = { distinct_units(a, SECTOR_BYTES), distinct_units(a, LINE_BYTES) };
    return u;
}

/* Affine accesses: the counts depend only on where the first address falls
   within a 128-byte line, the step, the width and the lane count, so they
   are computed once per such key and remembered. */
enum { AFFINE_CACHE_SIZE = 4096 };
static _Thread_local struct affine_entry {
    int used;
    uint64_t first_in_line;
    int64_t step;
    int bytes, lane_count;
    struct units units;
} affine_cache[AFFINE_CACHE_SIZE];

static struct units affine_units(const struct warp_access *a)
{
    uint64_t first_in_line = a->first_addr % LINE_BYTES;
    uint64_t hash = (first_in_line * 31 + (uint64_t)a->step * 131 + (uint64_t)a->bytes * 7 +
                     (uint64_t)a->lane_count) % AFFINE_CACHE_SIZE;
    struct affine_entry *e = &affine_cache[hash];
    if (e->used && e->first_in_line == first_in_line && e->step == a->step &&
        e->bytes == a->bytes && e->lane_count == a->lane_count)
        return e->units;
    struct warp_access expanded = *a;
    expanded.first_addr = first_in_line;   /* same counts, smaller numbers */
    warp_access_expand(&expanded);
    *e = (struct affine_entry){ 1, first_in_line, a->step, a->bytes, a->lane_count, count_units(&expanded) };
    return e->units;
}

/* Bytes the lanes asked for, each byte once: lanes reading the same element share it. */
static uint64_t distinct_bytes(const struct warp_access *a, int lanes)
{
    if (a->affine) {
        uint64_t step = (uint64_t)(a->step < 0 ? -a->step : a->step);
        return step >= (uint64_t)a->bytes ? (uint64_t)lanes * (uint64_t)a->bytes
                                           : (uint64_t)(lanes - 1) * step + (uint64_t)a->bytes;
    }
    uint64_t first[WARP_SIZE], covered = 0, end = 0;
    int n = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++)
        if (a->active >> lane & 1)
            first[n++] = a->addr[lane];
    sort_addresses(first, n);
    for (int i = 0; i < n; i++) {   /* the union of [first, first + bytes) */
        uint64_t from = first[i] > end ? first[i] : end, to = first[i] + (uint64_t)a->bytes;
        if (to > from)
            covered += to - from;
        if (to > end)
            end = to;
    }
    return covered;
}

void traffic_add(struct traffic *t, const struct warp_access *a)
{
    int lanes = a->affine ? a->lane_count : __builtin_popcount(a->active);
    if (lanes == 0)
        return;   /* the whole warp branched around it: no request */
    uint64_t bytes = distinct_bytes(a, lanes);
    struct units u = a->affine ? affine_units(a) : count_units(a);
    t->requests++;
    t->sectors += u.sectors;
    t->lines += u.lines;
    t->ideal_sectors += (bytes + SECTOR_BYTES - 1) / SECTOR_BYTES;
    t->bytes += bytes;
    t->l2_sectors += u.sectors;
    t->l2_lines += u.lines;
}

/* A load request: its traffic, of which L1 passes on to L2 only what it did not hold. */
static void load_add(struct model_counts *out, const struct warp_access *a)
{
    struct traffic before = out->load;
    traffic_add(&out->load, a);
    if (!out->l1 || out->load.requests == before.requests)
        return;
    struct l1_misses m = l1_cache_load(out->l1, a);
    out->load.l2_sectors = before.l2_sectors + (uint64_t)m.sectors;
    out->load.l2_lines = before.l2_lines + (uint64_t)m.lines;
}

/* The most distinct words any bank holds for lanes first .. first + count - 1.
   Each bank keeps a chain of its words, so a word is only compared with the
   words of its own bank: linear without conflicts. */
static int phase_wavefronts(const struct warp_access *a, int first, int count)
{
    uint64_t words[WARP_SIZE * 4];
    int next[WARP_SIZE * 4], head[SHARED_BANKS], in_bank[SHARED_BANKS] = { 0 }, n = 0, most = 0;
    for (int bank = 0; bank < SHARED_BANKS; bank++)
        head[bank] = -1;
    for (int lane = first; lane < first + count; lane++) {
        if (!(a->active >> lane & 1))
            continue;
        for (uint64_t word = a->addr[lane] / BANK_BYTES; word <= (a->addr[lane] + a->bytes - 1) / BANK_BYTES; word++) {
            int bank = (int)(word % SHARED_BANKS), k = head[bank];
            while (k >= 0 && words[k] != word)
                k = next[k];
            if (k >= 0)
                continue;   /* another lane reads this word too: no extra pass */
            words[n] = word;
            next[n] = head[bank];
            head[bank] = n++;
            most = ++in_bank[bank] > most ? in_bank[bank] : most;
        }
    }
    return most;
}

/* Whether every active lane shares its address with lane ^ partner. */
static int lanes_pair_up(const struct warp_access *a, int partner)
{
    for (int lane = 0; lane < WARP_SIZE; lane++)
        if ((a->active >> lane & 1) &&
            (!(a->active >> (lane ^ partner) & 1) || a->addr[lane] != a->addr[lane ^ partner]))
            return 0;
    return 1;
}

/* How many lanes one pass serves: the whole warp for 4-byte words, 128 bytes'
   worth of lanes for wider ones; but 16-byte lanes that pair up on one address
   (lane n with n ^ 1, or with n ^ 2) go a half warp at a time, as the H200
   serves a tile row read by a whole warp (LDS.128) in 2 wavefronts, not 4. */
static int lanes_per_phase(const struct warp_access *expanded)
{
    if (expanded->bytes <= BANK_BYTES)
        return WARP_SIZE;
    int lanes = 128 / expanded->bytes;
    if (expanded->bytes == 16 && (lanes_pair_up(expanded, 1) || lanes_pair_up(expanded, 2)))
        lanes *= 2;
    return lanes;
}

/* Wavefronts of an instruction, lane by lane, and its ideal: one per pass
   that has an active lane, the least any placement of its words could take. */
static struct shared_cost shared_cost_of_lanes(const struct warp_access *a)
{
    struct warp_access expanded = *a;
    struct shared_cost cost = { 0, 0 };
    warp_access_expand(&expanded);
    int per_phase = lanes_per_phase(&expanded);
    for (int first = 0; first < WARP_SIZE; first += per_phase) {
        int wavefronts = phase_wavefronts(&expanded, first, per_phase);
        cost.wavefronts += wavefronts;
        cost.ideal += wavefronts > 0;
    }
    return cost;
}

/* Affine shared accesses: the wavefronts depend only on where the first
   address falls within 128 bytes (the banks' width), the step, the width and
   the lanes, so they are computed once per such key and remembered. */
static _Thread_local struct shared_entry {
    int used;
    uint64_t first_in_banks;
    int64_t step;
    int bytes, first_lane, lane_count;
    struct shared_cost cost;
} shared_cache[AFFINE_CACHE_SIZE];

struct shared_cost shared_cost(const struct warp_access *a)
{
    if (!a->affine)
        return shared_cost_of_lanes(a);
    uint64_t first_in_banks = a->first_addr % (SHARED_BANKS * BANK_BYTES);
    uint64_t hash = (first_in_banks * 31 + (uint64_t)a->step * 131 + (uint64_t)a->bytes * 7 +
                     (uint64_t)a->first_lane * 17 + (uint64_t)a->lane_count) % AFFINE_CACHE_SIZE;
    struct shared_entry *e = &shared_cache[hash];
    if (e->used && e->first_in_banks == first_in_banks && e->step == a->step && e->bytes == a->bytes &&
        e->first_lane == a->first_lane && e->lane_count == a->lane_count)
        return e->cost;
    *e = (struct shared_entry){ 1, first_in_banks, a->step, a->bytes, a->first_lane, a->lane_count,
                                shared_cost_of_lanes(a) };
    return e->cost;
}

int shared_wavefronts(const struct warp_access *a)
{
    return shared_cost(a).wavefronts;
}

void shared_add(struct shared_traffic *t, const struct warp_access *a)
{
    int lanes = a->affine ? a->lane_count : __builtin_popcount(a->active);
    if (lanes == 0)
        return;
    struct shared_cost cost = shared_cost(a);
    t->requests++;
    t->wavefronts += (uint64_t)cost.wavefronts;
    t->ideal_wavefronts += (uint64_t)cost.ideal;
}

/* A constant-memory load: the constant cache serves one address per pass.
   Affine lanes are all one address (step 0) or all distinct. */
static void constant_add(struct constant_traffic *t, const struct warp_access *a)
{
    uint64_t addresses[WARP_SIZE];
    int n = 0;
    if (a->affine) {
        if (a->lane_count > 0) {
            t->requests++;
            t->passes += a->step == 0 ? 1 : (uint64_t)a->lane_count;
        }
        return;
    }
    for (int lane = 0; lane < WARP_SIZE; lane++)
        if (a->active >> lane & 1)
            addresses[n++] = a->addr[lane];
    if (n == 0)
        return;
    t->requests++;
    t->passes += (uint64_t)count_distinct(addresses, n);
}

/* Operations per global atomic address over a launch: open addressing,
   grown by doubling up to ATOMIC_ADDRESSES_MOST slots. A key is the address
   times 2, plus 1 for a reduction, or a sector's (SECTOR_KEY), whose count
   is requests; 0 marks an empty slot (model addresses start at 2^40, so no
   key is 0). */
struct address_map {
    uint64_t *key, *operations;
    size_t slots, used;
    int full;   /* an address was left out: the launch-wide figures are lower bounds */
};

enum { ADDRESS_MAP_FIRST_SLOTS = 1024 };

static size_t address_slot(const struct address_map *m, uint64_t key)
{
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (m->slots - 1);
    while (m->key[h] && m->key[h] != key)
        h = (h + 1) & (m->slots - 1);
    return h;
}

/* Doubles the slots (the first time: makes them); -1 when past the cap or out of memory. */
static int address_map_grow(struct address_map *m)
{
    size_t slots = m->slots ? 2 * m->slots : ADDRESS_MAP_FIRST_SLOTS;
    if (slots > ATOMIC_ADDRESSES_MOST)
        return -1;
    struct address_map bigger = { calloc(slots, sizeof *m->key), calloc(slots, sizeof *m->operations), slots, m->used, m->full };
    if (!bigger.key || !bigger.operations) {
        free(bigger.key), free(bigger.operations);
        return -1;
    }
    for (size_t i = 0; i < m->slots; i++)
        if (m->key[i]) {
            size_t h = address_slot(&bigger, m->key[i]);
            bigger.key[h] = m->key[i];
            bigger.operations[h] = m->operations[i];
        }
    free(m->key), free(m->operations);
    *m = bigger;
    return 0;
}

/* Adds operations on one key to c's map, made when first needed. The map
   stays at most three quarters full: a new key that finds no room is left
   out, and the map says so. */
static void address_map_add(struct model_counts *c, uint64_t key, uint64_t operations)
{
    struct address_map *m = c->atomic_addresses;
    if (!m && !(m = c->atomic_addresses = calloc(1, sizeof *m))) {
        c->atomic.at_least = c->reduction.at_least = 1;
        return;
    }
    if (4 * (m->used + 1) > 3 * m->slots)
        address_map_grow(m);   /* at the cap it stays as it is */
    size_t h = m->slots ? address_slot(m, key) : 0;
    if (!m->slots || (!m->key[h] && 4 * (m->used + 1) > 3 * m->slots)) {
        m->full = 1;
        return;
    }
    if (!m->key[h]) {
        m->key[h] = key;
        m->used++;
    }
    m->operations[h] += operations;
}

static void address_map_free(struct address_map *m)
{
    if (m)
        free(m->key), free(m->operations), free(m);
}

/* A map key for a sector's requests, apart from the addresses' keys (model
   addresses are below 2^63). */
#define SECTOR_KEY(address, reduction) ((1ull << 63) | ((address) / SECTOR_BYTES) << 1 | (reduction))
#define IS_SECTOR_KEY(key) ((key) >> 63)

/* The sectors of one atomic request as the H200 counts them (its
   l1tex__t_sectors_pipe_lsu_mem_global_op_red/atom): lanes on one address
   go in passes, the k-th lane of each address in pass k, and each pass
   counts its distinct sectors. histogram, 2^20 elements: 256 uniform bins
   741,817 sectors (20.4 distinct a request, plus the lanes that repeat an
   address), skewed 530,639; the H200 the same. address[] is sorted. */
static int atomic_sectors(const uint64_t *address, int n, int passes)
{
    int sectors = 0;
    for (int pass = 0; pass < passes; pass++) {
        uint64_t last = UINT64_MAX;
        for (int i = 0, j; i < n; i = j) {
            for (j = i; j < n && address[j] == address[i]; j++)
                ;
            if (j - i > pass && address[i] / SECTOR_BYTES != last) {
                last = address[i] / SECTOR_BYTES;
                sectors++;
            }
        }
    }
    return sectors;
}

/* One atomic instruction: its requests, sectors (global), operations, the
   most lanes on one address, each address's operations and each sector's
   requests (global). */
static void atomic_add(struct model_counts *c, struct atomic_traffic *t, const struct warp_access *a)
{
    struct warp_access lanes = *a;
    uint64_t address[WARP_SIZE];
    int n = 0, most = 0, global = a->kind != ACCESS_SHARED_ATOMIC, reduction = a->kind == ACCESS_REDUCTION;
    warp_access_expand(&lanes);
    for (int lane = 0; lane < WARP_SIZE; lane++)
        if (lanes.active >> lane & 1)
            address[n++] = lanes.addr[lane];
    if (n == 0)
        return;   /* the whole warp branched around it: no request */
    sort_addresses(address, n);
    t->requests++;
    t->operations += (uint64_t)n;
    for (int i = 0, j; i < n; i = j) {   /* runs of one address */
        for (j = i; j < n && address[j] == address[i]; j++)
            ;
        most = j - i > most ? j - i : most;
        if (global)
            address_map_add(c, address[i] * 2 + reduction, (uint64_t)(j - i));
        if (global && (i == 0 || address[i] / SECTOR_BYTES != address[i - 1] / SECTOR_BYTES))
            address_map_add(c, SECTOR_KEY(address[i], reduction), 1);
    }
    if (global)
        t->sectors += (uint64_t)atomic_sectors(address, n, most);
    t->same_address_lanes += (uint64_t)most;
}

/* The DRAM side of an instruction that reads global memory and, when
   writes, writes the same lanes back: dram_add's load, then its store. */
static void dram_read_write(struct dram_tracker *dram, struct dram_estimate *d, const struct warp_access *a, int writes)
{
    struct warp_access as = *a;
    as.kind = ACCESS_LOAD;
    dram_add(dram, d, &as);
    if (writes) {
        as.kind = ACCESS_STORE;
        dram_add(dram, d, &as);
    }
}

static int has_lanes(const struct warp_access *a)
{
    return a->affine ? a->lane_count > 0 : a->active != 0;
}

/* Routes one instruction to the counts of its kind. */
void model_count_access(struct model_counts *out, struct dram_tracker *dram, const struct warp_access *a)
{
    switch (a->kind) {
    case ACCESS_SHARED_ATOMIC:
        atomic_add(out, &out->shared_atomic, a);
        return;
    case ACCESS_ATOMIC:
    case ACCESS_REDUCTION:
        atomic_add(out, a->kind == ACCESS_ATOMIC ? &out->atomic : &out->reduction, a);
        if (dram && has_lanes(a))
            dram_read_write(dram, &out->dram, a, 1);
        return;
    case ACCESS_LDGSTS:
        /* The H200 counts their global side under op_ld too: prefetch
           cp_async, 2^20 elements, 32,768 load requests, all LDGSTS (ncu,
           2026-12-02); so they are loads as well, and only the shared
           side is not a shared store. */
        traffic_add(&out->ldgsts, a);
        load_add(out, a);
        if (dram && has_lanes(a))
            dram_read_write(dram, &out->dram, a, 0);
        return;
    case ACCESS_SHARED_LOAD:
        shared_add(&out->shared_load, a);
        return;
    case ACCESS_SHARED_STORE:
        shared_add(&out->shared_store, a);
        return;
    case ACCESS_CONSTANT_LOAD:
        constant_add(&out->constant, a);
        return;
    default:
        if (a->kind == ACCESS_LOAD)
            load_add(out, a);
        else
            traffic_add(&out->store, a);
        if (dram && has_lanes(a))
            dram_add(dram, &out->dram, a);
    }
}

static void traffic_sum(struct traffic *into, const struct traffic *part)
{
    into->requests += part->requests;
    into->sectors += part->sectors;
    into->lines += part->lines;
    into->ideal_sectors += part->ideal_sectors;
    into->bytes += part->bytes;
    into->l2_sectors += part->l2_sectors;
    into->l2_lines += part->l2_lines;
}

static void shared_sum(struct shared_traffic *into, const struct shared_traffic *part)
{
    into->requests += part->requests;
    into->wavefronts += part->wavefronts;
    into->ideal_wavefronts += part->ideal_wavefronts;
}

static void atomic_sum(struct atomic_traffic *into, const struct atomic_traffic *part)
{
    into->requests += part->requests;
    into->sectors += part->sectors;
    into->operations += part->operations;
    into->same_address_lanes += part->same_address_lanes;
    /* figures already finished (another run's): the larger, as a lower bound */
    into->hottest_operations = part->hottest_operations > into->hottest_operations ? part->hottest_operations
                                                                                    : into->hottest_operations;
    into->addresses = part->addresses > into->addresses ? part->addresses : into->addresses;
    into->hottest_sector_requests = part->hottest_sector_requests > into->hottest_sector_requests
                                        ? part->hottest_sector_requests : into->hottest_sector_requests;
    into->at_least |= part->at_least;
}

/* Moves part's address map into into's. */
static void address_map_merge(struct model_counts *into, struct model_counts *part)
{
    struct address_map *m = part->atomic_addresses;
    if (!m)
        return;
    part->atomic_addresses = NULL;
    if (!into->atomic_addresses && !m->full) {
        into->atomic_addresses = m;   /* the first: taken as it is */
        return;
    }
    for (size_t i = 0; i < m->slots; i++)
        if (m->key[i])
            address_map_add(into, m->key[i], m->operations[i]);
    if (m->full && into->atomic_addresses)
        into->atomic_addresses->full = 1;
    else if (m->full)
        into->atomic.at_least = into->reduction.at_least = 1;
    address_map_free(m);
}

void model_counts_finish(struct model_counts *c)
{
    struct address_map *m = c->atomic_addresses;
    if (!m)
        return;
    for (size_t i = 0; i < m->slots; i++) {
        if (!m->key[i])
            continue;
        struct atomic_traffic *t = m->key[i] & 1 ? &c->reduction : &c->atomic;
        if (IS_SECTOR_KEY(m->key[i])) {
            if (m->operations[i] > t->hottest_sector_requests)
                t->hottest_sector_requests = m->operations[i];
            continue;
        }
        t->addresses++;
        if (m->operations[i] > t->hottest_operations)
            t->hottest_operations = m->operations[i];
    }
    if (m->full)
        c->atomic.at_least = c->reduction.at_least = 1;
    address_map_free(m);
    c->atomic_addresses = NULL;
}

/* Adds one thread's counts into the launch's (the DRAM tracker is shared). */
void model_counts_add(struct model_counts *into, struct model_counts *part)
{
    traffic_sum(&into->load, &part->load);
    traffic_sum(&into->store, &part->store);
    traffic_sum(&into->ldgsts, &part->ldgsts);
    atomic_sum(&into->atomic, &part->atomic);
    atomic_sum(&into->reduction, &part->reduction);
    atomic_sum(&into->shared_atomic, &part->shared_atomic);
    address_map_merge(into, part);
    shared_sum(&into->shared_load, &part->shared_load);
    shared_sum(&into->shared_store, &part->shared_store);
    into->constant.requests += part->constant.requests;
    into->constant.passes += part->constant.passes;
    into->dram.read_bytes += part->dram.read_bytes;
    into->dram.write_bytes += part->dram.write_bytes;
}

/* Threads take warps in runs of at most MAX_WARPS_PER_TAKE (long runs keep
   them on different words of the DRAM bitmaps), about 16 runs each. */
enum { MAX_MODEL_THREADS = 16, MAX_WARPS_PER_TAKE = 2048, WARPS_PER_THREAD = 512 };

/* One launch's warps, handed out WARPS_PER_TAKE at a time to the threads. */
struct warp_job {
    const struct family *family;
    const struct params *params;
    uint64_t base[MAX_BUFFERS];
    long long warps;
    long long warps_per_block;
    int loads_l2_only;                 /* the family's `load` param says "cg" */
    long long per_take;                /* whole blocks: each block's loads meet one L1 */
    long long next_warp;               /* taken atomically, per_take at a time */
    struct dram_tracker *dram;
    volatile sig_atomic_t *interrupted;
    int stopped;
};

struct model_thread {
    struct warp_job *job;
    struct model_counts counts;
    pthread_t thread;
};

/* Tells the counter one warp's instructions, with the block they ran in. */
static void count_accesses(const struct warp_job *job, long long w, struct warp_access *acc, int count,
                           struct model_counts *out)
{
    for (int i = 0; i < count; i++) {
        acc[i].block = w / job->warps_per_block;
        acc[i].l2_only = job->loads_l2_only;
        model_count_access(out, job->dram, &acc[i]);
    }
}

static void count_warp(const struct warp_job *job, long long w, struct warp_access *acc, struct model_counts *out)
{
    const struct family *f = job->family;
    if (f->warp_page) {   /* loops: the warp's instructions page by page */
        int count;
        for (long long page = 0; (count = f->warp_page(job->params, job->base, w, page, acc)) > 0; page++)
            count_accesses(job, w, acc, count, out);
        return;
    }
    count_accesses(job, w, acc, f->warp_accesses(job->params, job->base, w, acc), out);
}

static void *count_warps(void *argument)
{
    struct model_thread *self = argument;
    struct warp_job *job = self->job;
    struct warp_access acc[MAX_WARP_ACCESSES];
    struct model_counts counts = { .l1 = l1_cache_new() };   /* here, not in self: the threads' counts would share cache lines */
    long long first;
    while ((first = __atomic_fetch_add(&job->next_warp, job->per_take, __ATOMIC_RELAXED)) < job->warps) {
        long long end = first + job->per_take < job->warps ? first + job->per_take : job->warps, w;
        dram_take_begin(job->dram, first);
        for (w = first; w < end && !(job->interrupted && *job->interrupted); w++)   /* a warp can be long (matmul's) */
            count_warp(job, w, acc, &counts);
        dram_take_end(job->dram, end);
        if (w < end) {
            __atomic_store_n(&job->stopped, 1, __ATOMIC_RELAXED);
            break;
        }
    }
    l1_cache_free(counts.l1);
    counts.l1 = NULL;
    self->counts = counts;
    return NULL;
}

int model_threads_wanted(void)
{
    const char *text = getenv("WARPLAB_MODEL_THREADS");
    long wanted = text && *text ? strtol(text, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    return wanted < 1 ? 1 : wanted > MAX_MODEL_THREADS ? MAX_MODEL_THREADS : (int)wanted;
}

/* How many threads to count with: as many as wanted, and one for launches too small to share. */
static int model_threads(long long warps)
{
    long useful = warps / WARPS_PER_THREAD, wanted = model_threads_wanted();
    return useful < 1 ? 1 : useful < wanted ? (int)useful : (int)wanted;
}

/* Starts threads 1.. of the job; returns how many started, counting the caller's. */
static int start_threads(struct model_thread *threads, int count)
{
    int started = 1;
    while (started < count && start_worker(&threads[started].thread, count_warps, &threads[started]) == 0)
        started++;
    return started;
}

/* Warp-wide memory instructions of every kind (cp.async's are loads too). */
static uint64_t memory_instructions(const struct model_counts *c)
{
    return c->load.requests + c->store.requests + c->shared_load.requests + c->shared_store.requests +
           c->constant.requests + c->atomic.requests + c->reduction.requests + c->shared_atomic.requests;
}

/* The instructions the warps issue, from the family's warp cost. */
static uint64_t issued_instructions(const struct family *f, const struct params *p, long long warps,
                                    const struct model_counts *c)
{
    const struct warp_cost *cost = family_warp_cost(f, p);
    return (uint64_t)llround(cost->instructions * (double)warps + cost->per_access * (double)memory_instructions(c));
}

int model_run(const struct family *f, const struct params *p,
              struct model_counts *out, volatile sig_atomic_t *interrupted)
{
    struct model_thread threads[MAX_MODEL_THREADS];
    struct launch_shape shape = f->shape(p);
    struct warp_job job = { .family = f, .params = p, .interrupted = interrupted,
                             .warps = (shape.threads + WARP_SIZE - 1) / WARP_SIZE,
                             .warps_per_block = (shape.block + WARP_SIZE - 1) / WARP_SIZE,
                             .loads_l2_only = f->load_hint_by && p->v[f->load_hint_by] == LOAD_CG };
    size_t bytes[MAX_BUFFERS];
    memset(out, 0, sizeof *out);
    model_buffer_bases(f->buffer_count, job.base);
    family_buffer_bytes(f, p, bytes);
    job.dram = dram_tracker_new(f->buffer_count, bytes, dram_modelled_l2());
    out->dram.estimated = job.dram != NULL;
    int count = model_threads(job.warps);
    job.per_take = job.warps / (16 * count);
    job.per_take = job.per_take < 1 ? 1 : job.per_take > MAX_WARPS_PER_TAKE ? MAX_WARPS_PER_TAKE : job.per_take;
    job.per_take = (job.per_take + job.warps_per_block - 1) / job.warps_per_block * job.warps_per_block;
    for (int k = 0; k < count; k++)
        threads[k] = (struct model_thread){ .job = &job };
    int started = start_threads(threads, count);
    count_warps(&threads[0]);
    for (int k = 1; k < started; k++)
        pthread_join(threads[k].thread, NULL);
    for (int k = 0; k < started; k++)
        model_counts_add(out, &threads[k].counts);
    model_counts_finish(out);
    out->instructions = issued_instructions(f, p, job.warps, out);
    if (job.stopped) {
        dram_tracker_free(job.dram);
        return -1;
    }
    if (job.dram)
        dram_tracker_finish(job.dram, &out->dram);
    dram_tracker_free(job.dram);
    return 0;
}

double per_request(uint64_t count, uint64_t requests)
{
    if (requests == 0)
        return 0.0;
    return round(100.0 * (double)count / (double)requests) / 100.0;
}
