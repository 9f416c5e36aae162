/*
** tile_grid.c — warps of tile x tile blocks, lane lists that keep the
** model's affine fast path where they can, and paging of long programs.
*/
#include "tile_grid.h"

struct launch_shape tile_grid_shape(int tile, long long width, long long height)
{
    long long blocks = ((width + tile - 1) / tile) * ((height + tile - 1) / tile);
    struct launch_shape shape = { blocks * tile * tile, tile * tile };
    return shape;
}

void tile_warp_locate(struct tile_warp *w, int tile, long long width, long long warp)
{
    long long warps_per_block = tile * tile / WARP_SIZE, blocks_x = (width + tile - 1) / tile;
    long long block = warp / warps_per_block;
    int first_thread = (int)(warp % warps_per_block) * WARP_SIZE;
    w->tile = tile;
    w->block_x = block % blocks_x;
    w->block_y = block / blocks_x;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        w->tx[lane] = (first_thread + lane) % tile;
        w->ty[lane] = (first_thread + lane) / tile;
    }
}


int tile_page(long long page, long long instructions, instruction_fill fill,
              const void *warp_state, struct warp_access *acc)
{
    int count = 0;
    for (long long i = page * MAX_WARP_ACCESSES; i < instructions && count < MAX_WARP_ACCESSES; i++)
        fill(warp_state, i, &acc[count++]);
    return count;
}
