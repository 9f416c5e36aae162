// expect: cannot #include "../../../../../../../..@SECRET@"
// A path relative to wherever the compiler runs.
#include "../../../../../../../..@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
