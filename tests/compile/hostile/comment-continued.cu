// expect: compiled
// A // comment continued by a backslash swallows the next line, for the check as for the compiler: \
#include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
