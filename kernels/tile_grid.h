/*
** tile_grid.h — what conv2d and matmul share: launches of square blocks of
** tile x tile threads over a grid of tiles, seen warp by warp and lane by
** lane, and a warp's instruction stream cut into the model's pages.
*/
#ifndef WARPLAB_TILE_GRID_H
#define WARPLAB_TILE_GRID_H

#include "common.h"

/* One warp of such a launch: its block and each lane's thread in it. */
struct tile_warp {
    int tile;
    long long block_x, block_y;          /* blockIdx */
    int tx[WARP_SIZE], ty[WARP_SIZE];    /* threadIdx of each lane */
};

/* Blocks covering a width x height grid of threads, tile x tile each. */
struct launch_shape tile_grid_shape(int tile, long long width, long long height);
/* Where warp `warp` of that launch sits; blocks run row by row, blockIdx.x fastest,
   and a block's threads row by row (a warp of 8- or 16-wide blocks spans 4 or 2 rows). */
void tile_warp_locate(struct tile_warp *w, int tile, long long width, long long warp);


/* Fills instruction `index` of a warp's program into acc. */
typedef void (*instruction_fill)(const void *warp_state, long long index, struct warp_access *acc);
/* Page `page` of a program of `instructions` instructions: how many it filled. */
int tile_page(long long page, long long instructions, instruction_fill fill,
              const void *warp_state, struct warp_access *acc);

#endif
