/*
** grid2d.c — lanes of a 2-D launch and instructions built lane by lane.
*/
#include <string.h>
#include "grid2d.h"

unsigned grid2d_blocks(long long extent, int block)
{
    return (unsigned)((extent + block - 1) / block);
}

struct launch_shape grid2d_shape(struct grid2d g)
{
    long long block = (long long)g.block_x * g.block_y;
    struct launch_shape shape = { (long long)g.grid_x * g.grid_y * block, (int)block };
    return shape;
}

void grid2d_warp(struct grid2d g, long long warp, struct warp2d *w)
{
    long long warps_per_block = (long long)g.block_x * g.block_y / WARP_SIZE;
    long long block = warp / warps_per_block;
    int first = (int)(warp % warps_per_block) * WARP_SIZE;
    int x = first % g.block_x, y = first / g.block_x;
    w->block_x = block % g.grid_x;
    w->block_y = block / g.grid_x;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        w->x[lane] = x;
        w->y[lane] = y;
        if (++x == g.block_x) {   /* the next lane starts the block's next row */
            x = 0;
            y++;
        }
    }
}

/* Whether the active lanes are first .. first+count-1 at a constant step. */
static int lanes_affine(const uint64_t *addr, uint32_t active, int *first, int *count, int64_t *step)
{
    if (active == 0)
        return 0;
    *first = __builtin_ctz(active);
    *count = __builtin_popcount(active);
    if (*first + *count > WARP_SIZE || active >> *first != (*count == 32 ? ~0u : (1u << *count) - 1))
        return 0;   /* a gap among the active lanes */
    *step = *count > 1 ? (int64_t)(addr[*first + 1] - addr[*first]) : 0;
    for (int k = 2; k < *count; k++)
        if ((int64_t)(addr[*first + k] - addr[*first + k - 1]) != *step)
            return 0;
    return 1;
}

void access_from_lanes(struct warp_access *acc, enum access_kind kind, int bytes,
                       const uint64_t *addr, uint32_t active)
{
    int first, count;
    int64_t step;
    acc->kind = kind;
    acc->bytes = bytes;
    if (lanes_affine(addr, active, &first, &count, &step)) {
        acc->affine = 1;
        acc->first_lane = first;
        acc->lane_count = count;
        acc->first_addr = addr[first];
        acc->step = step;
        return;
    }
    acc->affine = 0;
    acc->active = active;
    for (int lane = 0; lane < WARP_SIZE; lane++)
        acc->addr[lane] = active >> lane & 1 ? addr[lane] : 0;
}
