// Test-only kernels: a copy with one wrong element, and one that faults.
#include "family.h"

__global__ void wrong(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i == n / 2 ? in[i] + 1.0f : in[i];
}

__global__ void fault(const float *in, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i + (i == 0 ? (1LL << 40) : 0)] = in[i];   // thread 0 writes 4 TB past the end
}
