// expect: cannot #include_next "@SECRET@"
#include_next "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
