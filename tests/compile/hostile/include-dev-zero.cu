// expect: cannot #include "/dev/zero"
#include "/dev/zero"
__global__ void k(int *p) { p[0] = 1; }
