// expect: cannot #include "@SECRET@"
// 1'000 is one number: its quote opens no character literal that would hide the line below.
__device__ int million = 1'000'000;
#include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
