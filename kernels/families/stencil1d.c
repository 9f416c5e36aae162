/*
** stencil1d.c — out[i] = in[i] + in[i+1] + ... + in[i+2*radius]: each output
** sums its 2*radius+1 neighbours, so every input is read by 2*radius+1
** threads. The reuse is served by L1 (by L2 alone with load="cg").
*/
#include "families/cache_hints.h"
#include "model/common.h"
#include "families/stencil1d.h"

extern const char stencil1d_kernel_cu[];

/* The range the radius is offered in (2*7+1 loads and a store per thread);
   it was the model's limit of 16 instructions a warp when it was chosen. */
enum { STENCIL1D_MAX_RADIUS = 7 };

static const struct param_decl stencil1d_params[] = {
    COMMON_PARAMS(1LL << 25),
    [STENCIL1D_RADIUS] = { .name = "radius", .type = PARAM_INT, .fallback = 2, .max = STENCIL1D_MAX_RADIUS,
      .doc = "neighbours on each side: every output reads 2*radius+1 inputs, every input is read 2*radius+1 times",
      .doc_zh = "每侧的邻居个数：每个输出读取 2*radius+1 个输入，每个输入被读取 2*radius+1 次" },
    LOAD_HINT_PARAM(STENCIL1D_LOAD),
};

static const struct buffer_decl stencil1d_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static long long stencil1d_width(const struct params *p)
{
    return 2 * p->v[STENCIL1D_RADIUS] + 1;
}

/* The input carries radius halo elements on each side: n + 2*radius in all. */
static void stencil1d_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = (size_t)(p->v[PARAM_N] + stencil1d_width(p) - 1);
    elements[1] = (size_t)p->v[PARAM_N];
}

static uint64_t stencil1d_useful_bytes(const struct params *p)
{
    size_t elements[2];
    stencil1d_buffer_elements(p, elements);
    return 4 * (uint64_t)(elements[0] + elements[1]);
}

/* Sums in the kernel's order, from in[i] up, so that the floats agree bit for bit. */
static void stencil1d_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    long long n = p->v[PARAM_N], width = stencil1d_width(p);
    for (long long i = 0; i < n; i++) {
        float sum = 0.0f;
        for (long long k = 0; k < width; k++)
            sum += in[i + k];
        out[i] = sum;
    }
}

/* 2*radius+1 loads, the k-th shifted k floats (so 5 sectors unless k is a
   multiple of 8), then the aligned store; the same for every load hint. */
static int stencil1d_warp_accesses(const struct params *p, const uint64_t *base,
                                   long long warp, struct warp_access *acc)
{
    long long n = p->v[PARAM_N], width = stencil1d_width(p);
    for (long long k = 0; k < width; k++)
        warp_linear(&acc[k], ACCESS_LOAD, 4, warp, base[0], 1, k, n);
    warp_linear(&acc[width], ACCESS_STORE, 4, warp, base[1], 1, 0, n);
    return (int)width + 1;
}

/* As stencil1d_launch: stencil1d<HINT>(in, out, radius, n), HINT the load choice. */
static void stencil1d_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "stencil1d<%lld>", p->v[STENCIL1D_LOAD]);
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[STENCIL1D_RADIUS]);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_stencil1d = {
    .name = "stencil1d",
    .summary = "out[i] = in[i] + ... + in[i+2*radius]: each output reads 2*radius+1 neighbours",
    .teaches = "neighbouring threads read the same sectors 2*radius+1 times over, which L1 serves from "
               "the first read while load=\"cg\" sends every one of them to L2",
    .summary_zh = "out[i] = in[i] + ... + in[i+2*radius]：每个输出读取 2*radius+1 个邻居",
    .teaches_zh = "相邻线程把同一批扇区读取 2*radius+1 遍：L1 从第一次读取起就能供给，而 load=\"cg\" "
                  "让每一次读取都去 L2",
    .params = stencil1d_params,
    .param_count = COUNT_OF(stencil1d_params),
    .buffers = stencil1d_buffers,
    .buffer_count = COUNT_OF(stencil1d_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = stencil1d_buffer_elements,
    .useful_bytes = stencil1d_useful_bytes,
    .shape = one_thread_per_element,
    .reference = stencil1d_reference,
    .warp_accesses = stencil1d_warp_accesses,
    .source = stencil1d_kernel_cu,
    .kernel_call = stencil1d_kernel_call,
    .costs = (const struct warp_cost[]){ { 48.54, 4.18, 1 } },
    .load_hint_by = STENCIL1D_LOAD,
};
