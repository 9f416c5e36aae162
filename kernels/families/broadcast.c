/*
** broadcast.c — out[i] = table[0] or table[i % 16384], the table in global
** or __constant__ memory: the constant cache broadcasts one address to a
** warp in a pass, but serves distinct addresses one pass each.
*/
#include "model/common.h"
#include "families/broadcast.h"

extern const char broadcast_kernel_cu[];

static const char *const broadcast_spaces[] = { "global", "constant", NULL };
static const char *const broadcast_patterns[] = { "same", "distinct", NULL };
enum { SPACE_GLOBAL, SPACE_CONSTANT };
enum { PATTERN_SAME, PATTERN_DISTINCT };

static const struct param_decl broadcast_params[] = {
    COMMON_PARAMS(1LL << 25),
    [BROADCAST_SPACE] = { .name = "space", .type = PARAM_CHOICE, .fallback = SPACE_CONSTANT, .choices = broadcast_spaces,
      .doc = "where the 16,384-float table is read from: \"global\" (a cudaMalloc buffer) or \"constant\" "
      "(a 64 KB __constant__ array)",
      .doc_zh = "16384 个 float 的表从哪里读取：\"global\"（cudaMalloc 分配的缓冲区）或 \"constant\"（64 KB 的 __constant__ 数组）" },
    [BROADCAST_PATTERN] = { .name = "pattern", .type = PARAM_CHOICE, .fallback = PATTERN_SAME, .choices = broadcast_patterns,
      .doc = "\"same\": every lane reads table[0]; \"distinct\": thread i reads table[i % 16384], 32 addresses a warp",
      .doc_zh = "\"same\"：所有线程都读 table[0]；\"distinct\"：线程 i 读 table[i % 16384]，每个 warp 32 个不同地址" },
};

static const struct buffer_decl broadcast_buffers[] = {
    { "table", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

/* The table always has its full 64 KB, the size of the __constant__ bank. */
static void broadcast_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = BROADCAST_TABLE_FLOATS;
    elements[1] = (size_t)p->v[PARAM_N];
}

/* Which table entry thread i reads. */
static long long broadcast_index(const struct params *p, long long i)
{
    return p->v[BROADCAST_PATTERN] == PATTERN_DISTINCT ? i % BROADCAST_TABLE_FLOATS : 0;
}

/* Each output written once, each table entry some thread reads read once. */
static uint64_t broadcast_useful_bytes(const struct params *p)
{
    long long n = p->v[PARAM_N];
    long long entries = p->v[BROADCAST_PATTERN] == PATTERN_SAME ? 1
                      : n < BROADCAST_TABLE_FLOATS ? n : BROADCAST_TABLE_FLOATS;
    return 4 * (uint64_t)(n + entries);
}

/* The same values as the __constant__ table the kernel compiles in, so that
   the reference below holds for both spaces. */
static void broadcast_fill_inputs(const struct params *p, void *const *buffers, uint64_t seed)
{
    float *table = buffers[0];
    for (int j = 0; j < BROADCAST_TABLE_FLOATS; j++)
        table[j] = BROADCAST_TABLE_VALUE(j);
}

static void broadcast_reference(const struct params *p, void *const *buffers)
{
    const float *table = buffers[0];
    float *out = buffers[1];
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        out[i] = table[broadcast_index(p, i)];
}

/* One 4-byte read of the table (PTX: ld.const.f32, or ld.global.nc.f32),
   then the store. The table's length is a multiple of 32, so a warp's
   distinct entries never wrap: they are affine, one float apart. A
   constant-memory address is the offset in the __constant__ bank, where the
   table is the only variable. */
static int broadcast_warp_accesses(const struct params *p, const uint64_t *base,
                                   long long warp, struct warp_access *acc)
{
    long long n = p->v[PARAM_N];
    int constant = p->v[BROADCAST_SPACE] == SPACE_CONSTANT;
    int distinct = p->v[BROADCAST_PATTERN] == PATTERN_DISTINCT;
    uint64_t table = constant ? 0 : base[0];
    long long lane_step = distinct ? 1 : 0;   /* in floats */
    warp_linear(&acc[0], constant ? ACCESS_CONSTANT_LOAD : ACCESS_LOAD, 4, warp, table, lane_step, 0, n);
    acc[0].first_addr = table + 4 * (uint64_t)broadcast_index(p, warp * WARP_SIZE);
    warp_linear(&acc[1], ACCESS_STORE, 4, warp, base[1], 1, 0, n);
    return 2;
}

/* As broadcast_launch: broadcast<from_constant>(table, out, n, mask), the
   mask 0 for "same" (every thread reads entry 0), else the table's size less 1. */
static void broadcast_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "broadcast<%s>", p->v[BROADCAST_SPACE] ? "true" : "false");
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[PARAM_N]);
    call_value(call, p->v[BROADCAST_PATTERN] ? BROADCAST_TABLE_FLOATS - 1 : 0);
}

const struct family family_broadcast = {
    .name = "broadcast",
    .summary = "out[i] = table[0] or table[i % 16384], the table in global or __constant__ memory",
    .teaches = "constant memory gives one address to a whole warp in a single pass but serialises distinct "
               "addresses, 32 passes a request for 32 lanes (result.constant.passes) and a slower launch, "
               "while global memory serves the same 32 distinct floats in 4 sectors",
    .summary_zh = "out[i] = table[0] 或 table[i % 16384]，表位于全局内存或 __constant__ 常量内存",
    .teaches_zh = "常量内存一次就把同一地址广播给整个 warp，但不同地址要串行处理：32 个线程每个请求 32 次"
                  "（见 result.constant.passes），启动也随之变慢；全局内存读取同样 32 个不同的 float 只需 4 个扇区",
    .params = broadcast_params,
    .param_count = COUNT_OF(broadcast_params),
    .buffers = broadcast_buffers,
    .buffer_count = COUNT_OF(broadcast_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = broadcast_buffer_elements,
    .useful_bytes = broadcast_useful_bytes,
    .shape = one_thread_per_element,
    .reference = broadcast_reference,
    .warp_accesses = broadcast_warp_accesses,
    .source = broadcast_kernel_cu,
    .fill_inputs = broadcast_fill_inputs,
    .kernel_call = broadcast_kernel_call,
    .costs = (const struct warp_cost[]){ { 10, 5.5, 1 }, { 20, 0, 1 } },   /* global, constant */
    .cost_by = BROADCAST_SPACE,
};
