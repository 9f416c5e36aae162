// expect: this #pragma may read a file
#pragma GCC dependency "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
