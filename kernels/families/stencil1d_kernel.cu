// stencil1d: out[i] = in[i] + in[i+1] + ... + in[i+2*radius], the 2*radius+1
// neighbours of in[i+radius] (the input has radius halo elements each side).
// Lanes k floats apart read the same sectors, so each sector is asked for
// up to 2*radius+1 times: L1 can serve the repeats, unless load="cg".
#include "family.h"
#include "stencil1d.h"
#include "hinted_load.cuh"

template <int HINT>
__global__ void stencil1d(const float *in, float *out, int radius, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k <= 2 * radius; k++)   // in this order: the CPU reference sums the same way
        sum += hinted_load<HINT>(&in[i + k]);
    out[i] = sum;
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <int HINT>
static void launch_stencil1d(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    stencil1d<HINT><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const float *)l->buffers[0], (float *)l->buffers[1],
        (int)l->params->v[STENCIL1D_RADIUS], l->params->v[PARAM_N]);
}

// Indexed by the `load` choice (LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_LDG, LOAD_CS).
static void (*const launchers[])(const gpu_launch *) = {
    launch_stencil1d<LOAD_DEFAULT>, launch_stencil1d<LOAD_CA>, launch_stencil1d<LOAD_CG>,
    launch_stencil1d<LOAD_LDG>, launch_stencil1d<LOAD_CS>,
};

extern "C" int stencil1d_launch(const gpu_launch *l)
{
    launchers[l->params->v[STENCIL1D_LOAD]](l);
    return cudaGetLastError();
}
#endif
