/*
** bank.c — shared-memory bank conflicts: lane l reads element l*stride of a
** 2048-element tile (4, 8 or 16 bytes each), 7 times, shifted by one element
** each time. A 4-byte read with stride s is a gcd(s, 32)-way conflict;
** stride 32 with `lanes` active lanes is a lanes-way one, so every degree
** from 1 to 32 can be made.
*/
#include <string.h>
#include "model/common.h"
#include "families/bank.h"

extern const char bank_kernel_cu[];

enum { TILE_ELEMENTS = 2048, READS = 7, FILL_CHUNK_BYTES = 16 };

static const struct param_decl bank_params[] = {
    [PARAM_N] = { .name = "n", .type = PARAM_INT, .fallback = 1LL << 22, .min = 1, .max = (1LL << 31) - 1,
      .doc = "threads in the grid (each reading one makes 7 shared-memory reads)",
      .doc_zh = "网格中的线程数（每个参与读取的线程做 7 次共享内存读取）" },
    [PARAM_BLOCK] = { .name = "block", .type = PARAM_INT, .fallback = 1024, .min = 256, .max = 1024, .multiple_of = 32,
      .doc = "threads per block; they share the filling of the block's tile, at most 8 16-byte stores each (so at least 256)",
      .doc_zh = "每个线程块的线程数；它们分担本块共享数组的填充，每个线程最多 8 次 16 字节写入（因此至少 256）" },
    [BANK_STRIDE] = { .name = "stride", .type = PARAM_INT, .fallback = 1, .max = 64,
      .doc = "elements between the reads of neighbouring lanes (0: all lanes read one element, a broadcast)",
      .doc_zh = "相邻线程读取位置之间相隔的元素个数（0：所有线程读同一个元素，即广播）" },
    [BANK_ELEMENT_BYTES] = { .name = "bytes", .type = PARAM_INT, .fallback = 4, .min = 4, .max = 16, ONLY(4, 8, 16),
      .doc = "bytes per element: 4 (one bank word), 8 (two) or 16 (four)",
      .doc_zh = "每个元素的字节数：4（一个存储体字）、8（两个）或 16（四个）" },
    [BANK_LANES] = { .name = "lanes", .type = PARAM_INT, .fallback = 32, .min = 1, .max = 32,
      .doc = "lanes of each warp that read (lanes 0 to lanes-1; the others stay idle)",
      .doc_zh = "每个 warp 中参与读取的线程数（第 0 到 lanes-1 个；其余空闲）" },
};

static const struct buffer_decl bank_buffers[] = {
    { "out", BUFFER_OUT, 0 },
};

static int bank_element_bytes(const struct params *p)
{
    return (int)p->v[BANK_ELEMENT_BYTES];
}

static void bank_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = (size_t)p->v[PARAM_N];
}

/* Active lanes of warp w: lanes 0 .. lanes-1 whose thread is below n. */
static int reading_lanes(const struct params *p, long long warp)
{
    long long left = p->v[PARAM_N] - warp * WARP_SIZE;
    long long lanes = p->v[BANK_LANES];
    return (int)(left < 0 ? 0 : left < lanes ? left : lanes);
}

static uint64_t bank_useful_bytes(const struct params *p)
{
    long long n = p->v[PARAM_N], full = n / WARP_SIZE;
    uint64_t threads = (uint64_t)(full * p->v[BANK_LANES] + reading_lanes(p, full));
    return threads * (uint64_t)bank_element_bytes(p);
}

/* Word `word` of block b's tile, as the kernel's tile_word makes it. */
static uint32_t tile_word(uint32_t block, uint32_t word)
{
    return (block * 8192u + word) * 2654435761u;
}

/* One thread's sum of its 7 elements, word by word; 8-byte elements are
   added as 64-bit numbers whose low word comes first. */
static void thread_sum(const struct params *p, uint32_t block, long long lane, uint32_t *sum)
{
    int words = bank_element_bytes(p) / 4;
    uint64_t wide = 0;
    for (long long r = 0; r < READS; r++) {
        uint32_t first = (uint32_t)((lane * p->v[BANK_STRIDE] + r) * words);
        if (words == 2)
            wide += tile_word(block, first) | (uint64_t)tile_word(block, first + 1) << 32;
        else
            for (int k = 0; k < words; k++)
                sum[k] += tile_word(block, first + (uint32_t)k);
    }
    if (words == 2) {
        sum[0] = (uint32_t)wide;
        sum[1] = (uint32_t)(wide >> 32);
    }
}

/* The reading threads write their sums; the others leave out[i] as it was. */
static void bank_reference(const struct params *p, void *const *buffers)
{
    long long n = p->v[PARAM_N], block = p->v[PARAM_BLOCK];
    int words = bank_element_bytes(p) / 4;
    uint32_t *out = buffers[0];
    for (long long i = 0; i < n; i++) {
        uint32_t sum[4] = { 0 };
        if (i % WARP_SIZE >= p->v[BANK_LANES])
            continue;
        thread_sum(p, (uint32_t)(i / block), i % WARP_SIZE, sum);
        memcpy(out + i * words, sum, 4 * (size_t)words);
    }
}

/* The fill: iteration m stores 16-byte chunks t0 + m*block + lane of the tile. */
static int fill_accesses(const struct params *p, long long warp, struct warp_access *acc)
{
    long long block = p->v[PARAM_BLOCK], t0 = warp % (block / WARP_SIZE) * WARP_SIZE;
    long long chunks = TILE_ELEMENTS * p->v[BANK_ELEMENT_BYTES] / FILL_CHUNK_BYTES;
    int count = 0;
    for (long long first = t0; first < chunks; first += block) {
        warp_affine(&acc[count++], ACCESS_SHARED_STORE, FILL_CHUNK_BYTES, (uint64_t)first * FILL_CHUNK_BYTES,
                    FILL_CHUNK_BYTES, chunks - first);
    }
    return count;
}

/* The tile fill (up to 8 shared stores), 7 shared loads, the store of the sums. */
static int bank_warp_accesses(const struct params *p, const uint64_t *base,
                              long long warp, struct warp_access *acc)
{
    int lanes = reading_lanes(p, warp), bytes = bank_element_bytes(p);
    int count = fill_accesses(p, warp, acc);
    for (long long r = 0; r < READS; r++)   /* lane l at element l*stride + r (64*31 + 6 < 2048: in the tile) */
        warp_affine(&acc[count++], ACCESS_SHARED_LOAD, bytes, (uint64_t)(r * bytes), p->v[BANK_STRIDE] * bytes, lanes);
    warp_affine(&acc[count++], ACCESS_STORE, bytes, base[0] + (uint64_t)(warp * WARP_SIZE * bytes), bytes, lanes);
    return count;
}

/* As bank_launch: bank<T>(out, stride, lanes, n), T of `bytes` bytes, a tile of
   TILE_ELEMENTS of them in dynamic shared memory. */
static void bank_kernel_call(const struct params *p, struct kernel_call *call)
{
    static const char *const types[] = { [4] = "unsigned", [8] = "unsigned long long", [16] = "uint4" };
    call_kernel(call, one_thread_per_element(p), "bank<%s>", types[p->v[BANK_ELEMENT_BYTES]]);
    call->shared_bytes = (unsigned)(TILE_ELEMENTS * p->v[BANK_ELEMENT_BYTES]);
    call_buffer(call, 0);
    call_value(call, p->v[BANK_STRIDE]);
    call_value(call, p->v[BANK_LANES]);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_bank = {
    .name = "bank",
    .summary = "shared-memory reads with a lane stride: 1- to 32-way bank conflicts",
    .teaches = "lanes that read different words of the same bank wait for one another: a 4-byte stride s costs "
               "gcd(s, 32) wavefronts, an odd stride (a padded tile) costs one, and a broadcast is free",
    .summary_zh = "按线程步长读取共享内存：1 到 32 路存储体冲突",
    .teaches_zh = "读同一存储体不同字的线程必须互相等待：4 字节元素步长为 s 时需要 gcd(s, 32) 个 wavefront，"
                  "奇数步长（加了填充的共享数组）只需一个，广播不产生存储体冲突",
    .params = bank_params,
    .param_count = COUNT_OF(bank_params),
    .buffers = bank_buffers,
    .buffer_count = COUNT_OF(bank_buffers),
    .element_bytes = bank_element_bytes,
    .buffer_elements = bank_buffer_elements,
    .useful_bytes = bank_useful_bytes,
    .shape = one_thread_per_element,
    .reference = bank_reference,
    .warp_accesses = bank_warp_accesses,
    .source = bank_kernel_cu,
    .kernel_call = bank_kernel_call,
    .costs = (const struct warp_cost[]){ { 0, 6.44, 1 } },
};
