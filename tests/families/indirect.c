/*
** unit_indirect.c — the data-dependent families (gather, spmv, histogram):
** fill_inputs writes exactly the indices, columns and bins the access model
** uses (the model never reads a buffer, so nothing else would catch a
** mismatch before the GPU did), they depend on the params alone, and the CPU
** references give hand-computed answers on tiny inputs.
*/
#include <stdarg.h>
#include <stdlib.h>
#include "model/common.h"
#include "model/model.h"
#include "model/registry.h"
#include "../lib/tap.h"

/* A family's params: the defaults, then name, value (a long long) pairs ended by NULL. */
static struct params params_of(const struct family *f, const char *name, long long value, ...)
{
    struct params p;
    va_list args;
    params_defaults(f, &p);
    va_start(args, value);
    while (name) {
        p.v[param_index(f, name)] = value;
        name = va_arg(args, const char *);
        if (name)
            value = va_arg(args, long long);
    }
    va_end(args);
    return p;
}

/* Host buffers for one launch of f, zeroed. */
static void alloc_buffers(const struct family *f, const struct params *p, void **buffers)
{
    size_t bytes[MAX_BUFFERS];
    family_buffer_bytes(f, p, bytes);
    for (int i = 0; i < f->buffer_count; i++)
        buffers[i] = calloc(bytes[i] ? bytes[i] : 4, 1);
}

static void free_buffers(const struct family *f, void **buffers)
{
    for (int i = 0; i < f->buffer_count; i++)
        free(buffers[i]);
}

/* Whether every lane of every load into buffer `target` is the address
   base[target] + 4 * element, where element is what the buffers say that lane
   reads (expected(p, buffers, warp, k, lane), k counting such loads in the warp). */
typedef long long (*expected_element)(const struct params *p, void *const *buffers,
                                      long long warp, int k, int lane);

static int loads_match(const struct family *f, const struct params *p, void *const *buffers,
                       int target, expected_element expected, long long *checked)
{
    static struct warp_access acc[MAX_WARP_ACCESSES];
    uint64_t base[MAX_BUFFERS];
    long long warps = (f->shape(p).threads + WARP_SIZE - 1) / WARP_SIZE;
    model_buffer_bases(f->buffer_count, base);
    *checked = 0;
    for (long long w = 0; w < warps; w++) {
        int count = f->warp_accesses(p, base, w, acc), k = 0;
        for (int i = 0; i < count; i++) {
            warp_access_expand(&acc[i]);
            if (acc[i].kind != ACCESS_LOAD || acc[i].active == 0 || (acc[i].addr[__builtin_ctz(acc[i].active)] >> 40) != (uint64_t)target + 1)
                continue;
            for (int lane = 0; lane < WARP_SIZE; lane++) {
                if (!(acc[i].active >> lane & 1))
                    continue;
                long long element = expected(p, buffers, w, k, lane);
                if (acc[i].addr[lane] != base[target] + 4 * (uint64_t)element)
                    return 0;
                ++*checked;
            }
            k++;
        }
    }
    return 1;
}

/* gather: lane `lane` of warp w reads in[idx[32w + lane]]. */
static long long gather_element(const struct params *p, void *const *buffers, long long warp, int k, int lane)
{
    return ((const int32_t *)buffers[1])[warp * WARP_SIZE + lane];
}

static void test_gather(void)
{
    const struct family *f = family_find("gather");
    static const struct { long long pattern, window, n; const char *name; } cases[] = {
        { 0, 1, 1000, "random" }, { 1, 1, 1000, "sorted" }, { 2, 1, 1000, "window 1" },
        { 2, 7, 1000, "window 7" }, { 2, 100, 1000, "window 100" }, { 2, 5000, 1000, "window over n" },
        { 1, 1, 37, "sorted, a short last group" },
    };
    for (int c = 0; c < COUNT_OF(cases); c++) {
        struct params p = params_of(f, "n", cases[c].n, "pattern", cases[c].pattern,
                                    "window", cases[c].window, "seed", 7LL, NULL);
        void *buffers[MAX_BUFFERS], *again[MAX_BUFFERS];
        long long checked = 0, n = cases[c].n;
        char name[128];
        alloc_buffers(f, &p, buffers);
        alloc_buffers(f, &p, again);
        f->fill_inputs(&p, buffers, 1);
        f->fill_inputs(&p, again, 2);
        const int32_t *idx = buffers[1];
        snprintf(name, sizeof name, "gather %s: the model's loads through idx are fill_inputs' indices", cases[c].name);
        ok(loads_match(f, &p, buffers, 0, gather_element, &checked) && checked == n, name);
        snprintf(name, sizeof name, "gather %s: idx[] is the same under another backend seed", cases[c].name);
        ok(memcmp(buffers[1], again[1], 4 * (size_t)n) == 0, name);
        int in_range = 1, sorted = 1, in_window = 1;
        long long width = cases[c].pattern == 2 ? cases[c].window : cases[c].pattern == 1 ? 32 : n;
        for (long long i = 0; i < n; i++) {
            in_range &= idx[i] >= 0 && idx[i] < n;
            sorted &= i == 0 || idx[i] >= idx[i - 1];
            in_window &= idx[i] / width == i / width;
        }
        snprintf(name, sizeof name, "gather %s: every index within its slice of %lld", cases[c].name, width);
        ok(in_range && in_window, name);
        if (cases[c].pattern == 1) {
            snprintf(name, sizeof name, "gather %s: indices ascend", cases[c].name);
            ok(sorted, name);
        }
        if (cases[c].pattern == 2 && cases[c].window == 1) {
            int identity = 1;
            for (long long i = 0; i < n; i++)
                identity &= idx[i] == i;
            ok(identity, "gather window 1: idx[i] = i");
        }
        free_buffers(f, buffers);
        free_buffers(f, again);
    }

    /* The reference by hand: in = {10, 20, 30, 40}, idx = {3, 0, 0, 2}. */
    struct params p = params_of(f, "n", 4LL, NULL);
    float in[4] = { 10, 20, 30, 40 }, out[4] = { 0 };
    int32_t idx[4] = { 3, 0, 0, 2 };
    void *buffers[3] = { in, idx, out };
    f->reference(&p, buffers);
    ok(out[0] == 40 && out[1] == 10 && out[2] == 10 && out[3] == 30, "gather reference: out = {40, 10, 10, 30}");
}

/* spmv, both variants: the k-th x load of a warp, lane `lane`, reads x[col[j]]. */
static long long spmv_scalar_element(const struct params *p, void *const *buffers, long long warp, int k, int lane)
{
    const int32_t *row_ptr = buffers[0], *col = buffers[1];
    return col[row_ptr[warp * WARP_SIZE + lane] + k];
}

static long long spmv_vector_element(const struct params *p, void *const *buffers, long long warp, int k, int lane)
{
    const int32_t *row_ptr = buffers[0], *col = buffers[1];
    return col[row_ptr[warp] + k * WARP_SIZE + lane];
}

static void test_spmv(void)
{
    const struct family *f = family_find("spmv");
    static const long long shapes[][2] = { { 100, 5 }, { 70, 64 }, { 33, 40 }, { 10, 16 }, { 1, 3 } };
    for (int s = 0; s < COUNT_OF(shapes); s++) {
        long long n = shapes[s][0], per_row = shapes[s][1];
        for (int variant = 0; variant < 2; variant++) {
            struct params p = params_of(f, "n", n, "nnz_per_row", per_row, "variant", (long long)variant,
                                        "seed", 3LL, "block", 64LL, NULL);
            void *buffers[MAX_BUFFERS];
            long long checked = 0;
            char name[128];
            alloc_buffers(f, &p, buffers);
            f->fill_inputs(&p, buffers, 99);
            snprintf(name, sizeof name, "spmv %s n=%lld nnz_per_row=%lld: the model's x loads are x[col[j]]",
                     variant ? "vector" : "scalar", n, per_row);
            ok(loads_match(f, &p, buffers, 3, variant ? spmv_vector_element : spmv_scalar_element, &checked) &&
               checked == n * per_row, name);
            if (variant == 0) {
                const int32_t *row_ptr = buffers[0], *col = buffers[1];
                int shape_ok = row_ptr[0] == 0 && row_ptr[n] == n * per_row, ascending = 1;
                for (long long r = 0; r < n; r++)
                    for (int32_t k = row_ptr[r]; k < row_ptr[r + 1]; k++) {
                        shape_ok &= col[k] >= 0 && col[k] < n && row_ptr[r + 1] - row_ptr[r] == per_row;
                        ascending &= k == row_ptr[r] || col[k] > col[k - 1] || n < per_row;
                    }
                snprintf(name, sizeof name, "spmv n=%lld nnz_per_row=%lld: CSR rows of %lld, columns in range%s",
                         n, per_row, per_row, n >= per_row ? " and strictly ascending" : "");
                ok(shape_ok && ascending, name);
            }
            free_buffers(f, buffers);
        }
    }

    /* The reference by hand: [[1 0 2] [0 3 0] [4 0 5]] · [1 2 3] = [7 6 19]. */
    struct params p = params_of(f, "n", 3LL, NULL);
    int32_t row_ptr[4] = { 0, 2, 3, 5 }, col[5] = { 0, 2, 1, 0, 2 };
    float val[5] = { 1, 2, 3, 4, 5 }, x[3] = { 1, 2, 3 }, y[3] = { 0 };
    void *buffers[5] = { row_ptr, col, val, x, y };
    f->reference(&p, buffers);
    ok(y[0] == 7 && y[1] == 6 && y[2] == 19, "spmv reference: y = {7, 6, 19}");
}

static void test_histogram(void)
{
    const struct family *f = family_find("histogram");
    for (int distribution = 0; distribution < 2; distribution++) {
        struct params p = params_of(f, "n", 100000LL, "bins", 16LL, "distribution", (long long)distribution, NULL);
        void *buffers[MAX_BUFFERS], *again[MAX_BUFFERS];
        alloc_buffers(f, &p, buffers);
        alloc_buffers(f, &p, again);
        f->fill_inputs(&p, buffers, 1);
        f->fill_inputs(&p, again, 2);
        f->reference(&p, buffers);
        const uint32_t *in = buffers[0], *counts = buffers[1];
        long long total = 0, below = 1;
        for (int b = 0; b < 16; b++)
            total += counts[b];
        for (int i = 0; i < 100000; i++)
            below &= in[i] < 16;
        ok(total == 100000 && below, distribution ? "histogram skewed: 100,000 counted, every value a bin"
                                                  : "histogram uniform: 100,000 counted, every value a bin");
        ok(memcmp(buffers[0], again[0], 400000) == 0, distribution ? "histogram skewed: the data depends on the params alone"
                                                                  : "histogram uniform: the data depends on the params alone");
        if (distribution) {
            /* half in bin 0 and a quarter in bin 1, give or take 1% of n */
            ok(labs((long)counts[0] - 50000) < 1000 && labs((long)counts[1] - 25000) < 1000,
               "histogram skewed: about half in bin 0, a quarter in bin 1");
        } else {
            int even = 1;
            for (int b = 0; b < 16; b++)
                even &= labs((long)counts[b] - 6250) < 500;
            ok(even, "histogram uniform: every bin within 8% of n/16");
        }
        free_buffers(f, buffers);
        free_buffers(f, again);
    }

    /* The reference by hand: values 1, 5, 1, 2 in 4 bins (5 % 4 = 1): {0, 3, 1, 0}. */
    struct params p = params_of(f, "n", 4LL, "bins", 4LL, NULL);
    uint32_t in[4] = { 1, 5, 1, 2 }, counts[4] = { 9, 9, 9, 9 };
    void *buffers[2] = { in, counts };
    f->reference(&p, buffers);
    ok(counts[0] == 0 && counts[1] == 3 && counts[2] == 1 && counts[3] == 0, "histogram reference: {0, 3, 1, 0}");
}

int main(void)
{
    test_gather();
    test_spmv();
    test_histogram();
    return done();
}
