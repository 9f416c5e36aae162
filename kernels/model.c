/*
** model.c — the access model's accounting: for each warp instruction,
** the distinct sectors and lines its active lanes touch.
*/
#include <math.h>
#include <string.h>
#include "model.h"
#include "registry.h"

void model_buffer_bases(int buffer_count, uint64_t *base)
{
    for (int i = 0; i < buffer_count; i++)
        base[i] = (uint64_t)(i + 1) << 40;
}

/* Number of distinct values among n unit indices (n <= 64); insertion sort
   first, since lanes usually walk upwards and the sort is then linear. */
static int count_distinct(uint64_t *unit, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t key = unit[i];
        int j = i - 1;
        while (j >= 0 && unit[j] > key) {
            unit[j + 1] = unit[j];
            j--;
        }
        unit[j + 1] = key;
    }
    int distinct = n > 0;
    for (int i = 1; i < n; i++)
        distinct += unit[i] != unit[i - 1];
    return distinct;
}

/* Distinct units of `unit_bytes` covered by the active lanes' bytes. */
static int distinct_units(const struct warp_access *a, int unit_bytes)
{
    uint64_t unit[2 * WARP_SIZE];
    int n = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        if (!(a->active >> lane & 1))
            continue;
        uint64_t first = a->addr[lane] / unit_bytes;
        uint64_t last = (a->addr[lane] + a->bytes - 1) / unit_bytes;
        unit[n++] = first;
        if (last != first)
            unit[n++] = last;
    }
    return count_distinct(unit, n);
}

void traffic_add(struct traffic *t, const struct warp_access *a)
{
    if (a->active == 0)
        return;   /* the whole warp branched around it: no request */
    uint64_t bytes = (uint64_t)__builtin_popcount(a->active) * (uint64_t)a->bytes;
    t->requests++;
    t->sectors += distinct_units(a, SECTOR_BYTES);
    t->lines += distinct_units(a, LINE_BYTES);
    t->ideal_sectors += (bytes + SECTOR_BYTES - 1) / SECTOR_BYTES;
    t->bytes += bytes;
}

int model_run(const struct family *f, const struct params *p,
              struct model_counts *out, volatile sig_atomic_t *interrupted)
{
    uint64_t base[MAX_BUFFERS];
    struct warp_access acc[MAX_WARP_ACCESSES];
    struct launch_shape shape = f->shape(p);
    long long warps = (shape.threads + WARP_SIZE - 1) / WARP_SIZE;

    memset(out, 0, sizeof *out);
    model_buffer_bases(f->buffer_count, base);
    for (long long w = 0; w < warps; w++) {
        if ((w & 0xffff) == 0 && interrupted && *interrupted)
            return -1;
        int count = f->warp_accesses(p, base, w, acc);
        for (int i = 0; i < count; i++)
            traffic_add(acc[i].kind == ACCESS_LOAD ? &out->load : &out->store, &acc[i]);
    }
    return 0;
}

double per_request(uint64_t count, uint64_t requests)
{
    if (requests == 0)
        return 0.0;
    return round(100.0 * (double)count / (double)requests) / 100.0;
}
