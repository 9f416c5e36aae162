// stencil1d: out[i] = in[i] + in[i+1] + ... + in[i+2*radius], the 2*radius+1
// neighbours of in[i+radius] (the input has radius halo elements each side).
// Lanes k floats apart read the same sectors, so each sector is asked for
// up to 2*radius+1 times: L1 can serve the repeats, unless load="cg".
#include "family.h"
#include "stencil1d.h"
#include "hinted_load.cuh"

template <int HINT>
__global__ void stencil1d(const float *in, float *out, int radius, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k <= 2 * radius; k++)   // in this order: the CPU reference sums the same way
        sum += hinted_load<HINT>(&in[i + k]);
    out[i] = sum;
}
