/*
** tile_grid.h — what conv2d and matmul share: launches of square blocks of
** tile x tile threads over a grid of tiles (grid2d.h sees them warp by warp
** and lane by lane), and a warp's instruction stream cut into the model's pages.
*/
#ifndef WARPLAB_TILE_GRID_H
#define WARPLAB_TILE_GRID_H

#include "model/common.h"
#include "families/grid2d.h"

/* Blocks of tile x tile threads covering a width x height grid of threads
   (a warp of 8- or 16-wide blocks spans 4 or 2 rows). */
struct grid2d tile_grid(int tile, long long width, long long height);

/* Fills instruction `index` of a warp's program into acc. */
typedef void (*instruction_fill)(const void *warp_state, long long index, struct warp_access *acc);
/* Page `page` of a program of `instructions` instructions: how many it filled. */
int tile_page(long long page, long long instructions, instruction_fill fill,
              const void *warp_state, struct warp_access *acc);

#endif
