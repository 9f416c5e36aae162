/*
** grid2d.c — lanes of a 2-D launch and instructions built lane by lane.
*/
#include <string.h>
#include "families/grid2d.h"

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

