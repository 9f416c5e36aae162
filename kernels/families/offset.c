/*
** offset.c — r[i] = a[i+offset] + b[i+offset]: loads shifted off the
** 128-byte lines that cudaMalloc's 256-byte alignment gives, stores aligned.
** `load` picks the loads' cache hint (cache_hints.h); the model is the same for all.
*/
#include "families/cache_hints.h"
#include "model/common.h"
#include "families/offset.h"

extern const char offset_kernel_cu[];


static const struct param_decl offset_params[] = {
    COMMON_PARAMS(1LL << 26),
    [OFFSET_OFFSET] = { .name = "offset", .type = PARAM_INT, .fallback = 0, .max = 1024,
      .doc = "elements the loads are shifted by (threads with i+offset >= n do nothing)",
      .doc_zh = "读取偏移的元素个数（i+offset >= n 的线程不做事）" },
    LOAD_HINT_PARAM(OFFSET_LOAD),
};

static const struct buffer_decl offset_buffers[] = {
    { "a", BUFFER_IN, 4 },
    { "b", BUFFER_IN, 4 },
    { "r", BUFFER_OUT, 4 },
};

static void offset_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = elements[1] = elements[2] = (size_t)p->v[PARAM_N];
}

/* Threads that do work: i + offset < n. */
static long long offset_working_threads(const struct params *p)
{
    long long working = p->v[PARAM_N] - p->v[OFFSET_OFFSET];
    return working > 0 ? working : 0;
}

static uint64_t offset_useful_bytes(const struct params *p)
{
    return 3 * 4 * (uint64_t)offset_working_threads(p);
}

static void offset_reference(const struct params *p, void *const *buffers, int part, int parts)
{
    const float *a = buffers[0], *b = buffers[1];
    float *r = buffers[2];
    long long offset = p->v[OFFSET_OFFSET], first, end;
    reference_slice(offset_working_threads(p), part, parts, &first, &end);
    for (long long i = first; i < end; i++)
        r[i] = a[i + offset] + b[i + offset];
}

/* Two loads and a store per thread, whatever the load hint: a hint changes
   which cache keeps a sector, not which sectors the warp asks for. */
static int offset_warp_accesses(const struct params *p, const uint64_t *base,
                                long long warp, struct warp_access *acc)
{
    long long offset = p->v[OFFSET_OFFSET], working = offset_working_threads(p);
    warp_linear(&acc[0], ACCESS_LOAD, 4, warp, base[0], 1, offset, working);
    warp_linear(&acc[1], ACCESS_LOAD, 4, warp, base[1], 1, offset, working);
    warp_linear(&acc[2], ACCESS_STORE, 4, warp, base[2], 1, 0, working);
    return 3;
}

/* As offset_launch: offset<HINT>(a, b, r, offset, n), HINT the load choice. */
static void offset_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "offset<%lld>", p->v[OFFSET_LOAD]);
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_buffer(call, 2);
    call_value(call, p->v[OFFSET_OFFSET]);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_offset = {
    .name = "offset",
    .summary = "r[i] = a[i+offset] + b[i+offset]: misaligned loads, aligned stores",
    .teaches = "a contiguous warp access that starts off a 32-byte boundary touches one sector more, "
               "which L1 may already hold from the neighbouring warp unless load=\"cg\" sends every sector to L2",
    .summary_zh = "r[i] = a[i+offset] + b[i+offset]：读取未对齐，写入对齐",
    .teaches_zh = "连续的 warp 访问若不从 32 字节边界开始，就要多碰一个扇区；这个扇区 L1 可能已从相邻 warp "
                  "取来，除非 load=\"cg\" 让每个扇区都去 L2",
    .params = offset_params,
    .param_count = COUNT_OF(offset_params),
    .buffers = offset_buffers,
    .buffer_count = COUNT_OF(offset_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = offset_buffer_elements,
    .useful_bytes = offset_useful_bytes,
    .shape = one_thread_per_element,
    .reference_part = offset_reference,
    .warp_accesses = offset_warp_accesses,
    .source = offset_kernel_cu,
    .kernel_call = offset_kernel_call,
    .costs = (const struct warp_cost[]){ { 13, 5.67, 1 } },
    .load_hint_by = OFFSET_LOAD,
};
