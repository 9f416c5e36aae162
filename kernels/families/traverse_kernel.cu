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
