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
