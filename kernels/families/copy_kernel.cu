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
