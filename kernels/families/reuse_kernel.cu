// reuse: thread t of a block sums the block's elements t, t+1, ..., t+reuse-1
// (wrapping at the block's end). "shared" loads each element once into a
// tile and reads the neighbours there; "global" reads them from global
// memory every time (L1 may hold them, but every use is a load request).
#include "family.h"
#include "reuse.h"

__global__ void reuse_shared(const float *in, float *out, int reuse, long long n)
{
    extern __shared__ float tile[];
    long long first = (long long)blockIdx.x * blockDim.x;
    long long i = first + threadIdx.x;
    int valid = (int)(n - first < blockDim.x ? n - first : blockDim.x);
    int t = threadIdx.x;
    if (i < n)
        tile[t] = in[i];                       // each element loaded once
    __syncthreads();
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k < reuse; k++)
            sum += tile[(t + k) % valid];      // and used reuse times from shared memory
        out[i] = sum;
    }
}

__global__ void reuse_global(const float *in, float *out, int reuse, long long n)
{
    long long first = (long long)blockIdx.x * blockDim.x;
    long long i = first + threadIdx.x;
    int valid = (int)(n - first < blockDim.x ? n - first : blockDim.x);
    int t = threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k < reuse; k++)
            sum += in[first + (t + k) % valid];   // every use is a global load
        out[i] = sum;
    }
}
