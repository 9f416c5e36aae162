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
