// expect: compiled
// One lane spins on a value nothing changes; the other 31 wait at the exit.
extern "C" __global__ void budget_spin(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        volatile float *flag = out;
        while (flag[0] == 0.0f) {
        }
    }
    if (i < n)
        out[i + 1] = 1.0f;
}
