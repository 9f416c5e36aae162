// expect: cannot #include "@SECRET@"
// A carriage return alone ends a line for clang: the comment ends there.
// comment#include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
