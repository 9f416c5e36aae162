// working_set: n threads each load 8 16-byte elements of a buffer of
// `elements` elements: thread i reads elements (i + j*n) % elements, j = 0..7,
// so a launch makes 128*n bytes of loads in passes over the buffer. Each warp
// adds up the words it read and lane 0 writes the warp's sum.
#ifndef __CUDACC_RTC__   /* NVRTC, for the emulator, has its own */
#include <cuda_runtime.h>
#endif
#include "family.h"
#include "working_set.h"

enum { LOADS = 8 };

// step = n % elements, from the host: the index moves on without a 64-bit division per load.
__global__ void working_set(const uint4 *buf, unsigned *out, long long elements, long long step, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned sum = 0;
    if (i < n) {
        long long e = i % elements;
        #pragma unroll
        for (int j = 0; j < LOADS; j++) {
            uint4 v = buf[e];
            sum += v.x + v.y + v.z + v.w;
            e += step;
            if (e >= elements)
                e -= elements;
        }
    }
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0 && i < n)
        out[i / 32] = sum;
}
