// spmv: y = A·x with A in CSR form (row_ptr, col, val), made on the host.
// scalar: one thread per row walks the row alone, so neighbouring lanes read
//         col[] and val[] a whole row apart.
// vector: one warp per row; its lanes read consecutive non-zeros of the row,
//         then add their partial sums with shuffles and lane 0 stores y.
#include "family.h"
#include "spmv.h"

__global__ void spmv_scalar(const int *__restrict__ row_ptr, const int *__restrict__ col,
                            const float *__restrict__ val, const float *__restrict__ x,
                            float *__restrict__ y, long long rows)
{
    long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows)
        return;
    int start = row_ptr[row], end = row_ptr[row + 1];
    float sum = 0.0f;
    for (int j = start; j < end; j++)
        sum += val[j] * x[col[j]];
    y[row] = sum;
}

__global__ void spmv_vector(const int *__restrict__ row_ptr, const int *__restrict__ col,
                            const float *__restrict__ val, const float *__restrict__ x,
                            float *__restrict__ y, long long rows)
{
    long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows)   // the same for the whole warp: blocks hold whole warps
        return;
    int start = row_ptr[row], end = row_ptr[row + 1];
    float sum = 0.0f;
    // Kept rolled: unrolled, lanes with fewer rounds would run ahead into the
    // next round's instruction, and a warp instruction would mix two rounds.
#pragma unroll 1
    for (int j = start + lane; j < end; j += 32)
        sum += val[j] * x[col[j]];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        y[row] = sum;
}
