// block_sum: each block sums its elements with atomicAdd in shared memory,
// then adds its sum to out[0] with one float atomicAdd: shared-memory sums
// whose rounding reaches a global output (tests/model/float_atomics.lua on the
// model, tests/compile/kernel_gpu.lua on a GPU).
__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float sum;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) sum = 0.0f;
    __syncthreads();
    if (i < n) atomicAdd(&sum, in[i]);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(out, sum);
}
