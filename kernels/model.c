/*
** model.c — the access model's accounting: for each warp instruction,
** the distinct sectors and lines its active lanes touch.
*/
#include <math.h>
#include <string.h>
#include "model.h"
#include "registry.h"
#include "common.h"

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

/* Sorts up to 32 addresses in place (insertion sort: lanes usually come in order). */
static void sort_addresses(uint64_t *value, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t key = value[i];
        int j = i - 1;
        while (j >= 0 && value[j] > key) {
            value[j + 1] = value[j];
            j--;
        }
        value[j + 1] = key;
    }
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
static struct affine_entry {
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
static struct shared_entry {
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

/* A constant-memory load: the constant cache serves one address per pass. */
static void constant_add(struct constant_traffic *t, const struct warp_access *a)
{
    struct warp_access expanded = *a;
    uint64_t addresses[WARP_SIZE];
    int n = 0;
    warp_access_expand(&expanded);
    for (int lane = 0; lane < WARP_SIZE; lane++)
        if (expanded.active >> lane & 1)
            addresses[n++] = expanded.addr[lane];
    if (n == 0)
        return;
    t->requests++;
    t->passes += (uint64_t)count_distinct(addresses, n);
}

/* Routes one instruction to the counts of its kind. */
static void count_access(struct model_counts *out, struct dram_tracker *dram, const struct warp_access *a)
{
    switch (a->kind) {
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
        traffic_add(a->kind == ACCESS_LOAD ? &out->load : &out->store, a);
        if (dram && (a->affine ? a->lane_count > 0 : a->active != 0))
            dram_add(dram, &out->dram, a);
    }
}

int model_run(const struct family *f, const struct params *p,
              struct model_counts *out, volatile sig_atomic_t *interrupted)
{
    uint64_t base[MAX_BUFFERS];
    struct warp_access acc[MAX_WARP_ACCESSES];
    struct launch_shape shape = f->shape(p);
    long long warps = (shape.threads + WARP_SIZE - 1) / WARP_SIZE;

    size_t bytes[MAX_BUFFERS];
    memset(out, 0, sizeof *out);
    model_buffer_bases(f->buffer_count, base);
    family_buffer_bytes(f, p, bytes);
    struct dram_tracker *dram = dram_tracker_new(f->buffer_count, bytes);
    out->dram.estimated = dram != NULL;
    for (long long w = 0; w < warps; w++) {
        if ((w & 0xffff) == 0 && interrupted && *interrupted) {
            dram_tracker_free(dram);
            return -1;
        }
        if (f->warp_page) {   /* loops: the warp's instructions page by page */
            int count;
            for (long long page = 0; (count = f->warp_page(p, base, w, page, acc)) > 0; page++)
                for (int i = 0; i < count; i++)
                    count_access(out, dram, &acc[i]);
            continue;
        }
        int count = f->warp_accesses(p, base, w, acc);
        for (int i = 0; i < count; i++)
            count_access(out, dram, &acc[i]);
    }
    if (dram)
        dram_tracker_finish(dram, &out->dram);
    dram_tracker_free(dram);
    return 0;
}

double per_request(uint64_t count, uint64_t requests)
{
    if (requests == 0)
        return 0.0;
    return round(100.0 * (double)count / (double)requests) / 100.0;
}
