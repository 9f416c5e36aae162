/*
** reuse.c — temporal locality: each thread sums `reuse` neighbours of its
** element within its block, read either from a tile loaded once into shared
** memory or again and again from global memory.
*/
#include "model/common.h"
#include "families/reuse.h"

extern const char reuse_kernel_cu[];

static const char *const reuse_variants[] = { "shared", "global", NULL };
enum { VARIANT_SHARED, VARIANT_GLOBAL };

/* Each use is one instruction per warp; 13 uses and the loads and stores
   around them fitted the model's old limit of 16 instructions a warp. */
enum { MAX_REUSE = 13 };

static const struct param_decl reuse_params[] = {
    COMMON_PARAMS(1LL << 21),
    [REUSE_REUSE] = { .name = "reuse", .type = PARAM_INT, .fallback = 10, .min = 1, .max = MAX_REUSE,
      .doc = "times each loaded element is used: thread t sums the block's elements t, t+1, ..., t+reuse-1 (wrapping)",
      .doc_zh = "每个读入的元素被使用的次数：线程 t 对本线程块的第 t, t+1, ..., t+reuse-1 个元素求和（循环回绕）" },
    [REUSE_VARIANT] = { .name = "variant", .type = PARAM_CHOICE, .fallback = VARIANT_SHARED, .choices = reuse_variants,
      .doc = "\"shared\": load the block's elements once into shared memory; \"global\": read them from global memory each time",
      .doc_zh = "\"shared\"：把本块的元素读入共享内存一次；\"global\"：每次都从全局内存读取" },
};

static const struct buffer_decl reuse_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static uint64_t reuse_useful_bytes(const struct params *p)
{
    return 2 * 4 * (uint64_t)p->v[PARAM_N];
}

/* Elements the block starting at `first` holds: a whole block, or what is left of n. */
static long long block_elements(long long n, long long block, long long first)
{
    return n - first < block ? n - first : block;
}

/* out[i] = in[first + (t) % valid] + ... + in[first + (t+reuse-1) % valid], added in that order. */
static void reuse_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    long long n = p->v[PARAM_N], block = p->v[PARAM_BLOCK], reuse = p->v[REUSE_REUSE];
    for (long long first = 0; first < n; first += block) {
        long long valid = block_elements(n, block, first);
        for (long long t = 0; t < valid; t++) {
            float sum = 0.0f;
            for (long long k = 0; k < reuse; k++)
                sum += in[first + (t + k) % valid];
            out[first + t] = sum;
        }
    }
}

/* The lanes of one warp: threads t0 .. t0+lanes-1 of the block at `first`. */
struct warp_place {
    long long first, t0, valid;
    int lanes;
};

static struct warp_place place_warp(const struct params *p, long long warp)
{
    long long block = p->v[PARAM_BLOCK], warps_per_block = block / WARP_SIZE;
    struct warp_place w;
    w.first = warp / warps_per_block * block;
    w.t0 = warp % warps_per_block * WARP_SIZE;
    w.valid = block_elements(p->v[PARAM_N], block, w.first);
    long long lanes = w.valid - w.t0;
    w.lanes = (int)(lanes < 0 ? 0 : lanes > WARP_SIZE ? WARP_SIZE : lanes);
    return w;
}

/* The k-th use: lane l reads element (t0 + l + k) % valid of the block, at
   base + 4 * (offset + that element); affine unless the warp wraps. */
static void neighbour_access(struct warp_access *a, enum access_kind kind, uint64_t base,
                             long long offset, const struct warp_place *w, long long k)
{
    warp_wrapped(a, kind, 4, base + 4 * (uint64_t)offset, w->t0 + k, w->valid, w->lanes);
}

/* shared: load in[i], store tile[t], reuse x load tile[...], store out[i].
   global: reuse x load in[first + ...], store out[i]. */
static int reuse_warp_accesses(const struct params *p, const uint64_t *base,
                               long long warp, struct warp_access *acc)
{
    long long n = p->v[PARAM_N], reuse = p->v[REUSE_REUSE];
    struct warp_place w = place_warp(p, warp);
    int count = 0;
    if (p->v[REUSE_VARIANT] == VARIANT_SHARED) {
        warp_linear(&acc[count++], ACCESS_LOAD, 4, warp, base[0], 1, 0, n);
        neighbour_access(&acc[count++], ACCESS_SHARED_STORE, 0, 0, &w, 0);
        for (long long k = 0; k < reuse; k++)
            neighbour_access(&acc[count++], ACCESS_SHARED_LOAD, 0, 0, &w, k);
    } else {
        for (long long k = 0; k < reuse; k++)
            neighbour_access(&acc[count++], ACCESS_LOAD, base[0], w.first, &w, k);
    }
    warp_linear(&acc[count++], ACCESS_STORE, 4, warp, base[1], 1, 0, n);
    return count;
}

/* As reuse_launch: reuse_shared (a tile of block floats in dynamic shared memory) or reuse_global. */
static void reuse_kernel_call(const struct params *p, struct kernel_call *call)
{
    int shared = p->v[REUSE_VARIANT] == 0;
    call_kernel(call, one_thread_per_element(p), "%s", shared ? "reuse_shared" : "reuse_global");
    call->shared_bytes = shared ? (unsigned)(p->v[PARAM_BLOCK] * 4) : 0;
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[REUSE_REUSE]);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_reuse = {
    .name = "reuse",
    .summary = "each thread sums reuse neighbours, read from a shared-memory tile or again from global memory",
    .teaches = "data loaded once into shared memory serves many uses on chip, where re-reading global memory "
               "issues a load request (and its sectors) for every use",
    .summary_zh = "每个线程对 reuse 个相邻元素求和，从共享内存的数据块读取，或每次都从全局内存重新读取",
    .teaches_zh = "数据读入共享内存一次即可在片上多次使用；而重复读全局内存，每次使用都要发出一次读请求（及其扇区）",
    .params = reuse_params,
    .param_count = COUNT_OF(reuse_params),
    .buffers = reuse_buffers,
    .buffer_count = COUNT_OF(reuse_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = n_in_n_out,
    .useful_bytes = reuse_useful_bytes,
    .shape = one_thread_per_element,
    .reference = reuse_reference,
    .warp_accesses = reuse_warp_accesses,
    .source = reuse_kernel_cu,
    .kernel_call = reuse_kernel_call,
    .costs = (const struct warp_cost[]){ { 43.95, 17, 1 }, { 36.64, 21.82, 1 } },   /* shared, global */
    .cost_by = REUSE_VARIANT,
};
