/*
** traverse.c — out = 2 * in over a rows x cols row-major matrix, with lanes
** walking a row, a column, or a row through a tile in shared memory.
*/
#include "model/common.h"
#include "families/grid2d.h"
#include "families/traverse.h"

extern const char traverse_kernel_cu[];
struct grid2d traverse_grid(const struct params *p);

static const char *const traverse_orders[] = { "row", "col", "tiled", NULL };

static const struct param_decl traverse_params[] = {
    [TRAVERSE_ROWS] = { .name = "rows", .type = PARAM_INT, .fallback = 4096, .min = 1, .max = 32768,
      .doc = "rows of the matrix",
      .doc_zh = "矩阵的行数" },
    [TRAVERSE_COLS] = { .name = "cols", .type = PARAM_INT, .fallback = 4096, .min = 1, .max = 32768,
      .doc = "columns of the matrix (floats per row)",
      .doc_zh = "矩阵的列数（每行的 float 个数）" },
    [TRAVERSE_BLOCK] = { .name = "block", .type = PARAM_SHAPE, .fallback = SHAPE(32, 8), .max = 1024,
      .doc = "block shape {x, y}: threadIdx.x is the direction the lanes walk",
      .doc_zh = "线程块形状 {x, y}：threadIdx.x 是各线程依次排开的方向" },
    [TRAVERSE_ORDER] = { .name = "order", .type = PARAM_CHOICE, .fallback = TRAVERSE_BY_ROW, .choices = traverse_orders,
      .doc = "\"row\": lanes walk along a row; \"col\": down a column; \"tiled\": along a row, through shared memory",
      .doc_zh = "\"row\"：各线程沿一行排开；\"col\"：沿一列排开；\"tiled\"：沿一行，经共享内存中转" },
};

static const struct buffer_decl traverse_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static long long traverse_elements(const struct params *p)
{
    return p->v[TRAVERSE_ROWS] * p->v[TRAVERSE_COLS];
}

static void traverse_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = elements[1] = (size_t)traverse_elements(p);
}

static uint64_t traverse_useful_bytes(const struct params *p)
{
    return 2 * 4 * (uint64_t)traverse_elements(p);
}

/* Blocks cover the columns along x for "row" and "tiled", the rows for "col";
   the launcher uses this too. */
struct grid2d traverse_grid(const struct params *p)
{
    int bx = SHAPE_X(p->v[TRAVERSE_BLOCK]), by = SHAPE_Y(p->v[TRAVERSE_BLOCK]);
    long long rows = p->v[TRAVERSE_ROWS], cols = p->v[TRAVERSE_COLS];
    int by_col = p->v[TRAVERSE_ORDER] == TRAVERSE_BY_COL;
    struct grid2d g = { grid2d_blocks(by_col ? rows : cols, bx), grid2d_blocks(by_col ? cols : rows, by), bx, by };
    return g;
}

static struct launch_shape traverse_shape(const struct params *p)
{
    return grid2d_shape(traverse_grid(p));
}

static void traverse_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    for (long long i = 0; i < traverse_elements(p); i++)
        out[i] = 2.0f * in[i];
}

/* Per lane: the element it scales (as the kernel computes row and col) and
   its place in the block's shared tile; load, [shared store, shared load,] store. */
static int traverse_warp_accesses(const struct params *p, const uint64_t *base,
                                  long long warp, struct warp_access *acc)
{
    struct grid2d g = traverse_grid(p);
    struct warp2d w;
    long long rows = p->v[TRAVERSE_ROWS], cols = p->v[TRAVERSE_COLS];
    int order = (int)p->v[TRAVERSE_ORDER], count = 0;
    uint64_t in[WARP_SIZE], out[WARP_SIZE], tile[WARP_SIZE];
    uint32_t active = 0;
    grid2d_warp(g, warp, &w);
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        long long across = w.block_x * g.block_x + w.x[lane], down = w.block_y * g.block_y + w.y[lane];
        long long row = order == TRAVERSE_BY_COL ? across : down;
        long long col = order == TRAVERSE_BY_COL ? down : across;
        uint64_t element = (uint64_t)(row * cols + col);
        in[lane] = base[0] + 4 * element;
        out[lane] = base[1] + 4 * element;
        tile[lane] = 4 * (uint64_t)(w.y[lane] * g.block_x + w.x[lane]);
        active |= (uint32_t)(row < rows && col < cols) << lane;
    }
    access_from_lanes(&acc[count++], ACCESS_LOAD, 4, in, active);
    if (order == TRAVERSE_TILED) {
        access_from_lanes(&acc[count++], ACCESS_SHARED_STORE, 4, tile, active);
        access_from_lanes(&acc[count++], ACCESS_SHARED_LOAD, 4, tile, active);
    }
    access_from_lanes(&acc[count++], ACCESS_STORE, 4, out, active);
    return count;
}

/* As traverse_launch: traverse_row, _col or _tiled (a block of floats in dynamic shared memory)(in, out, rows, cols). */
static void traverse_kernel_call(const struct params *p, struct kernel_call *call)
{
    static const char *const kernels[] = { [TRAVERSE_BY_ROW] = "traverse_row", [TRAVERSE_BY_COL] = "traverse_col",
                                           [TRAVERSE_TILED] = "traverse_tiled" };
    struct grid2d g = traverse_grid(p);
    call_kernel_2d(call, g.grid_x, g.grid_y, (unsigned)g.block_x, (unsigned)g.block_y, "%s", kernels[p->v[TRAVERSE_ORDER]]);
    call->shared_bytes = p->v[TRAVERSE_ORDER] == TRAVERSE_TILED ? (unsigned)(g.block_x * g.block_y * 4) : 0;
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[TRAVERSE_ROWS]);
    call_value(call, p->v[TRAVERSE_COLS]);
}

const struct family family_traverse = {
    .name = "traverse",
    .summary = "out = 2 * in over a row-major matrix: lanes walk a row, a column, or a tile in shared memory",
    .teaches = "walking a row costs a warp 4 sectors and walking a column one per lane (a 16-wide block puts two rows "
               "or two columns in each warp); staging a tile in shared memory adds shared traffic and saves no sector "
               "when each element is used once",
    .summary_zh = "对行主序矩阵做 out = 2 * in：各线程沿行、沿列遍历，或经共享内存中的分块遍历",
    .teaches_zh = "沿行遍历每个 warp 只需 4 个扇区，沿列遍历每个线程各需一个扇区（16 宽的线程块让每个 warp 跨两行或两列）；"
                  "每个元素只用一次时，经共享内存分块中转只会多出共享内存访问，省不下一个扇区",
    .params = traverse_params,
    .param_count = COUNT_OF(traverse_params),
    .buffers = traverse_buffers,
    .buffer_count = COUNT_OF(traverse_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = traverse_buffer_elements,
    .useful_bytes = traverse_useful_bytes,
    .shape = traverse_shape,
    .reference = traverse_reference,
    .warp_accesses = traverse_warp_accesses,
    .source = traverse_kernel_cu,
    .kernel_call = traverse_kernel_call,
    .costs = (const struct warp_cost[]){ { 13, 5, 1 }, { 13, 5, 1 }, { 25, 1.75, 1 } },   /* row, col, tiled */
    .cost_by = TRAVERSE_ORDER,
};
