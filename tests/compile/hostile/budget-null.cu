// expect: compiled
// A store through a pointer read from a buffer of zeros: a null pointer.
extern "C" __global__ void budget_null(float **table, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        table[0][i] = 1.0f;
}
