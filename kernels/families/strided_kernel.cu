// strided: thread i reads element i * stride; neighbouring lanes are
// stride floats apart, so a warp's 128 useful bytes spread over stride * 128.
// `load` picks the cache hint of the load (one template per hint).
#include "family.h"
#include "strided.h"
#include "hinted_load.cuh"

template <int HINT>
__global__ void strided(const float *in, float *out, long long stride, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = hinted_load<HINT>(&in[i * stride]);
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <int HINT>
static void launch_strided(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    strided<HINT><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const float *)l->buffers[0], (float *)l->buffers[1],
        l->params->v[STRIDED_STRIDE], l->params->v[PARAM_N]);
}

// Indexed by the `load` choice (LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_LDG, LOAD_CS).
static void (*const launchers[])(const gpu_launch *) = {
    launch_strided<LOAD_DEFAULT>, launch_strided<LOAD_CA>, launch_strided<LOAD_CG>,
    launch_strided<LOAD_LDG>, launch_strided<LOAD_CS>,
};

extern "C" int strided_launch(const gpu_launch *l)
{
    launchers[l->params->v[STRIDED_LOAD]](l);
    return cudaGetLastError();
}
#endif
