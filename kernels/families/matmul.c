/*
** matmul.c — C = A x B in float (A m x k, B k x n, row-major): every
** product read from global memory (naive), or tiles of A and B staged in
** shared memory, each element fetched once per block (tiled).
*/
#include <string.h>
#include "families/tile_grid.h"
#include "families/matmul.h"

extern const char matmul_kernel_cu[];

static const char *const matmul_variants[] = { "naive", "tiled", NULL };
enum { MATMUL_NAIVE, MATMUL_TILED };
enum { MATMUL_MAX_SIZE = 2048 };

static const struct param_decl matmul_params[] = {
    [MATMUL_M] = { .name = "m", .type = PARAM_INT, .fallback = 256, .min = 1, .max = MATMUL_MAX_SIZE,
      .doc = "rows of A and C",
      .doc_zh = "A 和 C 的行数" },
    [MATMUL_N] = { .name = "n", .type = PARAM_INT, .fallback = 256, .min = 1, .max = MATMUL_MAX_SIZE,
      .doc = "columns of B and C",
      .doc_zh = "B 和 C 的列数" },
    [MATMUL_K] = { .name = "k", .type = PARAM_INT, .fallback = 256, .min = 1, .max = MATMUL_MAX_SIZE,
      .doc = "columns of A and rows of B: the products summed for each element of C",
      .doc_zh = "A 的列数、B 的行数：C 的每个元素累加的乘积个数" },
    [MATMUL_VARIANT] = { .name = "variant", .type = PARAM_CHOICE, .fallback = MATMUL_NAIVE, .choices = matmul_variants,
      .doc = "\"naive\" reads A and B from global memory for every product; \"tiled\" stages tile x tile blocks of them in shared memory",
      .doc_zh = "\"naive\" 每次乘法都从全局内存读取 A 和 B；\"tiled\" 先把 tile x tile 的子块放进共享内存" },
    [MATMUL_TILE] = { .name = "tile", .type = PARAM_INT, .fallback = 16, .min = 8, .max = 32, ONLY(8, 16, 32),
      .doc = "block side: tile x tile threads, one element of C each (and the shared tiles' side)",
      .doc_zh = "线程块边长：tile x tile 个线程，每个线程计算 C 的一个元素（也是共享内存子块的边长）" },
};

static const struct buffer_decl matmul_buffers[] = {
    { "a", BUFFER_IN, 4 },
    { "b", BUFFER_IN, 4 },
    { "c", BUFFER_OUT, 4 },
};

static void matmul_buffer_elements(const struct params *p, size_t *elements)
{
    size_t m = (size_t)p->v[MATMUL_M], n = (size_t)p->v[MATMUL_N], k = (size_t)p->v[MATMUL_K];
    elements[0] = m * k;
    elements[1] = k * n;
    elements[2] = m * n;
}

static uint64_t matmul_useful_bytes(const struct params *p)
{
    uint64_t m = (uint64_t)p->v[MATMUL_M], n = (uint64_t)p->v[MATMUL_N], k = (uint64_t)p->v[MATMUL_K];
    return 4 * (m * k + k * n + m * n);
}

/* One thread per element of C: n wide, m high. */
static struct launch_shape matmul_shape(const struct params *p)
{
    return grid2d_shape(tile_grid((int)p->v[MATMUL_TILE], p->v[MATMUL_N], p->v[MATMUL_M]));
}

/* Row by row: each row of C is the sum over i of A[row][i] times row i of B, in double. */
static void matmul_reference(const struct params *p, void *const *buffers)
{
    const float *a = buffers[0], *b = buffers[1];
    float *c = buffers[2];
    long long m = p->v[MATMUL_M], n = p->v[MATMUL_N], k = p->v[MATMUL_K];
    double sum[MATMUL_MAX_SIZE];
    for (long long row = 0; row < m; row++) {
        for (long long col = 0; col < n; col++)
            sum[col] = 0;
        for (long long i = 0; i < k; i++)
            for (long long col = 0; col < n; col++)
                sum[col] += (double)a[row * k + i] * b[i * n + col];
        for (long long col = 0; col < n; col++)
            c[row * n + col] = (float)sum[col];
    }
}

/* One warp, worked out once and kept while the model asks for its pages. */
struct matmul_warp {
    struct params params;
    uint64_t base[3];
    long long warp;
    int valid;
    long long m, n, k;
    int tile;
    long long row[WARP_SIZE], col[WARP_SIZE];
    uint64_t a_row[WARP_SIZE], b_col[WARP_SIZE], c_at[WARP_SIZE];   /* &A[row][0], &B[0][col], &C[row][col] */
    uint32_t in_c;   /* lanes whose element of C exists */
    struct warp2d w;
};

/* Naive: per i, a load of A[row][i] and one of B[i][col]; then the store of C. */
static void naive_instruction(const void *state, long long index, struct warp_access *acc)
{
    const struct matmul_warp *s = state;
    uint64_t addr[WARP_SIZE];
    long long i = index / 2;
    if (index == 2 * s->k) {
        access_from_lanes(acc, ACCESS_STORE, 4, s->c_at, s->in_c);
        return;
    }
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = index % 2 == 0 ? s->a_row[lane] + 4 * (uint64_t)i : s->b_col[lane] + 4 * (uint64_t)(i * s->n);
    access_from_lanes(acc, ACCESS_LOAD, 4, addr, s->in_c);
}

/* Tiled, step `step` (k from step * tile): a load of A and its store into
   as, a load of B and its store into bs (loads only where in the matrix;
   the stores from every lane, zeros past an edge). */
static void tiled_copy(const struct matmul_warp *s, long long step, int which, struct warp_access *acc)
{
    uint64_t addr[WARP_SIZE];
    uint32_t active = 0;
    int tile = s->tile, matrix = which / 2;   /* 0: A, 1: B */
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        int tx = s->w.x[lane], ty = s->w.y[lane];
        long long kk = step * tile + (matrix == 0 ? tx : ty);
        int inside = kk < s->k && (matrix == 0 ? s->row[lane] < s->m : s->col[lane] < s->n);
        if (which % 2 == 1) {   /* st.shared as[ty][tx] or bs[ty][tx] */
            addr[lane] = 4 * (uint64_t)(matrix * tile * tile + ty * tile + tx);
            active |= 1u << lane;
        } else {
            addr[lane] = matrix == 0 ? s->a_row[lane] + 4 * (uint64_t)kk : s->b_col[lane] + 4 * (uint64_t)(kk * s->n);
            active |= (uint32_t)inside << lane;
        }
    }
    access_from_lanes(acc, which % 2 == 1 ? ACCESS_SHARED_STORE : ACCESS_LOAD, 4, addr, active);
}

/* Tiled: per step, the four copies, then per group of four i < tile one
   16-byte shared load of as[ty][i..i+3] and the loads of bs[i..i+3][tx], by
   every lane; after the last step the store of C. */
static void tiled_instruction(const void *state, long long index, struct warp_access *acc)
{
    const struct matmul_warp *s = state;
    uint64_t addr[WARP_SIZE];
    int tile = s->tile, per_step = 4 + 5 * tile / 4;
    long long steps = (s->k + tile - 1) / tile;
    if (index == steps * per_step) {
        access_from_lanes(acc, ACCESS_STORE, 4, s->c_at, s->in_c);
        return;
    }
    long long step = index / per_step;
    int within = (int)(index % per_step);
    if (within < 4) {
        tiled_copy(s, step, within, acc);
        return;
    }
    int group = (within - 4) / 5, of_group = (within - 4) % 5, i = 4 * group + of_group - 1;
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = 4 * (uint64_t)(of_group > 0 ? tile * tile + i * tile + s->w.x[lane] : s->w.y[lane] * tile + 4 * group);
    access_from_lanes(acc, ACCESS_SHARED_LOAD, of_group > 0 ? 4 : 16, addr, 0xffffffffu);
}

static void matmul_locate(struct matmul_warp *s, const struct params *p, const uint64_t *base, long long warp)
{
    *s = (struct matmul_warp){ .params = *p, .base = { base[0], base[1], base[2] }, .warp = warp, .valid = 1,
                               .m = p->v[MATMUL_M], .n = p->v[MATMUL_N], .k = p->v[MATMUL_K],
                               .tile = (int)p->v[MATMUL_TILE] };
    grid2d_warp(tile_grid(s->tile, s->n, s->m), warp, &s->w);
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        s->row[lane] = s->w.block_y * s->tile + s->w.y[lane];
        s->col[lane] = s->w.block_x * s->tile + s->w.x[lane];
        s->in_c |= (uint32_t)(s->row[lane] < s->m && s->col[lane] < s->n) << lane;
        s->a_row[lane] = base[0] + 4 * (uint64_t)(s->row[lane] * s->k);
        s->b_col[lane] = base[1] + 4 * (uint64_t)s->col[lane];
        s->c_at[lane] = base[2] + 4 * (uint64_t)(s->row[lane] * s->n + s->col[lane]);
    }
}

/* The model asks for a warp's pages in turn: the warp is worked out at its first page. */
static int matmul_warp_page(const struct params *p, const uint64_t *base, long long warp,
                            long long page, struct warp_access *acc)
{
    static _Thread_local struct matmul_warp s;
    if (!s.valid || s.warp != warp || memcmp(s.base, base, sizeof s.base) != 0 ||
        memcmp(&s.params, p, sizeof *p) != 0)
        matmul_locate(&s, p, base, warp);
    if (p->v[MATMUL_VARIANT] == MATMUL_NAIVE)   /* threads outside C return at once */
        return s.in_c ? tile_page(page, 2 * s.k + 1, naive_instruction, &s, acc) : 0;
    long long steps = (s.k + s.tile - 1) / s.tile;
    return tile_page(page, steps * (4 + 5 * s.tile / 4) + 1, tiled_instruction, &s, acc);
}

static int matmul_warp_accesses(const struct params *p, const uint64_t *base,
                                long long warp, struct warp_access *acc)
{
    return matmul_warp_page(p, base, warp, 0, acc);
}

/* As matmul_launch: matmul_naive or matmul_tiled<TILE>(a, b, c, m, n, k) on tile x tile blocks. */
static void matmul_kernel_call(const struct params *p, struct kernel_call *call)
{
    long long m = p->v[MATMUL_M], n = p->v[MATMUL_N], tile = p->v[MATMUL_TILE];
    unsigned grid_x = (unsigned)((n + tile - 1) / tile), grid_y = (unsigned)((m + tile - 1) / tile);
    if (p->v[MATMUL_VARIANT] == 0)
        call_kernel_2d(call, grid_x, grid_y, (unsigned)tile, (unsigned)tile, "matmul_naive");
    else
        call_kernel_2d(call, grid_x, grid_y, (unsigned)tile, (unsigned)tile, "matmul_tiled<%lld>", tile);
    for (int i = 0; i < 3; i++)
        call_buffer(call, i);
    call_value(call, m);
    call_value(call, n);
    call_value(call, p->v[MATMUL_K]);
}

const struct family family_matmul = {
    .name = "matmul",
    .summary = "C = A x B in float: A and B read for every product, or staged tile by tile in shared memory",
    .teaches = "tiling reuses each element of A and B fetched into shared memory tile times, cutting global loads by that factor",
    .summary_zh = "float 矩阵乘 C = A x B：每次乘法都读取 A 和 B，或逐块放入共享内存",
    .teaches_zh = "分块后，取入共享内存的 A、B 元素各被复用 tile 次，全局读取随之减少为原来的 1/tile",
    .params = matmul_params,
    .param_count = COUNT_OF(matmul_params),
    .buffers = matmul_buffers,
    .buffer_count = COUNT_OF(matmul_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = matmul_buffer_elements,
    .useful_bytes = matmul_useful_bytes,
    .shape = matmul_shape,
    .reference = matmul_reference,
    .warp_accesses = matmul_warp_accesses,
    .source = matmul_kernel_cu,
    /* The GPU sums k products in float, in order, the reference in double.
       With inputs in [-1, 1) the error relative to max(1, |C|) stayed under
       k * 2^-24 in practice (worst of 10^5 sums with k = 2048: 3.5e-5); at
       the largest k, 2048 * 2^-24 = 1.2e-4, so 2e-4 leaves a margin, while a
       wrong or missing product (about 0.3 on average) is still caught. */
    .tolerance = 2e-4,
    .warp_page = matmul_warp_page,
    .kernel_call = matmul_kernel_call,
    .costs = (const struct warp_cost[]){ { 65.83, 2.75, 1 }, { 29.16, 2.85, 1 } },   /* naive, tiled */
    .cost_by = MATMUL_VARIANT,
};
