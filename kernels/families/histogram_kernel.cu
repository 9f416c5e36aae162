// histogram: counts[in[i] % bins] += 1 for every element.
// global: every thread adds 1 to its bin in global memory: with few bins, or
//         skewed data, many lanes and warps add to the same word.
// shared: each block counts into its own copy of the bins in shared memory,
//         then adds that copy to the global counts, one atomic per bin.
// The atomics' results are unused, so ptxas issues the global ones as REDG,
// which Nsight Compute counts under op_red (the model does the same:
// histogram.c); the shared ones are ATOMS. Neither is a load or a store.
#include "family.h"
#include "histogram.h"

__global__ void histogram_global(const unsigned *__restrict__ in, unsigned *counts,
                                 long long n, int bins)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&counts[in[i] % bins], 1u);
}

__global__ void histogram_shared(const unsigned *__restrict__ in, unsigned *counts,
                                 long long n, int bins)
{
    extern __shared__ unsigned local[];
    // Both loops are kept rolled so that one warp instruction is one round.
#pragma unroll 1
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&local[in[i] % bins], 1u);
    __syncthreads();
#pragma unroll 1
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        atomicAdd(&counts[b], local[b]);
}
