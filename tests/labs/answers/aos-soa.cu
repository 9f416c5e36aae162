// length2, staged: the block copies its 256 positions into shared memory as
// one run of floats (neighbouring lanes, neighbouring floats), then each
// thread reads its own three from there.
extern "C" __global__ void length2(const float *pos, float *out, int n)
{
    __shared__ float tile[3 * 256];
    long long first = 3LL * blockIdx.x * blockDim.x;   // the block's first float
    for (int k = threadIdx.x; k < 3 * blockDim.x; k += blockDim.x)
        if (first + k < 3LL * n)
            tile[k] = pos[first + k];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = tile[3 * threadIdx.x], y = tile[3 * threadIdx.x + 1], z = tile[3 * threadIdx.x + 2];
        out[i] = x * x + y * y + z * z;
    }
}
