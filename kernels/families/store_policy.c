/*
** store_policy.c — a write-only stream: thread t stores one float4 (16
** bytes). fill="full": the float4s are contiguous, so every 32-byte sector
** is written whole. fill="partial": they are 32 bytes apart, so each fills
** only the first half of its sector. `store` is the stores' cache hint.
** L2 keeps 32-byte sectors: a whole-sector write just replaces one, but a
** half-written sector needs its other half from DRAM first (write-allocate).
** The model adds a 32-byte DRAM read for each sector a store fills only in
** part (kernels/model/dram.c), and counts the same for every store hint.
*/
#include "model/common.h"
#include "families/store_policy.h"

extern const char store_policy_kernel_cu[];

enum { FLOAT4_BYTES = 16 };

static const char *const store_choices[] = { "default", "cs", "cg", NULL };
static const char *const fill_choices[] = { "full", "partial", NULL };

static const struct param_decl store_policy_params[] = {
    COMMON_PARAMS(1LL << 24),
    [STORE_POLICY_STORE] = { .name = "store", .type = PARAM_CHOICE, .fallback = STORE_DEFAULT, .choices = store_choices,
      .doc = "cache hint of the stores: \"default\" plain st.global (L1 does not keep stores; L2 keeps them "
      "dirty until evicted), \"cs\" __stcs (streaming: the sectors are marked evict-first in L2), "
      "\"cg\" __stcg (L2 only); the model's sectors and DRAM estimate are the same for all",
      .doc_zh = "写入的缓存提示：\"default\" 普通 st.global（L1 不保留写入；L2 保留脏数据直到淘汰），"
      "\"cs\" __stcs（流式：这些扇区在 L2 中标记为优先淘汰），\"cg\" __stcg（只用 L2）；"
      "模型的扇区数和 DRAM 估计对各提示相同" },
    [STORE_POLICY_FILL] = { .name = "fill", .type = PARAM_CHOICE, .fallback = FILL_FULL, .choices = fill_choices,
      .doc = "\"full\": the float4s are contiguous and fill whole 32-byte sectors; \"partial\": they are 32 "
      "bytes apart and fill half of each sector, so L2 reads the other half from DRAM (write-allocate)",
      .doc_zh = "\"full\"：float4 连续存放，写满整个 32 字节扇区；\"partial\"：float4 相隔 32 字节，只写每个扇区的"
      "一半，L2 要先从 DRAM 读入另一半（写分配）" },
};

static const struct buffer_decl store_policy_buffers[] = {
    { "out", BUFFER_OUT, 4 },
};

/* Bytes from one thread's float4 to the next: 16 (full) or 32 (partial). */
static long long store_policy_pitch(const struct params *p)
{
    return p->v[STORE_POLICY_FILL] == FILL_PARTIAL ? 2 * FLOAT4_BYTES : FLOAT4_BYTES;
}

/* In floats: the partial output spans twice the bytes it writes. */
static void store_policy_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = (size_t)(p->v[PARAM_N] * store_policy_pitch(p) / 4);
}

static uint64_t store_policy_useful_bytes(const struct params *p)
{
    return FLOAT4_BYTES * (uint64_t)p->v[PARAM_N];
}

/* Every float written holds its own index in out; the rest keep what was there. */
static void store_policy_reference(const struct params *p, void *const *buffers)
{
    float *out = buffers[0];
    long long n = p->v[PARAM_N], pitch = store_policy_pitch(p) / 4;
    for (long long t = 0; t < n; t++)
        for (long long k = 0; k < 4; k++)
            out[t * pitch + k] = (float)(t * pitch + k);
}

/* One 16-byte store per thread, 16 or 32 bytes from its neighbour's. */
static int store_policy_warp_accesses(const struct params *p, const uint64_t *base,
                                      long long warp, struct warp_access *acc)
{
    warp_linear(&acc[0], ACCESS_STORE, FLOAT4_BYTES, warp, base[0], store_policy_pitch(p) / FLOAT4_BYTES,
                0, p->v[PARAM_N]);
    return 1;
}

/* As store_policy_launch: store_policy<HINT>(out, pitch, n), pitch 2 for a partial fill. */
static void store_policy_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "store_policy<%lld>", p->v[STORE_POLICY_STORE]);
    call_buffer(call, 0);
    call_value(call, p->v[STORE_POLICY_FILL] == FILL_PARTIAL ? 2 : 1);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_store_policy = {
    .name = "store_policy",
    .summary = "a write-only float4 stream: whole or half 32-byte sectors, with a store cache hint",
    .teaches = "a store that fills only part of a 32-byte sector makes L2 read the sector from DRAM "
               "first (write-allocate) while whole-sector stores read nothing; a store hint changes how "
               "long L2 keeps the written lines, not which sectors are written",
    .summary_zh = "只写的 float4 数据流：写满或只写一半 32 字节扇区，可加写入缓存提示",
    .teaches_zh = "只写了 32 字节扇区一部分的写入会让 L2 先从 DRAM 读入该扇区（写分配），写满整个扇区则"
                  "什么也不读；写入提示改变的是 L2 保留所写数据的时间，而不是写了哪些扇区",
    .params = store_policy_params,
    .param_count = COUNT_OF(store_policy_params),
    .buffers = store_policy_buffers,
    .buffer_count = COUNT_OF(store_policy_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = store_policy_buffer_elements,
    .useful_bytes = store_policy_useful_bytes,
    .shape = one_thread_per_element,
    .reference = store_policy_reference,
    .warp_accesses = store_policy_warp_accesses,
    .source = store_policy_kernel_cu,
    .kernel_call = store_policy_kernel_call,
    .costs = (const struct warp_cost[]){ { 33, 0, 1 } },
};
