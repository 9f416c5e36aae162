// row_sums, a warp a row at a time: each warp takes its own 32 rows one after
// another; its lanes read neighbouring elements of the row, add up their
// share, and the warp's shuffles add the 32 shares. Lane k keeps row k's sum,
// so the warp stores its 32 sums side by side.
extern "C" __global__ void row_sums(const float *a, float *out, int n)
{
    int lane = threadIdx.x % 32;
    int first = blockIdx.x * blockDim.x + threadIdx.x - lane;   // the warp's first row
    float mine = 0.0f;
    for (int k = 0; k < 32 && first + k < n; k++) {
        const float *row = a + (long long)(first + k) * n;
        float sum = 0.0f;
        for (int c = lane; c < n; c += 32)
            sum += row[c];
        for (int step = 16; step > 0; step /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, step);
        sum = __shfl_sync(0xffffffffu, sum, 0);
        if (lane == k)
            mine = sum;
    }
    if (first + lane < n)
        out[first + lane] = mine;
}
