// gather: out[i] = in[idx[i]]. The index array is made on the host from the
// pattern and the seed; each thread loads its index, then the element it
// names (anywhere in in[]), then stores it in place.
#include "family.h"
#include "gather.h"

__global__ void gather(const float *__restrict__ in, const int *__restrict__ idx,
                       float *__restrict__ out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[idx[i]];
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
extern "C" int gather_launch(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    gather<<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const float *)l->buffers[0], (const int *)l->buffers[1], (float *)l->buffers[2],
        l->params->v[PARAM_N]);
    return cudaGetLastError();
}
#endif
