/*
** copy.c — out[i] = in[i], one float, float2 or float4 per thread.
*/
#include "model/common.h"
#include "families/copy.h"

extern const char copy_kernel_cu[];

static const struct param_decl copy_params[] = {
    COMMON_PARAMS(1LL << 26),
    [COPY_VEC] = { .name = "vec", .type = PARAM_INT, .fallback = 1, .min = 1, .max = 4, ONLY(1, 2, 4),
      .doc = "floats per thread: 1 (float), 2 (float2) or 4 (float4)",
      .doc_zh = "每个线程处理的 float 个数：1（float）、2（float2）或 4（float4）" },
};

static const struct buffer_decl copy_buffers[] = {
    { "in", BUFFER_IN, 0 },
    { "out", BUFFER_OUT, 0 },
};

static int copy_element_bytes(const struct params *p)
{
    return 4 * (int)p->v[COPY_VEC];
}

static uint64_t copy_useful_bytes(const struct params *p)
{
    return 2 * (uint64_t)p->v[PARAM_N] * (uint64_t)copy_element_bytes(p);
}

static void copy_reference(const struct params *p, void *const *buffers, int part, int parts)
{
    copy_elements(buffers, p->v[PARAM_N], copy_element_bytes(p), part, parts);
}

/* Each thread loads one element and stores it. */
static int copy_warp_accesses(const struct params *p, const uint64_t *base,
                              long long warp, struct warp_access *acc)
{
    return warp_copy(acc, copy_element_bytes(p), warp, base, p->v[PARAM_N]);
}

/* As copy_launch: copy<float>, copy<float2> or copy<float4>(in, out, n). */
static void copy_kernel_call(const struct params *p, struct kernel_call *call)
{
    static const char *const kernels[] = { [1] = "copy<float>", [2] = "copy<float2>", [4] = "copy<float4>" };
    call_kernel(call, one_thread_per_element(p), "%s", kernels[p->v[COPY_VEC]]);
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_copy = {
    .name = "copy",
    .summary = "out[i] = in[i] with float, float2 or float4 per thread",
    .teaches = "a perfectly coalesced stream: the baseline every other pattern is measured against",
    .summary_zh = "out[i] = in[i]，每个线程复制一个 float、float2 或 float4",
    .teaches_zh = "完全合并的连续访问：衡量其他访问模式的基准",
    .params = copy_params,
    .param_count = COUNT_OF(copy_params),
    .buffers = copy_buffers,
    .buffer_count = COUNT_OF(copy_buffers),
    .element_bytes = copy_element_bytes,
    .buffer_elements = n_in_n_out,
    .useful_bytes = copy_useful_bytes,
    .shape = one_thread_per_element,
    .reference_part = copy_reference,
    .warp_accesses = copy_warp_accesses,
    .source = copy_kernel_cu,
    .kernel_call = copy_kernel_call,
    .costs = (const struct warp_cost[]){ { 10, 6, 1 } },
};
