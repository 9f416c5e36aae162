/*
** prefetch.c — a blocked stream, out[i] = work(in[i]), each thread block
** taking 4 consecutive chunks of `block` elements: without prefetching, with
** the next chunk loaded into a register ahead of time, or copied into shared
** memory with cp.async (sm_80+). The model counts a cp.async as the H200
** counts the LDGSTS it becomes: requests and sectors of its global side, under
** op_ldgsts, and neither a global load nor a shared store (Nsight Compute's
** shared-store wavefronts give 0 for it).
*/
#include "model/common.h"
#include "families/prefetch.h"

extern const char prefetch_kernel_cu[];

static const char *const prefetch_variants[] = { "none", "register", "cp_async", NULL };
enum { VARIANT_NONE, VARIANT_REGISTER, VARIANT_CP_ASYNC };
enum { CHUNKS = 4, WORK_STEPS = 8 };

static const struct param_decl prefetch_params[] = {
    [PARAM_N] = { .name = "n", .type = PARAM_INT, .fallback = 1LL << 24, .min = 1, .max = (1LL << 31) - 1,
      .doc = "elements to process; each thread takes 4 of them, one in each chunk of its block",
      .doc_zh = "要处理的元素个数；每个线程处理其中 4 个，在本块的每个分块中各一个" },
    [PARAM_BLOCK] = { .name = "block", .type = PARAM_INT, .fallback = 256, .min = 32, .max = 1024, .multiple_of = 32,
      .doc = "threads per block, and elements per chunk",
      .doc_zh = "每个线程块的线程数，也是每个分块的元素个数" },
    [PREFETCH_VARIANT] = { .name = "variant", .type = PARAM_CHOICE, .fallback = VARIANT_NONE, .choices = prefetch_variants,
      .doc = "\"none\": load, compute, store chunk by chunk; \"register\": load the next chunk into a register first; "
      "\"cp_async\": copy the next chunk into shared memory asynchronously (sm_80+)",
      .doc_zh = "\"none\"：逐块读取、计算、写回；\"register\"：先把下一块读入寄存器；"
      "\"cp_async\"：把下一块异步复制到共享内存（需要 sm_80+）" },
};

static const struct buffer_decl prefetch_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static uint64_t prefetch_useful_bytes(const struct params *p)
{
    return 2 * 4 * (uint64_t)p->v[PARAM_N];
}

/* Enough blocks of `block` threads for 4 chunks of `block` elements each. */
static struct launch_shape prefetch_shape(const struct params *p)
{
    long long n = p->v[PARAM_N], block = p->v[PARAM_BLOCK], per_block = CHUNKS * block;
    struct launch_shape shape = { (n + per_block - 1) / per_block * block, (int)block };
    return shape;
}

/* The kernels' work(): y = y/2 + x, 8 times; exact in float on both sides. */
static float work(float x)
{
    float y = x;
    for (int k = 0; k < WORK_STEPS; k++)
        y = y * 0.5f + x;
    return y;
}

static void prefetch_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        out[i] = work(in[i]);
}

/* Where warp w's lanes are in chunk c: the element of lane 0, and how many lanes are below n. */
struct chunk_place {
    long long first;
    int lanes;
    long long stage_offset;   /* byte offset of lane 0's slot in shared memory */
};

static struct chunk_place place_chunk(const struct params *p, long long warp, int c)
{
    long long n = p->v[PARAM_N], block = p->v[PARAM_BLOCK], warps_per_block = block / WARP_SIZE;
    long long t0 = warp % warps_per_block * WARP_SIZE;
    struct chunk_place place;
    place.first = warp / warps_per_block * block * CHUNKS + c * block + t0;
    long long lanes = n - place.first;
    place.lanes = (int)(lanes < 0 ? 0 : lanes > WARP_SIZE ? WARP_SIZE : lanes);
    place.stage_offset = 4 * (c % 2 * block + t0);
    return place;
}

/* A 4-byte access by lanes 0 .. lanes-1 at consecutive addresses. */
static void contiguous(struct warp_access *a, enum access_kind kind, uint64_t first_addr, int lanes)
{
    warp_affine(a, kind, 4, first_addr, 4, lanes);
}

/* Global load of chunk c; with cp.async its copy into the stage (LDGSTS), counted by its global side. */
static int load_chunk(const struct params *p, const uint64_t *base, long long warp, int c,
                      struct warp_access *acc)
{
    struct chunk_place place = place_chunk(p, warp, c);
    enum access_kind kind = p->v[PREFETCH_VARIANT] == VARIANT_CP_ASYNC ? ACCESS_LDGSTS : ACCESS_LOAD;
    contiguous(&acc[0], kind, base[0] + 4 * (uint64_t)place.first, place.lanes);
    return 1;
}

/* The result of chunk c; with cp.async the stage is read first. */
static int store_chunk(const struct params *p, const uint64_t *base, long long warp, int c,
                       struct warp_access *acc)
{
    struct chunk_place place = place_chunk(p, warp, c);
    int count = 0;
    if (p->v[PREFETCH_VARIANT] == VARIANT_CP_ASYNC)
        contiguous(&acc[count++], ACCESS_SHARED_LOAD, (uint64_t)place.stage_offset, place.lanes);
    contiguous(&acc[count++], ACCESS_STORE, base[1] + 4 * (uint64_t)place.first, place.lanes);
    return count;
}

/* none: load c, store c, for each chunk. register and cp_async: load 0, then
   for each chunk: load c+1 (if any), store c. */
static int prefetch_warp_accesses(const struct params *p, const uint64_t *base,
                                  long long warp, struct warp_access *acc)
{
    int count = 0, ahead = p->v[PREFETCH_VARIANT] != VARIANT_NONE;
    if (ahead)
        count += load_chunk(p, base, warp, 0, acc + count);
    for (int c = 0; c < CHUNKS; c++) {
        if (!ahead)
            count += load_chunk(p, base, warp, c, acc + count);
        else if (c + 1 < CHUNKS)
            count += load_chunk(p, base, warp, c + 1, acc + count);
        count += store_chunk(p, base, warp, c, acc + count);
    }
    return count;
}

/* cp.async arrived with sm_80; the other variants run anywhere. */
static const struct gpu_need *prefetch_needs(const struct params *p)
{
    static const struct gpu_need cp_async = { "variant = \"cp_async\"", "cp.async", 80 };
    return p->v[PREFETCH_VARIANT] == VARIANT_CP_ASYNC ? &cp_async : NULL;
}

/* As prefetch_launch: prefetch_none, _register, or _cp_async with two stages of
   block floats in dynamic shared memory, (in, out, n). */
static void prefetch_kernel_call(const struct params *p, struct kernel_call *call)
{
    static const char *const kernels[] = { "prefetch_none", "prefetch_register", "prefetch_cp_async" };
    call_kernel(call, prefetch_shape(p), "%s", kernels[p->v[PREFETCH_VARIANT]]);
    call->shared_bytes = p->v[PREFETCH_VARIANT] == 2 ? (unsigned)(2 * p->v[PARAM_BLOCK] * 4) : 0;
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_prefetch = {
    .name = "prefetch",
    .summary = "a blocked stream out[i] = work(in[i]): no prefetch, the next block in registers, or by cp.async",
    .teaches = "loading the next block before computing this one overlaps memory latency with work; it moves "
               "no fewer bytes, so the requests and sectors stay the same and only the time can change",
    .summary_zh = "分块流式处理 out[i] = work(in[i])：不预取、把下一块预取到寄存器、或用 cp.async 预取",
    .teaches_zh = "在计算当前块之前先读取下一块，可以让访存延迟与计算重叠；但读写的字节并不减少，"
                  "请求数和扇区数不变，能变的只有时间",
    .params = prefetch_params,
    .param_count = COUNT_OF(prefetch_params),
    .buffers = prefetch_buffers,
    .buffer_count = COUNT_OF(prefetch_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = n_in_n_out,
    .useful_bytes = prefetch_useful_bytes,
    .shape = prefetch_shape,
    .reference = prefetch_reference,
    .warp_accesses = prefetch_warp_accesses,
    .source = prefetch_kernel_cu,
    .needs = prefetch_needs,
    .kernel_call = prefetch_kernel_call,
    .costs = (const struct warp_cost[]){ { 71.75, 3.16, 4 }, { 47, 6.5, 4 }, { 81.6, 3.6, 2 } },
    /* none, register, cp_async: each chunk's load waits for the store before it (none) or is
       waited for by the next chunk (register); cp.async keeps two chunks in flight */
    .cost_by = PREFETCH_VARIANT,
};
