/*
** tile_grid.c — grids of tile x tile blocks, and paging of long programs.
*/
#include "families/tile_grid.h"

struct grid2d tile_grid(int tile, long long width, long long height)
{
    return (struct grid2d){ grid2d_blocks(width, tile), grid2d_blocks(height, tile), tile, tile };
}

int tile_page(long long page, long long instructions, instruction_fill fill,
              const void *warp_state, struct warp_access *acc)
{
    int count = 0;
    for (long long i = page * MAX_WARP_ACCESSES; i < instructions && count < MAX_WARP_ACCESSES; i++)
        fill(warp_state, i, &acc[count++]);
    return count;
}
