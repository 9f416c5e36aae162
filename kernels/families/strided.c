/*
** strided.c — out[i] = in[i*stride]: lanes spread over stride times the bytes.
** `load` picks the load's cache hint (cache_hints.h); the model is the same for all.
*/
#include "families/cache_hints.h"
#include "model/common.h"
#include "families/strided.h"

extern const char strided_kernel_cu[];


static const struct param_decl strided_params[] = {
    COMMON_PARAMS(1LL << 24),
    [STRIDED_STRIDE] = { .name = "stride", .type = PARAM_INT, .fallback = 1, .min = 1, .max = 1024,
      .doc = "distance in elements between the loads of neighbouring threads",
      .doc_zh = "相邻线程读取位置之间相隔的元素个数" },
    LOAD_HINT_PARAM(STRIDED_LOAD),
};

static const struct buffer_decl strided_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

/* The input holds n*stride elements so that every thread's load is in bounds. */
static void strided_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = (size_t)p->v[PARAM_N] * (size_t)p->v[STRIDED_STRIDE];
    elements[1] = (size_t)p->v[PARAM_N];
}

static uint64_t strided_useful_bytes(const struct params *p)
{
    return 2 * 4 * (uint64_t)p->v[PARAM_N];
}

static void strided_reference(const struct params *p, void *const *buffers, int part, int parts)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    long long stride = p->v[STRIDED_STRIDE], first, end;
    reference_slice(p->v[PARAM_N], part, parts, &first, &end);
    for (long long i = first; i < end; i++)
        out[i] = in[i * stride];
}

/* One load and one store per thread, whatever the load hint. */
static int strided_warp_accesses(const struct params *p, const uint64_t *base,
                                 long long warp, struct warp_access *acc)
{
    long long n = p->v[PARAM_N];
    warp_linear(&acc[0], ACCESS_LOAD, 4, warp, base[0], p->v[STRIDED_STRIDE], 0, n);
    warp_linear(&acc[1], ACCESS_STORE, 4, warp, base[1], 1, 0, n);
    return 2;
}

/* As strided_launch: strided<HINT>(in, out, stride, n), HINT the load choice. */
static void strided_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "strided<%lld>", p->v[STRIDED_LOAD]);
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[STRIDED_STRIDE]);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_strided = {
    .name = "strided",
    .summary = "out[i] = in[i*stride]: a warp's loads spread over stride times the bytes",
    .teaches = "once the stride passes 8 floats every lane needs a sector of its own, "
               "and no cache hint (load=) can make those sectors fewer",
    .summary_zh = "out[i] = in[i*stride]：一个 warp 的读取分散到 stride 倍的字节上",
    .teaches_zh = "步长达到 8 个 float 之后，每个线程都需要单独一个扇区，任何缓存提示（load=）都不能让扇区变少",
    .params = strided_params,
    .param_count = COUNT_OF(strided_params),
    .buffers = strided_buffers,
    .buffer_count = COUNT_OF(strided_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = strided_buffer_elements,
    .useful_bytes = strided_useful_bytes,
    .shape = one_thread_per_element,
    .reference_part = strided_reference,
    .warp_accesses = strided_warp_accesses,
    .source = strided_kernel_cu,
    .kernel_call = strided_kernel_call,
    .costs = (const struct warp_cost[]){ { 10, 7.5, 1 } },
    .load_hint_by = STRIDED_LOAD,
};
