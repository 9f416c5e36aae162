// copy: every thread copies one element: a float, a float2 or a float4.
#include "family.h"
#include "copy.h"

template <typename T>
__global__ void copy(const T *__restrict__ in, T *__restrict__ out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <typename T>
static int launch_copy(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    copy<T><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const T *)l->buffers[0], (T *)l->buffers[1], l->params->v[PARAM_N]);
    return cudaGetLastError();
}

extern "C" int copy_launch(const gpu_launch *l)
{
    switch (l->params->v[COPY_VEC]) {
    case 4:  return launch_copy<float4>(l);
    case 2:  return launch_copy<float2>(l);
    default: return launch_copy<float>(l);
    }
}
#endif
