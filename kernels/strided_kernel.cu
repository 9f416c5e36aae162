// strided: thread i reads element i * stride; neighbouring lanes are
// stride floats apart, so a warp's 128 useful bytes spread over stride * 128.
#include "family.h"
#include "slots.h"

__global__ void strided(const float *in, float *out, long long stride, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

extern "C" int strided_launch(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    strided<<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const float *)l->buffers[0], (float *)l->buffers[1],
        l->params->v[STRIDED_STRIDE], l->params->v[PARAM_N]);
    return cudaGetLastError();
}
