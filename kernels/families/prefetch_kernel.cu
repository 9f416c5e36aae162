// prefetch: each thread block streams 4 consecutive blocks of data
// (chunks of blockDim.x floats): out[i] = work(in[i]). "none" loads a chunk,
// then computes and stores it; "register" loads the next chunk into a register
// before computing this one; "cp_async" copies the next chunk into shared
// memory with cp.async (sm_80+) while this one is computed from there.
#include <cuda_pipeline.h>
#include "family.h"
#include "prefetch.h"

enum { CHUNKS = 4, WORK_STEPS = 8 };

// The computing each element gets: a chain of multiply-adds. y * 0.5 is
// exact, so the GPU's fused multiply-add gives the CPU's result bit for bit.
__device__ __forceinline__ float work(float x)
{
    float y = x;
    for (int k = 0; k < WORK_STEPS; k++)
        y = y * 0.5f + x;
    return y;
}

// No __restrict__: the compiler may not move the next load above this store.
__global__ void prefetch_none(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x * CHUNKS + threadIdx.x;
    for (int c = 0; c < CHUNKS; c++, i += blockDim.x)
        if (i < n)
            out[i] = work(in[i]);
}

__global__ void prefetch_register(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x * CHUNKS + threadIdx.x;
    float next = i < n ? in[i] : 0.0f;
    for (int c = 0; c < CHUNKS; c++, i += blockDim.x) {
        float current = next;
        if (c + 1 < CHUNKS && i + blockDim.x < n)
            next = in[i + blockDim.x];          // the next chunk is on its way ...
        if (i < n)
            out[i] = work(current);             // ... while this one is computed
    }
}

// Two stages of blockDim.x floats; each thread copies and reads only its own slot.
__global__ void prefetch_cp_async(const float *in, float *out, long long n)
{
    extern __shared__ float stage[];
    long long i = (long long)blockIdx.x * blockDim.x * CHUNKS + threadIdx.x;
    if (i < n)
        __pipeline_memcpy_async(&stage[threadIdx.x], &in[i], sizeof(float));
    __pipeline_commit();
    for (int c = 0; c < CHUNKS; c++, i += blockDim.x) {
        if (c + 1 < CHUNKS && i + blockDim.x < n)
            __pipeline_memcpy_async(&stage[(c + 1) % 2 * blockDim.x + threadIdx.x], &in[i + blockDim.x],
                                    sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(1);               // chunk c has landed; c+1 may still be in flight
        if (i < n)
            out[i] = work(stage[c % 2 * blockDim.x + threadIdx.x]);
    }
}
