// traverse: out = 2 * in over a rows x cols row-major matrix, with 2-D blocks.
//   "row":   threadIdx.x runs along a row, so neighbouring lanes read neighbouring floats;
//   "col":   threadIdx.x runs down a column, so neighbouring lanes are a whole row apart;
//   "tiled": as "row", but each block stages its tile in shared memory first.
// Warps are cut from a block's threads x-fastest (threadIdx.x + threadIdx.y * blockDim.x),
// so a block 16 threads wide puts two rows ("col": two columns) into every warp.
// Indices fit an int: rows and cols are at most 32768.
#include "family.h"
#include "traverse.h"
#include "grid2d.h"

#ifndef WARPLAB_DEVICE_ONLY   /* the launcher's, in the C declaration */
extern "C" struct grid2d traverse_grid(const struct params *p);
#endif

__global__ void traverse_row(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[row * cols + col] = 2.0f * in[row * cols + col];
}

__global__ void traverse_col(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols)
        out[row * cols + col] = 2.0f * in[row * cols + col];
}

__global__ void traverse_tiled(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    extern __shared__ float tile[];   // blockDim.x * blockDim.y floats, row after row
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int here = threadIdx.y * blockDim.x + threadIdx.x;
    bool inside = row < rows && col < cols;
    if (inside)
        tile[here] = in[row * cols + col];
    __syncthreads();
    if (inside)
        out[row * cols + col] = 2.0f * tile[here];
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
extern "C" int traverse_launch(const gpu_launch *l)
{
    const params *p = l->params;
    grid2d g = traverse_grid(p);
    dim3 grid(g.grid_x, g.grid_y), block(g.block_x, g.block_y);
    cudaStream_t stream = (cudaStream_t)l->stream;
    const float *in = (const float *)l->buffers[0];
    float *out = (float *)l->buffers[1];
    int rows = (int)p->v[TRAVERSE_ROWS], cols = (int)p->v[TRAVERSE_COLS];
    switch (p->v[TRAVERSE_ORDER]) {
    case TRAVERSE_BY_COL:
        traverse_col<<<grid, block, 0, stream>>>(in, out, rows, cols);
        break;
    case TRAVERSE_TILED:
        traverse_tiled<<<grid, block, g.block_x * g.block_y * sizeof(float), stream>>>(in, out, rows, cols);
        break;
    default:
        traverse_row<<<grid, block, 0, stream>>>(in, out, rows, cols);
    }
    return cudaGetLastError();
}
#endif
