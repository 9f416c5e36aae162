// expect: cannot #include "/proc/self/environ"
#include "/proc/self/environ"
__global__ void k(int *p) { p[0] = 1; }
