// offset: loads start `offset` floats past the aligned start of a and b;
// the store to r stays aligned. Threads with i + offset >= n do nothing.
// `load` picks the cache hint of the two loads (one template per hint).
#include "family.h"
#include "offset.h"
#include "hinted_load.cuh"

template <int HINT>
__global__ void offset(const float *a, const float *b, float *r, long long offset, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long k = i + offset;
    if (k < n)
        r[i] = hinted_load<HINT>(&a[k]) + hinted_load<HINT>(&b[k]);
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <int HINT>
static void launch_offset(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    offset<HINT><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const float *)l->buffers[0], (const float *)l->buffers[1], (float *)l->buffers[2],
        l->params->v[OFFSET_OFFSET], l->params->v[PARAM_N]);
}

// Indexed by the `load` choice (LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_LDG, LOAD_CS).
static void (*const launchers[])(const gpu_launch *) = {
    launch_offset<LOAD_DEFAULT>, launch_offset<LOAD_CA>, launch_offset<LOAD_CG>,
    launch_offset<LOAD_LDG>, launch_offset<LOAD_CS>,
};

extern "C" int offset_launch(const gpu_launch *l)
{
    launchers[l->params->v[OFFSET_LOAD]](l);
    return cudaGetLastError();
}
#endif
