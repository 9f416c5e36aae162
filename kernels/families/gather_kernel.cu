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
