// width: every thread copies one element of 1 to 16 bytes: char, short,
// float, double, float2 or float4. One load and one store of that width.
#include "family.h"
#include "width.h"

template <typename T>
__global__ void width_copy(const T *__restrict__ in, T *__restrict__ out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <typename T>
static int launch_width(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    width_copy<T><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const T *)l->buffers[0], (T *)l->buffers[1], l->params->v[PARAM_N]);
    return cudaGetLastError();
}

// Cases in the order of the "type" choices in width.c.
extern "C" int width_launch(const gpu_launch *l)
{
    switch (l->params->v[WIDTH_TYPE]) {
    case 0:  return launch_width<char>(l);
    case 1:  return launch_width<short>(l);
    case 3:  return launch_width<double>(l);
    case 4:  return launch_width<float2>(l);
    case 5:  return launch_width<float4>(l);
    default: return launch_width<float>(l);
    }
}
#endif
