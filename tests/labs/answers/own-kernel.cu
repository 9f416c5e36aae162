// my_scale, as a student fixed it: x takes the column, y the row, so that
// the 32 lanes of a warp read and write 32 neighbouring floats of one row.
extern "C" __global__ void my_scale(const float *in, float *out, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    long long i = (long long)y * n + x;
    if (x < n && y < n)
        out[i] = in[i] + in[i];
}
