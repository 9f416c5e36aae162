/*
** transpose.c — out = the transpose of a rows x cols row-major matrix,
** directly, or through a tile in shared memory, plain or padded by a float.
*/
#include "model/common.h"
#include "families/grid2d.h"
#include "families/transpose.h"

extern const char transpose_kernel_cu[];
struct grid2d transpose_grid(const struct params *p);

static const char *const transpose_variants[] = { "naive", "shared", "padded", NULL };
static const struct param_decl transpose_params[] = {
    [TRANSPOSE_ROWS] = { .name = "rows", .type = PARAM_INT, .fallback = 4096, .min = 1, .max = 32768,
      .doc = "rows of the input matrix (columns of the output)",
      .doc_zh = "输入矩阵的行数（即输出矩阵的列数）" },
    [TRANSPOSE_COLS] = { .name = "cols", .type = PARAM_INT, .fallback = 4096, .min = 1, .max = 32768,
      .doc = "columns of the input matrix (rows of the output)",
      .doc_zh = "输入矩阵的列数（即输出矩阵的行数）" },
    [TRANSPOSE_VARIANT] = { .name = "variant", .type = PARAM_CHOICE, .fallback = TRANSPOSE_NAIVE, .choices = transpose_variants,
      .doc = "\"naive\": read rows, write columns; \"shared\": through a tile in shared memory; "
      "\"padded\": the same tile, each row one float longer",
      .doc_zh = "\"naive\"：按行读、按列写；\"shared\"：经共享内存中的分块转置；\"padded\"：同样的分块，每行多填充一个 float" },
    [TRANSPOSE_TILE] = { .name = "tile", .type = PARAM_INT, .fallback = 32, .min = 8, .max = 32, ONLY(8, 16, 32),
      .doc = "tile side: each block is tile x tile threads, one element each",
      .doc_zh = "分块边长：每个线程块有 tile x tile 个线程，每个线程一个元素" },
};

static const struct buffer_decl transpose_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static long long transpose_elements(const struct params *p)
{
    return p->v[TRANSPOSE_ROWS] * p->v[TRANSPOSE_COLS];
}

static void transpose_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = elements[1] = (size_t)transpose_elements(p);
}

static uint64_t transpose_useful_bytes(const struct params *p)
{
    return 2 * 4 * (uint64_t)transpose_elements(p);
}

/* Tiles cover the input: x along its columns, y along its rows; the launcher uses this too. */
struct grid2d transpose_grid(const struct params *p)
{
    int tile = (int)p->v[TRANSPOSE_TILE];
    struct grid2d g = { grid2d_blocks(p->v[TRANSPOSE_COLS], tile), grid2d_blocks(p->v[TRANSPOSE_ROWS], tile),
                        tile, tile };
    return g;
}

static struct launch_shape transpose_shape(const struct params *p)
{
    return grid2d_shape(transpose_grid(p));
}

static void transpose_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    long long rows = p->v[TRANSPOSE_ROWS], cols = p->v[TRANSPOSE_COLS];
    for (long long r = 0; r < rows; r++)
        for (long long c = 0; c < cols; c++)
            out[c * rows + r] = in[r * cols + c];
}

/* One warp's lanes, as the kernels compute them: what each reads and writes. */
struct transpose_lanes {
    uint64_t in[WARP_SIZE], out[WARP_SIZE], tile_row[WARP_SIZE], tile_col[WARP_SIZE];
    uint32_t reads, writes;   /* lanes inside the matrix for the load and for the store */
};

static void transpose_lanes(const struct params *p, const uint64_t *base, long long warp,
                            struct transpose_lanes *l)
{
    struct grid2d g = transpose_grid(p);
    struct warp2d w;
    long long rows = p->v[TRANSPOSE_ROWS], cols = p->v[TRANSPOSE_COLS], tile = g.block_x;
    int naive = p->v[TRANSPOSE_VARIANT] == TRANSPOSE_NAIVE;
    int width = (int)tile + (p->v[TRANSPOSE_VARIANT] == TRANSPOSE_PADDED);   /* floats per tile row */
    grid2d_warp(g, warp, &w);
    l->reads = l->writes = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        int x = w.x[lane], y = w.y[lane];
        long long row = w.block_y * tile + y, col = w.block_x * tile + x;
        /* naive writes in[row][col] to out[col][row]; the tiled kernels write
           out[out_row][out_col] from tile[x][y], which holds in[out_col][out_row] */
        long long out_row = naive ? col : w.block_x * tile + y, out_col = naive ? row : w.block_y * tile + x;
        l->in[lane] = base[0] + 4 * (uint64_t)(row * cols + col);
        l->out[lane] = base[1] + 4 * (uint64_t)(out_row * rows + out_col);
        l->tile_row[lane] = 4 * (uint64_t)(y * width + x);
        l->tile_col[lane] = 4 * (uint64_t)(x * width + y);
        l->reads |= (uint32_t)(row < rows && col < cols) << lane;
        l->writes |= (uint32_t)(out_row < cols && out_col < rows) << lane;
    }
}

/* naive: load, store. shared and padded: load, shared store (a tile row),
   shared load (a tile column), store. */
static int transpose_warp_accesses(const struct params *p, const uint64_t *base,
                                   long long warp, struct warp_access *acc)
{
    struct transpose_lanes l;
    int count = 0;
    transpose_lanes(p, base, warp, &l);
    access_from_lanes(&acc[count++], ACCESS_LOAD, 4, l.in, l.reads);
    if (p->v[TRANSPOSE_VARIANT] != TRANSPOSE_NAIVE) {
        access_from_lanes(&acc[count++], ACCESS_SHARED_STORE, 4, l.tile_row, l.reads);
        access_from_lanes(&acc[count++], ACCESS_SHARED_LOAD, 4, l.tile_col, l.writes);
    }
    access_from_lanes(&acc[count++], ACCESS_STORE, 4, l.out, l.writes);
    return count;
}

/* As transpose_launch: transpose_naive, or transpose_tiled<TILE, PADDED>, on TILE x TILE blocks. */
static void transpose_kernel_call(const struct params *p, struct kernel_call *call)
{
    struct grid2d g = transpose_grid(p);
    long long tile = p->v[TRANSPOSE_TILE], variant = p->v[TRANSPOSE_VARIANT];
    if (variant == TRANSPOSE_NAIVE)
        call_kernel_2d(call, g.grid_x, g.grid_y, (unsigned)tile, (unsigned)tile, "transpose_naive");
    else
        call_kernel_2d(call, g.grid_x, g.grid_y, (unsigned)tile, (unsigned)tile, "transpose_tiled<%lld, %d>", tile,
                       variant == TRANSPOSE_PADDED);
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[TRANSPOSE_ROWS]);
    call_value(call, p->v[TRANSPOSE_COLS]);
}

const struct family family_transpose = {
    .name = "transpose",
    .summary = "out = transpose(in): naive, or through a shared-memory tile, plain or padded",
    .teaches = "a naive transpose writes a sector per lane; a shared-memory tile makes both sides coalesced but reads "
               "a tile column from few banks (32-way at tile 32), which one float of padding per row removes when a "
               "warp is one tile row (tile 32)",
    .summary_zh = "out = in 的转置：朴素实现，或经共享内存分块（不填充或填充）",
    .teaches_zh = "朴素转置的写入每个线程各占一个扇区；共享内存分块让读写都合并，但按列读分块时集中在少数几个存储体上"
                  "（tile 为 32 时是 32 路存储体冲突）；当一个 warp 恰好是分块的一行（tile 为 32）时，每行填充一个 float 即可消除存储体冲突",
    .params = transpose_params,
    .param_count = COUNT_OF(transpose_params),
    .buffers = transpose_buffers,
    .buffer_count = COUNT_OF(transpose_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = transpose_buffer_elements,
    .useful_bytes = transpose_useful_bytes,
    .shape = transpose_shape,
    .reference = transpose_reference,
    .warp_accesses = transpose_warp_accesses,
    .source = transpose_kernel_cu,
    .kernel_call = transpose_kernel_call,
    .costs = (const struct warp_cost[]){ { 13, 5, 1 }, { 28.64, 2.34, 1 }, { 16, 5.5, 1 } },   /* naive, shared, padded */
    .cost_by = TRANSPOSE_VARIANT,
};
