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
