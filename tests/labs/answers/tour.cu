// tour_scale, fixed: neighbouring lanes take neighbouring elements.
extern "C" __global__ void tour_scale(const float *in, float *out, int n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}
