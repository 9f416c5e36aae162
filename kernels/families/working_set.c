/*
** working_set.c — repeated passes over a buffer of `bytes` bytes: thread i
** loads the 16-byte elements (i + j*n) % elements for j = 0..7, so the loads
** are the same whatever the size and only where the buffer fits changes:
** L1, L2 or DRAM. Each warp writes one sum of what it read.
*/
#include "model/common.h"
#include "families/working_set.h"

extern const char working_set_kernel_cu[];

enum { LOADS = 8, ELEMENT_BYTES = 16 };

static const struct param_decl working_set_params[] = {
    [PARAM_N] = { .name = "n", .type = PARAM_INT, .fallback = 1LL << 23, .min = 1, .max = (1LL << 31) - 1,
      .doc = "threads in the grid; each loads 8 16-byte elements, so a launch loads 128*n bytes",
      .doc_zh = "网格中的线程数；每个线程读取 8 个 16 字节元素，一次启动共读取 128*n 字节" },
    [PARAM_BLOCK] = { .name = "block", .type = PARAM_INT, .fallback = 256, .min = 32, .max = 1024, .multiple_of = 32,
      .doc = "threads per block",
      .doc_zh = "每个线程块的线程数" },
    [WORKING_SET_BYTES] = { .name = "bytes", .type = PARAM_INT, .fallback = 1LL << 24, .min = 512, .max = 1LL << 30, .multiple_of = 512,
      .doc = "size of the buffer the loads pass over again and again: the working set",
      .doc_zh = "反复读取的缓冲区大小，即工作集" },
};

static const struct buffer_decl working_set_buffers[] = {
    { "buf", BUFFER_IN, ELEMENT_BYTES },
    { "out", BUFFER_OUT, 4 },
};

static int working_set_element_bytes(const struct params *p)
{
    return ELEMENT_BYTES;
}

static long long buffer_elements(const struct params *p)
{
    return p->v[WORKING_SET_BYTES] / ELEMENT_BYTES;
}

static long long warp_count(const struct params *p)
{
    return (p->v[PARAM_N] + WARP_SIZE - 1) / WARP_SIZE;
}

static void working_set_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = (size_t)buffer_elements(p);
    elements[1] = (size_t)warp_count(p);
}

/* Every load counts: the repeated passes are the experiment, not waste. */
static uint64_t working_set_useful_bytes(const struct params *p)
{
    return (uint64_t)p->v[PARAM_N] * LOADS * ELEMENT_BYTES + 4 * (uint64_t)warp_count(p);
}

/* out[w] = the 32-bit sum of every word the threads of warp w loaded. */
static void working_set_reference(const struct params *p, void *const *buffers)
{
    const uint32_t *buf = buffers[0];
    uint32_t *out = buffers[1];
    long long n = p->v[PARAM_N], elements = buffer_elements(p);
    for (long long w = 0; w < warp_count(p); w++) {
        uint32_t sum = 0;
        for (long long i = w * WARP_SIZE; i < n && i < (w + 1) * WARP_SIZE; i++)
            for (long long j = 0; j < LOADS; j++) {
                const uint32_t *e = buf + 4 * ((i + j * n) % elements);
                sum += e[0] + e[1] + e[2] + e[3];
            }
        out[w] = sum;
    }
}

/* Load j of warp w: lanes at elements (32w + lane + j*n) % elements;
   affine unless the warp's 32 elements wrap round the buffer's end. */
static void pass_access(const struct params *p, uint64_t base, long long warp, long long j,
                        struct warp_access *a)
{
    long long n = p->v[PARAM_N], elements = buffer_elements(p), left = n - warp * WARP_SIZE;
    int lanes = (int)(left < WARP_SIZE ? left : WARP_SIZE);
    long long first = (warp * WARP_SIZE + j * (n % elements)) % elements;
    warp_wrapped(a, ACCESS_LOAD, ELEMENT_BYTES, base, first, elements, lanes);
}

/* 8 loads of 16 bytes, then lane 0 stores the warp's sum (warps past n do nothing). */
static int working_set_warp_accesses(const struct params *p, const uint64_t *base,
                                     long long warp, struct warp_access *acc)
{
    if (warp * WARP_SIZE >= p->v[PARAM_N])
        return 0;
    for (long long j = 0; j < LOADS; j++)
        pass_access(p, base[0], warp, j, &acc[j]);
    warp_affine(&acc[LOADS], ACCESS_STORE, 4, base[1] + 4 * (uint64_t)warp, 4, 1);
    return LOADS + 1;
}

/* As working_set_launch: working_set(buf, out, elements, n % elements, n), 16-byte elements. */
static void working_set_kernel_call(const struct params *p, struct kernel_call *call)
{
    long long n = p->v[PARAM_N], elements = p->v[WORKING_SET_BYTES] / 16;
    call_kernel(call, one_thread_per_element(p), "working_set");
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, elements);
    call_value(call, n % elements);
    call_value(call, n);
}

const struct family family_working_set = {
    .name = "working_set",
    .summary = "repeated passes over a buffer of `bytes` bytes: L1, L2 or DRAM bandwidth as it grows",
    .teaches = "the same loads run at L1, L2 or DRAM speed depending on whether the working set fits the cache: "
               "launch it with cache=\"warm\", since a flushed L2 makes the first pass pay DRAM prices",
    .summary_zh = "反复遍历 bytes 字节的缓冲区：随着它变大，依次是 L1、L2 或 DRAM 的带宽",
    .teaches_zh = "同样的读取，工作集放得进哪一级缓存，就以哪一级的速度运行（L1、L2 或 DRAM）："
                  "请用 cache=\"warm\" 启动，因为清空的 L2 会让第一遍按 DRAM 的代价读取",
    .params = working_set_params,
    .param_count = COUNT_OF(working_set_params),
    .buffers = working_set_buffers,
    .buffer_count = COUNT_OF(working_set_buffers),
    .element_bytes = working_set_element_bytes,
    .buffer_elements = working_set_buffer_elements,
    .useful_bytes = working_set_useful_bytes,
    .shape = one_thread_per_element,
    .reference = working_set_reference,
    .warp_accesses = working_set_warp_accesses,
    .source = working_set_kernel_cu,
    .kernel_call = working_set_kernel_call,
    .costs = (const struct warp_cost[]){ { 168, 0, 1 } },
};
