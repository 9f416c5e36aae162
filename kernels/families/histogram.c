/*
** histogram.c — counts[in[i] % bins] += 1 with atomics in global memory,
** or in a per-block copy in shared memory added to the global counts at
** the end. in[] is a pure function of (n, bins, distribution): element i's
** bin comes from a hash of i under a fixed seed, so the model computes every
** lane's bin without the buffer.
**
** The model lists the loads of in[], the atomics at each lane's bin, and for
** the shared variant the stores that zero the shared bins, the shared
** atomics, and per round the load of a shared bin and its atomic add to the
** global count. Neither kernel uses atomicAdd's result, so ptxas issues the
** global ones as reductions (REDG), which Nsight Compute counts under op_red,
** not op_atom: the model lists them as ACCESS_REDUCTION, the kind the
** hardware counts them under. The shared ones are ATOMS (ACCESS_SHARED_ATOMIC).
*/
#include <string.h>
#include "model/common.h"
#include "families/indirect.h"
#include "families/histogram.h"

extern const char histogram_kernel_cu[];

enum { HISTOGRAM_IN, HISTOGRAM_COUNTS };
enum { HISTOGRAM_MAX_BINS = 1024 };
static const uint64_t HISTOGRAM_DATA_SEED = 0x6869737467726d;   /* fixed: no parameter picks the data */

/* The shared variant with blocks of 32 zeroes bins/32 rounds, and reads back and adds bins/32 rounds, each. */
_Static_assert(2 + 3 * (HISTOGRAM_MAX_BINS / 32) <= MAX_WARP_ACCESSES, "the bins must fit one warp's list");

static const char *const histogram_variants[] = { "global", "shared", NULL };
static const char *const histogram_distributions[] = { "uniform", "skewed", NULL };

static const struct param_decl histogram_params[] = {
    COMMON_PARAMS(1LL << 25),
    [HISTOGRAM_VARIANT] = { .name = "variant", .type = PARAM_CHOICE, .fallback = HISTOGRAM_GLOBAL, .choices = histogram_variants,
      .doc = "\"global\": atomics on the counts in global memory; \"shared\": each block counts in shared "
      "memory, then adds its counts to the global ones",
      .doc_zh = "\"global\"：直接对全局内存中的计数做原子加；\"shared\"：每个线程块先在共享内存中计数，再加到全局计数上" },
    [HISTOGRAM_BINS] = { .name = "bins", .type = PARAM_INT, .fallback = 256, .min = 1, .max = HISTOGRAM_MAX_BINS,
      .doc = "number of bins",
      .doc_zh = "直方图的桶数" },
    [HISTOGRAM_DISTRIBUTION] = { .name = "distribution", .type = PARAM_CHOICE, .fallback = HISTOGRAM_UNIFORM, .choices = histogram_distributions,
      .doc = "\"uniform\": every bin equally likely; \"skewed\": half the elements in bin 0, a quarter in bin 1, "
      "and so on (the last bin takes the rest)",
      .doc_zh = "\"uniform\"：各桶概率相同；\"skewed\"：一半元素落在 0 号桶，四分之一落在 1 号桶，依此类推（最后一个桶收下其余的）" },
};

static const struct buffer_decl histogram_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "counts", BUFFER_OUT, 4 },
};

static void histogram_buffer_elements(const struct params *p, size_t *elements)
{
    elements[HISTOGRAM_IN] = (size_t)p->v[PARAM_N];
    elements[HISTOGRAM_COUNTS] = (size_t)p->v[HISTOGRAM_BINS];
}

static uint64_t histogram_useful_bytes(const struct params *p)
{
    return 4 * ((uint64_t)p->v[PARAM_N] + (uint64_t)p->v[HISTOGRAM_BINS]);
}

/* Element i's bin: uniform, or the number of trailing zero bits of its hash. */
static uint32_t histogram_bin(const struct params *p, long long i)
{
    uint64_t hash = indirect_hash(HISTOGRAM_DATA_SEED, (uint64_t)i);
    uint32_t bins = (uint32_t)p->v[HISTOGRAM_BINS];
    if (p->v[HISTOGRAM_DISTRIBUTION] == HISTOGRAM_UNIFORM)
        return (uint32_t)indirect_below(hash, bins);
    uint32_t zeros = hash ? (uint32_t)__builtin_ctzll(hash) : 64;
    return zeros < bins - 1 ? zeros : bins - 1;
}

static void histogram_fill_inputs(const struct params *p, void *const *buffers, uint64_t seed)
{
    uint32_t *in = buffers[HISTOGRAM_IN];
    (void)seed;   /* the data is a function of the params alone */
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        in[i] = histogram_bin(p, i);
}

static void histogram_reference(const struct params *p, void *const *buffers)
{
    const uint32_t *in = buffers[HISTOGRAM_IN];
    uint32_t *counts = buffers[HISTOGRAM_COUNTS];
    uint32_t bins = (uint32_t)p->v[HISTOGRAM_BINS];
    memset(counts, 0, bins * sizeof *counts);
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        counts[in[i] % bins]++;
}

/* One round of `for (b = threadIdx.x; b < bins; b += blockDim.x)` over the
   shared bins: lanes whose b is under bins, 4 bytes apart. */
static void shared_round(struct warp_access *a, enum access_kind kind, long long first_bin, long long bins)
{
    warp_affine(a, kind, 4, 4 * (uint64_t)first_bin, 4, bins - first_bin);
}

/* atomicAdd(&bins[in[i] % bins], 1) by the warp's lanes whose i is below
   n: at bins_base + 4 * each lane's bin (global, or the shared copy at 0). */
static void bin_atomics(const struct params *p, struct warp_access *a, enum access_kind kind, uint64_t bins_base,
                        long long warp)
{
    uint64_t addr[WARP_SIZE] = { 0 };
    uint32_t active = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        long long i = warp * WARP_SIZE + lane;
        if (i >= p->v[PARAM_N])
            break;
        addr[lane] = bins_base + 4 * (uint64_t)histogram_bin(p, i);
        active |= 1u << lane;
    }
    access_from_lanes(a, kind, 4, addr, active);
}

/* global: ld in[i], red at counts[bin]. shared: st.shared per round zeroing
   the bins, ld in[i], atom.shared at the lane's bin, then per round
   ld.shared of a bin and red of it into counts[b]. Every warp of a block
   takes part in both rounds loops, whether or not its threads have elements. */
static int histogram_warp_accesses(const struct params *p, const uint64_t *base,
                                   long long warp, struct warp_access *acc)
{
    long long n = p->v[PARAM_N], bins = p->v[HISTOGRAM_BINS], block = p->v[PARAM_BLOCK];
    long long first_bin = warp % (block / WARP_SIZE) * WARP_SIZE;
    int count = 0;
    if (p->v[HISTOGRAM_VARIANT] == HISTOGRAM_GLOBAL) {
        warp_linear(&acc[count++], ACCESS_LOAD, 4, warp, base[HISTOGRAM_IN], 1, 0, n);
        bin_atomics(p, &acc[count++], ACCESS_REDUCTION, base[HISTOGRAM_COUNTS], warp);
        return count;
    }
    for (long long b = first_bin; b < bins; b += block)
        shared_round(&acc[count++], ACCESS_SHARED_STORE, b, bins);
    warp_linear(&acc[count++], ACCESS_LOAD, 4, warp, base[HISTOGRAM_IN], 1, 0, n);
    bin_atomics(p, &acc[count++], ACCESS_SHARED_ATOMIC, 0, warp);
    for (long long b = first_bin; b < bins; b += block) {
        shared_round(&acc[count++], ACCESS_SHARED_LOAD, b, bins);
        warp_affine(&acc[count++], ACCESS_REDUCTION, 4, base[HISTOGRAM_COUNTS] + 4 * (uint64_t)b, 4, bins - b);
    }
    return count;
}

/* As histogram_launch: histogram_shared (bins counters in dynamic shared memory) or histogram_global. */
static void histogram_kernel_call(const struct params *p, struct kernel_call *call)
{
    int shared = p->v[HISTOGRAM_VARIANT] == HISTOGRAM_SHARED;
    call_kernel(call, one_thread_per_element(p), "%s", shared ? "histogram_shared" : "histogram_global");
    call->shared_bytes = shared ? (unsigned)(4 * p->v[HISTOGRAM_BINS]) : 0;
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[PARAM_N]);
    call_value(call, p->v[HISTOGRAM_BINS]);
}

const struct family family_histogram = {
    .name = "histogram",
    .summary = "counts[in[i] % bins] += 1 with atomics in global memory or in a per-block shared copy",
    .teaches = "global atomics make every element a read-modify-write in L2 and pile up on popular bins; a "
               "per-block copy in shared memory keeps them on the SM and leaves one global atomic per bin "
               "and block (the card counts atomics on a row of their own, apart from loads and stores)",
    .summary_zh = "counts[in[i] % bins] += 1：在全局内存上做原子加，或先在每个线程块的共享内存副本中计数",
    .teaches_zh = "全局原子操作让每个元素都在 L2 中做一次读-改-写，并堆积在热门的桶上；每个线程块在共享内存中的副本"
                  "把它们留在 SM 内，每个桶每个线程块只剩一次全局原子操作（卡片把原子操作单列一行，与读取和写入分开）",
    .params = histogram_params,
    .param_count = COUNT_OF(histogram_params),
    .buffers = histogram_buffers,
    .buffer_count = COUNT_OF(histogram_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = histogram_buffer_elements,
    .useful_bytes = histogram_useful_bytes,
    .shape = one_thread_per_element,
    .reference = histogram_reference,
    .warp_accesses = histogram_warp_accesses,
    .source = histogram_kernel_cu,
    .fill_inputs = histogram_fill_inputs,
    .accumulates = 1,
    .kernel_call = histogram_kernel_call,
    .costs = (const struct warp_cost[]){ { 38, 0, 1 }, { 34.33, 7.34, 1 } },   /* global, shared */
    .cost_by = HISTOGRAM_VARIANT,
};
