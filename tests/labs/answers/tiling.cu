// window7, tiled: the block loads its 256 + 6 inputs into shared memory once,
// then each thread sums its seven from there.
extern "C" __global__ void window7(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 6];
    int first = blockIdx.x * blockDim.x;
    for (int k = threadIdx.x; k < blockDim.x + 6; k += blockDim.x)
        if (first + k < n + 6)
            tile[k] = in[first + k];
    __syncthreads();
    int i = first + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k < 7; k++)
            sum += tile[threadIdx.x + k];
        out[i] = sum;
    }
}
