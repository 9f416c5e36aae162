// matmul: C = A x B in float, A m x k, B k x n, C m x n, all row-major.
// Blocks are tile x tile threads; thread (tx, ty) computes C[row][col] with
// row = blockIdx.y * tile + ty and col = blockIdx.x * tile + tx, summing over
// i = 0 .. k-1 in order.
//   naive: every product reads A[row][i] and B[i][col] from global memory.
//   tiled: the block walks k in steps of tile; each step, every thread copies
//          one element of A and one of B into shared memory (zero past an
//          edge), and the products read them from there: each element
//          fetched from global memory serves tile threads.
#include "family.h"
#include "matmul.h"

__global__ void matmul_naive(const float *a, const float *b, float *c, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int i = 0; i < k; i++)
        sum += a[(long long)row * k + i] * b[(long long)i * n + col];
    c[(long long)row * n + col] = sum;
}

template <int TILE>
__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ __align__(16) float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int step = 0; step < k; step += TILE) {
        as[ty][tx] = row < m && step + tx < k ? a[(long long)row * k + step + tx] : 0.0f;
        bs[ty][tx] = step + ty < k && col < n ? b[(long long)(step + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; i += 4) {
            // 4 of A's row at once; said aligned, as it is (as is, and i steps by 4),
            // so that clang too makes one 16-byte load of it, as nvcc and NVRTC do
            float4 a4 = *reinterpret_cast<const float4 *>(__builtin_assume_aligned(&as[ty][i], 16));
            sum += a4.x * bs[i][tx];
            sum += a4.y * bs[i + 1][tx];
            sum += a4.z * bs[i + 2][tx];
            sum += a4.w * bs[i + 3][tx];
        }
        __syncthreads();
    }
    if (row < m && col < n)
        c[(long long)row * n + col] = sum;
}
