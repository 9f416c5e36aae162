// my_histogram, done: each block counts into its own copy of the bins in
// shared memory, then adds the copy to the global bins, one atomic a bin.
#define BINS 256
extern "C" __global__ void my_histogram(const unsigned char *values, unsigned *bins, int n)
{
    __shared__ unsigned local[BINS];
    for (int k = threadIdx.x; k < BINS; k += blockDim.x)
        local[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[values[i]], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < BINS; k += blockDim.x)
        atomicAdd(&bins[k], local[k]);
}
