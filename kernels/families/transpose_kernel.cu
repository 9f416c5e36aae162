// transpose: out (cols x rows) = the transpose of in (rows x cols), both row-major,
// one element per thread in tile x tile blocks.
//   "naive":  reads rows of in (coalesced) and writes columns of out (a row apart per lane);
//   "shared": reads a tile's rows into shared memory, then writes rows of out from the
//             tile's columns: both global accesses coalesced, but a column of the tile
//             sits in few banks (tile 32: all in one, a 32-way conflict);
//   "padded": the same with each tile row one float longer, which spreads a column over
//             the banks (conflict-free when a warp is one tile row, i.e. tile 32).
// Indices fit an int: rows and cols are at most 32768.
#include "family.h"
#include "transpose.h"
#include "grid2d.h"

#ifndef WARPLAB_DEVICE_ONLY   /* the launcher's, in the C declaration */
extern "C" struct grid2d transpose_grid(const struct params *p);
#endif

__global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[col * rows + row] = in[row * cols + col];
}

template <int TILE, int PAD>
__global__ void transpose_tiled(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = threadIdx.x, y = threadIdx.y;
    int row = blockIdx.y * TILE + y, col = blockIdx.x * TILE + x;
    if (row < rows && col < cols)
        tile[y][x] = in[row * cols + col];            // a row of the tile
    __syncthreads();
    int out_row = blockIdx.x * TILE + y, out_col = blockIdx.y * TILE + x;
    if (out_row < cols && out_col < rows)
        out[out_row * rows + out_col] = tile[x][y];   // a column of the tile
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <int TILE>
static void launch_tile(const gpu_launch *l, dim3 grid, int variant, int rows, int cols)
{
    dim3 block(TILE, TILE);
    cudaStream_t stream = (cudaStream_t)l->stream;
    const float *in = (const float *)l->buffers[0];
    float *out = (float *)l->buffers[1];
    if (variant == TRANSPOSE_SHARED)
        transpose_tiled<TILE, 0><<<grid, block, 0, stream>>>(in, out, rows, cols);
    else if (variant == TRANSPOSE_PADDED)
        transpose_tiled<TILE, 1><<<grid, block, 0, stream>>>(in, out, rows, cols);
    else
        transpose_naive<<<grid, block, 0, stream>>>(in, out, rows, cols);
}

extern "C" int transpose_launch(const gpu_launch *l)
{
    const params *p = l->params;
    grid2d g = transpose_grid(p);
    dim3 grid(g.grid_x, g.grid_y);
    int variant = (int)p->v[TRANSPOSE_VARIANT];
    int rows = (int)p->v[TRANSPOSE_ROWS], cols = (int)p->v[TRANSPOSE_COLS];
    switch (p->v[TRANSPOSE_TILE]) {
    case 8:  launch_tile<8>(l, grid, variant, rows, cols); break;
    case 16: launch_tile<16>(l, grid, variant, rows, cols); break;
    default: launch_tile<32>(l, grid, variant, rows, cols); break;
    }
    return cudaGetLastError();
}
#endif
