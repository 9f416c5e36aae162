/*
** grid2d.h — 2-D launches for the access model: which block and which
** thread each lane of a warp is, and a warp instruction built lane by lane.
** Warps are cut from a block's threads in x-fastest order
** (threadIdx.x + threadIdx.y * blockDim.x), as the hardware does, so a
** block narrower than 32 threads puts several of its rows in one warp.
*/
#ifndef WARPLAB_GRID2D_H
#define WARPLAB_GRID2D_H

#include "family.h"

#ifdef __cplusplus
extern "C" {
#endif

/* grid_x × grid_y blocks of block_x × block_y threads (block_x * block_y a multiple of 32). */
struct grid2d {
    unsigned grid_x, grid_y;
    int block_x, block_y;
};

/* The helpers below are the C side's (the model's and the launchers'); NVRTC,
   compiling device code for the emulator, sees only the types. */
#ifndef __CUDACC_RTC__
/* Blocks of `block` threads that cover `extent` threads along one axis. */
unsigned grid2d_blocks(long long extent, int block);

/* The launch shape the backends see: every thread of the grid, block_x * block_y per block. */
struct launch_shape grid2d_shape(struct grid2d g);

/* The lanes of one warp: their block (blocks are numbered x-fastest, like
   the warps) and each lane's threadIdx. */
struct warp2d {
    long long block_x, block_y;
    int x[WARP_SIZE], y[WARP_SIZE];
};
void grid2d_warp(struct grid2d g, long long warp, struct warp2d *w);
#endif


#ifdef __cplusplus
}
#endif
#endif
