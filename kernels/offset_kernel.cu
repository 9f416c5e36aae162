// offset: loads start `offset` floats past the aligned start of a and b;
// the store to r stays aligned. Threads with i + offset >= n do nothing.
#include "family.h"
#include "slots.h"

__global__ void offset(const float *a, const float *b, float *r, long long offset, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long k = i + offset;
    if (k < n)
        r[i] = a[k] + b[k];
}

extern "C" int offset_launch(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    offset<<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (const float *)l->buffers[0], (const float *)l->buffers[1], (float *)l->buffers[2],
        l->params->v[OFFSET_OFFSET], l->params->v[PARAM_N]);
    return cudaGetLastError();
}
