// bank: shared-memory reads with a lane stride. Each block fills a tile of
// 2048 elements (4, 8 or 16 bytes each) with a hash of its words; then lane
// l of every warp, if l < lanes, sums the 7 elements l*stride + r, r = 0..6,
// and writes the sum. Shifting every lane by r moves all of them to the next
// bank together, so each of the 7 reads has the same conflicts.
#ifndef __CUDACC_RTC__   /* NVRTC, for the emulator, has its own */
#include <cuda_runtime.h>
#endif
#include "family.h"
#include "bank.h"

enum { TILE_ELEMENTS = 2048, READS = 7 };

// A 32-bit word of block b's tile: the same hash the CPU reference uses.
__device__ __forceinline__ unsigned tile_word(unsigned block, unsigned word)
{
    return (block * 8192u + word) * 2654435761u;
}

__device__ __forceinline__ void add(unsigned &sum, unsigned v) { sum += v; }
__device__ __forceinline__ void add(unsigned long long &sum, unsigned long long v) { sum += v; }
__device__ __forceinline__ void add(uint4 &sum, uint4 v)
{
    sum.x += v.x; sum.y += v.y; sum.z += v.z; sum.w += v.w;
}

template <typename T>
__global__ void bank(T *out, int stride, int lanes, long long n)
{
    extern __shared__ uint4 tile_chunks[];     // the tile as 16-byte chunks, for the fill
    const T *tile = (const T *)tile_chunks;
    const int chunks = TILE_ELEMENTS * (int)sizeof(T) / 16;
    for (int c = threadIdx.x; c < chunks; c += blockDim.x) {
        unsigned w = 4 * c;
        tile_chunks[c] = make_uint4(tile_word(blockIdx.x, w), tile_word(blockIdx.x, w + 1),
                                    tile_word(blockIdx.x, w + 2), tile_word(blockIdx.x, w + 3));
    }
    __syncthreads();
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    if (i < n && lane < lanes) {
        T sum = {};
        #pragma unroll
        for (int r = 0; r < READS; r++)
            add(sum, tile[lane * stride + r]);
        out[i] = sum;
    }
}
