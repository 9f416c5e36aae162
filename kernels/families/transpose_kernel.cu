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
