/*
** gather.c — out[i] = in[idx[i]]: the index load and the store are
** coalesced, the load through the index goes wherever idx[] points.
** idx[] is a pure function of (pattern, window, seed, n), computed in groups
** of 32 (one warp's worth) by fill_inputs and by the model alike.
*/
#include <string.h>
#include "model/common.h"
#include "families/indirect.h"
#include "families/gather.h"

extern const char gather_kernel_cu[];

enum { GATHER_IN, GATHER_IDX, GATHER_OUT };

static const char *const gather_patterns[] = { "random", "sorted", "window", NULL };

static const struct param_decl gather_params[] = {
    COMMON_PARAMS(3LL << 22),   /* 151 MB of buffers, about 0.25 s of model */
    [GATHER_PATTERN] = { .name = "pattern", .type = PARAM_CHOICE, .fallback = GATHER_RANDOM, .choices = gather_patterns,
      .doc = "how idx[] is made: \"random\" (anywhere in in[]), \"sorted\" (ascending: each 32 outputs read "
      "32 random elements of their own 32-element slice, in order), \"window\" (random within aligned "
      "slices of `window` elements)",
      .doc_zh = "idx[] 的生成方式：\"random\"（in[] 中任意位置），\"sorted\"（升序：每 32 个输出在自己那 32 个元素的"
      "片段里随机取 32 个并排好序），\"window\"（在宽 window 个元素的对齐片段内随机）" },
    [GATHER_WINDOW] = { .name = "window", .type = PARAM_INT, .fallback = 256, .min = 1, .max = (1LL << 31) - 1,
      .doc = "for pattern=\"window\": width in elements of the aligned slice that idx[i] stays in "
      "(n or more is the same as \"random\")",
      .doc_zh = "pattern=\"window\" 时 idx[i] 所在对齐片段的宽度（元素个数）；不小于 n 时与 \"random\" 相同" },
    [GATHER_SEED] = { .name = "seed", .type = PARAM_INT, .fallback = 1, .max = (1LL << 31) - 1,
      .doc = "seed of the hash that makes idx[] (one seed, one index array, on both backends)",
      .doc_zh = "生成 idx[] 的哈希种子（同一种子在两个后端上给出同一个下标数组）" },
};

static const struct buffer_decl gather_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "idx", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static void gather_buffer_elements(const struct params *p, size_t *elements)
{
    elements[GATHER_IN] = elements[GATHER_IDX] = elements[GATHER_OUT] = (size_t)p->v[PARAM_N];
}

/* An index, an element through it and the store: 12 bytes per thread. */
static uint64_t gather_useful_bytes(const struct params *p)
{
    return 12 * (uint64_t)p->v[PARAM_N];
}

/* Sorts a group's draws (each below count, count at most 32) by counting:
   below[v] ends up as how many draws are under v, which is where v goes. */
static void sort_draws(int32_t *draws, int count)
{
    int below[WARP_SIZE + 1] = { 0 };
    int32_t sorted[WARP_SIZE];
    for (int i = 0; i < count; i++)
        below[draws[i] + 1]++;
    for (int value = 1; value <= count; value++)
        below[value] += below[value - 1];
    for (int i = 0; i < count; i++)
        sorted[below[draws[i]]++] = draws[i];
    memcpy(draws, sorted, (size_t)count * sizeof *draws);
}

/* idx[] of group g (elements 32g .. 32g+31, one warp's): writes them to idx
   and returns how many exist (fewer in the last group, 0 past the end).
   random and window: element i draws from the aligned slice of `window`
   elements holding it (all of in[] for random); sorted: the group draws 32
   elements of its own slice and puts them in ascending order. */
static int gather_group(const struct params *p, long long group, int32_t *idx)
{
    long long n = p->v[PARAM_N], first = group * WARP_SIZE;
    long long pattern = p->v[GATHER_PATTERN], seed = p->v[GATHER_SEED];
    long long width = pattern == GATHER_WINDOWED ? p->v[GATHER_WINDOW] : n;
    int count = first >= n ? 0 : n - first < WARP_SIZE ? (int)(n - first) : WARP_SIZE;
    uint64_t key = indirect_mix((uint64_t)seed);
    if (pattern == GATHER_SORTED) {   /* the group is its own slice: draw below count, sort, shift */
        for (int lane = 0; lane < count; lane++)
            idx[lane] = (int32_t)indirect_below(indirect_hash_keyed(key, (uint64_t)(first + lane)), (uint64_t)count);
        sort_draws(idx, count);
        for (int lane = 0; lane < count; lane++)
            idx[lane] += (int32_t)first;
        return count;
    }
    long long start = first / width * width;   /* the slice of lane 0; later lanes step into the next */
    for (int lane = 0; lane < count; lane++) {
        long long i = first + lane;
        if (i - start == width)
            start = i;
        long long length = n - start < width ? n - start : width;
        idx[lane] = (int32_t)(start + (long long)indirect_below(indirect_hash_keyed(key, (uint64_t)i), (uint64_t)length));
    }
    return count;
}

/* in[] gets random floats from the backend's seed; idx[] comes from the params. */
static void gather_fill_inputs(const struct params *p, void *const *buffers, uint64_t seed)
{
    float *in = buffers[GATHER_IN];
    int32_t *idx = buffers[GATHER_IDX];
    long long n = p->v[PARAM_N];
    for (long long i = 0; i < n; i++)
        in[i] = indirect_unit_float(indirect_hash(seed ^ STREAM_VALUES, (uint64_t)i));
    for (long long g = 0; g * WARP_SIZE < n; g++)
        gather_group(p, g, idx + g * WARP_SIZE);
}

static void gather_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[GATHER_IN];
    const int32_t *idx = buffers[GATHER_IDX];
    float *out = buffers[GATHER_OUT];
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        out[i] = in[idx[i]];
}

/* ld idx[i] (coalesced), ld in[idx[i]] (lane by lane), st out[i] (coalesced). */
static int gather_warp_accesses(const struct params *p, const uint64_t *base,
                                long long warp, struct warp_access *acc)
{
    int32_t idx[WARP_SIZE];
    long long n = p->v[PARAM_N];
    int count = gather_group(p, warp, idx);
    warp_linear(&acc[0], ACCESS_LOAD, 4, warp, base[GATHER_IDX], 1, 0, n);
    acc[1].kind = ACCESS_LOAD;
    acc[1].bytes = 4;
    acc[1].affine = 0;
    acc[1].active = 0;
    for (int lane = 0; lane < count; lane++) {
        acc[1].addr[lane] = base[GATHER_IN] + 4 * (uint64_t)idx[lane];
        acc[1].active |= 1u << lane;
    }
    warp_linear(&acc[2], ACCESS_STORE, 4, warp, base[GATHER_OUT], 1, 0, n);
    return 3;
}

/* As gather_launch: gather(in, idx, out, n). */
static void gather_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "gather");
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_buffer(call, 2);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_gather = {
    .name = "gather",
    .summary = "out[i] = in[idx[i]]: each lane loads wherever its index points",
    .teaches = "scattered indices cost a sector per lane; the narrower the range a warp's indices fall in, "
               "the closer a gather comes to a coalesced copy, whatever their order within the warp",
    .summary_zh = "out[i] = in[idx[i]]：每个线程从自己的下标指向的位置读取",
    .teaches_zh = "分散的下标让每个线程各占一个扇区；一个 warp 的下标落在越窄的范围内，间接读取就越接近合并访问的复制，"
                  "与下标在 warp 内的顺序无关",
    .params = gather_params,
    .param_count = COUNT_OF(gather_params),
    .buffers = gather_buffers,
    .buffer_count = COUNT_OF(gather_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = gather_buffer_elements,
    .useful_bytes = gather_useful_bytes,
    .shape = one_thread_per_element,
    .reference = gather_reference,
    .warp_accesses = gather_warp_accesses,
    .source = gather_kernel_cu,
    .fill_inputs = gather_fill_inputs,
    .kernel_call = gather_kernel_call,
    .costs = (const struct warp_cost[]){ { 10, 5, 2 } },   /* idx[i], then x[idx[i]] */
};
