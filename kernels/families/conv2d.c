/*
** conv2d.c — a (2r+1) x (2r+1) filter over a width x height float image,
** edges clamped: neighbours read (2r+1)^2 times from global memory (naive)
** or once per block into shared memory with a halo of r pixels (tiled).
**
** The filter is in constant memory rather than in a global buffer: every
** lane of a warp reads the same tap together, which the constant cache
** serves in one pass, and the image's loads stay the only global loads, so
** load sectors per request describe the image alone (a global filter would
** add (2r+1)^2 one-sector requests per warp to them, more than the tiled
** variant's own image loads). The filters of every radius sit in one table
** built when the kernel is compiled (kernels/families/conv2d.h), so a launch copies
** nothing into constant memory. The model counts each ld.const as a
** constant load of the weight's offset in that table.
*/
#include <string.h>
#include "families/tile_grid.h"
#include "families/conv2d.h"

extern const char conv2d_kernel_cu[];

static const char *const conv2d_variants[] = { "naive", "tiled", NULL };
enum { CONV2D_NAIVE, CONV2D_TILED };

static const struct param_decl conv2d_params[] = {
    [CONV2D_WIDTH] = { .name = "width", .type = PARAM_INT, .fallback = 1024, .min = 1, .max = 16384,
      .doc = "image width in pixels (floats per row)",
      .doc_zh = "图像宽度（像素数，每行的 float 个数）" },
    [CONV2D_HEIGHT] = { .name = "height", .type = PARAM_INT, .fallback = 1024, .min = 1, .max = 16384,
      .doc = "image height in pixels (rows)",
      .doc_zh = "图像高度（像素数，行数）" },
    [CONV2D_VARIANT] = { .name = "variant", .type = PARAM_CHOICE, .fallback = CONV2D_NAIVE, .choices = conv2d_variants,
      .doc = "\"naive\" reads every neighbour from global memory; \"tiled\" copies the block's tile and its halo into shared memory first",
      .doc_zh = "\"naive\" 每个邻居都从全局内存读取；\"tiled\" 先把线程块的分块及其边缘区复制到共享内存" },
    [CONV2D_TILE] = { .name = "tile", .type = PARAM_INT, .fallback = 16, .min = 8, .max = 32, ONLY(8, 16, 32),
      .doc = "block side: tile x tile threads, one output pixel each",
      .doc_zh = "线程块边长：tile x tile 个线程，每个线程计算一个输出像素" },
    [CONV2D_RADIUS] = { .name = "radius", .type = PARAM_INT, .fallback = 2, .min = 1, .max = CONV2D_MAX_RADIUS,
      .doc = "filter radius r: (2r+1) x (2r+1) taps, a halo of r pixels",
      .doc_zh = "滤波器半径 r：(2r+1) x (2r+1) 个系数，边缘区宽 r 个像素" },
};

static const struct buffer_decl conv2d_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static void conv2d_buffer_elements(const struct params *p, size_t *elements)
{
    elements[0] = elements[1] = (size_t)p->v[CONV2D_WIDTH] * (size_t)p->v[CONV2D_HEIGHT];
}

static uint64_t conv2d_useful_bytes(const struct params *p)
{
    return 2 * 4 * (uint64_t)p->v[CONV2D_WIDTH] * (uint64_t)p->v[CONV2D_HEIGHT];
}

static struct launch_shape conv2d_shape(const struct params *p)
{
    return grid2d_shape(tile_grid((int)p->v[CONV2D_TILE], p->v[CONV2D_WIDTH], p->v[CONV2D_HEIGHT]));
}

static long long clamp_to(long long i, long long size)
{
    return i < 0 ? 0 : i >= size ? size - 1 : i;
}

static int taps_of(int radius)
{
    return (2 * radius + 1) * (2 * radius + 1);
}

/* Each pixel: the sum over the taps of the clamped neighbour times the weight, in double. */
static void conv2d_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    long long width = p->v[CONV2D_WIDTH], height = p->v[CONV2D_HEIGHT];
    int radius = (int)p->v[CONV2D_RADIUS], size = 2 * radius + 1, taps = taps_of(radius);
    for (long long y = 0; y < height; y++)
        for (long long x = 0; x < width; x++) {
            double sum = 0;
            for (int fy = 0; fy < size; fy++)
                for (int fx = 0; fx < size; fx++)
                    sum += (double)in[clamp_to(y + fy - radius, height) * width + clamp_to(x + fx - radius, width)] *
                           conv2d_weight(fy * size + fx, taps);
            out[y * width + x] = (float)sum;
        }
}

/* One warp, worked out once and kept while the model asks for its pages. */
struct conv2d_warp {
    struct params params;
    uint64_t base[2];
    long long warp;
    int valid, tiled;
    long long width, height;
    int radius, size, span, rounds;
    int thread[WARP_SIZE];                  /* each lane's thread index in its block */
    long long left, top;                    /* the halo region's top-left pixel (tiled) */
    uint32_t in_image;                      /* lanes whose pixel is in the image */
    uint64_t row_at[2 * CONV2D_MAX_RADIUS + 1][WARP_SIZE];   /* &in[clamped y + fy - r][0] */
    uint64_t column_at[2 * CONV2D_MAX_RADIUS + 1][WARP_SIZE];   /* 4 * clamped (x + fx - r) */
    uint64_t out_at[WARP_SIZE];             /* &out[y][x] */
    int tile;
    struct warp2d w;
};

/* Round j of the halo copy: region element thread + j * tile^2, global load or shared store. */
static void region_copy(const struct conv2d_warp *s, int round, int store, struct warp_access *acc)
{
    uint64_t addr[WARP_SIZE];
    uint32_t active = 0;
    long long threads = (long long)s->tile * s->tile;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        long long i = s->thread[lane] + round * threads;
        if (i >= (long long)s->span * s->span) {
            addr[lane] = 0;
            continue;
        }
        active |= 1u << lane;
        addr[lane] = store ? 4 * (uint64_t)i
                           : s->base[0] + 4 * (uint64_t)(clamp_to(s->top + i / s->span, s->height) * s->width +
                                                         clamp_to(s->left + i % s->span, s->width));
    }
    access_from_lanes(acc, store ? ACCESS_SHARED_STORE : ACCESS_LOAD, 4, addr, active);
}

/* Tap (fy, fx): the neighbour from global memory (naive) or from the halo region (tiled). */
static void tap_load(const struct conv2d_warp *s, int fy, int fx, struct warp_access *acc)
{
    uint64_t addr[WARP_SIZE];
    if (s->tiled) {
        for (int lane = 0; lane < WARP_SIZE; lane++)
            addr[lane] = 4 * (uint64_t)((s->w.y[lane] + fy) * s->span + s->w.x[lane] + fx);
    } else {
        for (int lane = 0; lane < WARP_SIZE; lane++)
            addr[lane] = s->row_at[fy][lane] + s->column_at[fx][lane];
    }
    access_from_lanes(acc, s->tiled ? ACCESS_SHARED_LOAD : ACCESS_LOAD, 4, addr, s->in_image);
}

/* Instruction `index` of the warp, in the kernel's order: (tiled) the halo
   copy, a global load and a shared store per round; then per tap a
   constant load of the weight and a load of the neighbour; then the store. */
static void conv2d_instruction(const void *state, long long index, struct warp_access *acc)
{
    const struct conv2d_warp *s = state;
    uint64_t addr[WARP_SIZE];
    long long copies = s->tiled ? 2LL * s->rounds : 0, taps = taps_of(s->radius);
    if (index < copies) {
        region_copy(s, (int)(index / 2), (int)(index % 2), acc);
        return;
    }
    index -= copies;
    if (index >= 2 * taps) {
        access_from_lanes(acc, ACCESS_STORE, 4, s->out_at, s->in_image);
        return;
    }
    int tap = (int)(index / 2);
    if (index % 2 == 1) {
        tap_load(s, tap / s->size, tap % s->size, acc);
        return;
    }
    for (int lane = 0; lane < WARP_SIZE; lane++)   /* the weight's place in the constant table */
        addr[lane] = 4 * (uint64_t)(conv2d_first_tap(s->radius) + tap);
    access_from_lanes(acc, ACCESS_CONSTANT_LOAD, 4, addr, s->in_image);
}

static void conv2d_locate(struct conv2d_warp *s, const struct params *p, const uint64_t *base, long long warp)
{
    int tile = (int)p->v[CONV2D_TILE];
    s->params = *p;
    s->base[0] = base[0];
    s->base[1] = base[1];
    s->warp = warp;
    s->valid = 1;
    s->tiled = p->v[CONV2D_VARIANT] == CONV2D_TILED;
    s->width = p->v[CONV2D_WIDTH];
    s->height = p->v[CONV2D_HEIGHT];
    s->radius = (int)p->v[CONV2D_RADIUS];
    s->size = 2 * s->radius + 1;
    s->span = tile + 2 * s->radius;
    s->rounds = (s->span * s->span + tile * tile - 1) / (tile * tile);
    s->tile = tile;
    grid2d_warp(tile_grid(tile, s->width, s->height), warp, &s->w);
    s->left = s->w.block_x * tile - s->radius;
    s->top = s->w.block_y * tile - s->radius;
    s->in_image = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        long long x = s->w.block_x * tile + s->w.x[lane], y = s->w.block_y * tile + s->w.y[lane];
        s->thread[lane] = s->w.y[lane] * tile + s->w.x[lane];
        s->in_image |= (uint32_t)(x < s->width && y < s->height) << lane;
        s->out_at[lane] = base[1] + 4 * (uint64_t)(y * s->width + x);
        for (int f = 0; f < s->size; f++) {
            s->row_at[f][lane] = base[0] + 4 * (uint64_t)(clamp_to(y + f - s->radius, s->height) * s->width);
            s->column_at[f][lane] = 4 * (uint64_t)clamp_to(x + f - s->radius, s->width);
        }
    }
}

/* The model asks for a warp's pages in turn: the warp is worked out at its first page. */
static int conv2d_warp_page(const struct params *p, const uint64_t *base, long long warp,
                            long long page, struct warp_access *acc)
{
    static _Thread_local struct conv2d_warp s;
    if (!s.valid || s.warp != warp || s.base[0] != base[0] || s.base[1] != base[1] ||
        memcmp(&s.params, p, sizeof *p) != 0)
        conv2d_locate(&s, p, base, warp);
    long long instructions = 2LL * taps_of(s.radius) + 1 + (s.tiled ? 2LL * s.rounds : 0);
    return tile_page(page, instructions, conv2d_instruction, &s, acc);
}

static int conv2d_warp_accesses(const struct params *p, const uint64_t *base,
                                long long warp, struct warp_access *acc)
{
    return conv2d_warp_page(p, base, warp, 0, acc);
}

/* As conv2d_launch: conv2d_naive, or conv2d_tiled with the tile and its halo in
   dynamic shared memory, (in, out, width, height, radius, first tap) on tile x tile blocks. */
static void conv2d_kernel_call(const struct params *p, struct kernel_call *call)
{
    long long width = p->v[CONV2D_WIDTH], height = p->v[CONV2D_HEIGHT], tile = p->v[CONV2D_TILE];
    int radius = (int)p->v[CONV2D_RADIUS], tiled = p->v[CONV2D_VARIANT] == 1;
    call_kernel_2d(call, (unsigned)((width + tile - 1) / tile), (unsigned)((height + tile - 1) / tile), (unsigned)tile,
                   (unsigned)tile, "%s", tiled ? "conv2d_tiled" : "conv2d_naive");
    call->shared_bytes = tiled ? (unsigned)((tile + 2 * radius) * (tile + 2 * radius) * 4) : 0;
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, width);
    call_value(call, height);
    call_value(call, radius);
    call_value(call, conv2d_first_tap(radius));
}

const struct family family_conv2d = {
    .name = "conv2d",
    .summary = "a (2r+1)^2 filter over an image: neighbours from global memory, or a tile with its halo in shared memory",
    .teaches = "a shared-memory tile with a halo turns (2r+1)^2 global loads per pixel into about one, at the cost of the halo's extra copies",
    .summary_zh = "对图像做 (2r+1)^2 的卷积：邻居直接从全局内存读取，或先把带边缘区的分块放进共享内存",
    .teaches_zh = "共享内存中带边缘区的分块把每个像素 (2r+1)^2 次全局读取减少到约一次，代价是边缘区的额外复制",
    .params = conv2d_params,
    .param_count = COUNT_OF(conv2d_params),
    .buffers = conv2d_buffers,
    .buffer_count = COUNT_OF(conv2d_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = conv2d_buffer_elements,
    .useful_bytes = conv2d_useful_bytes,
    .shape = conv2d_shape,
    .reference = conv2d_reference,
    .warp_accesses = conv2d_warp_accesses,
    .source = conv2d_kernel_cu,
    /* At most 289 taps with weights adding up to at most 1 and pixels in
       [-1, 1]: every partial sum stays within [-1, 1], so each float rounding
       is at most 2^-24 and all of them together under 290 * 2^-24 = 1.73e-5. */
    .tolerance = 2e-5,
    .warp_page = conv2d_warp_page,
    .kernel_call = conv2d_kernel_call,
    .costs = (const struct warp_cost[]){ { 224.08, 5.87, 1 }, { 289.85, 3.07, 1 } },   /* naive, tiled */
    .cost_by = CONV2D_VARIANT,
};
