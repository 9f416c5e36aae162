// expect: cannot #include "@SECRET@"
// Even where #if 0 would skip it: the check does not guess at conditions.
#if 0
#include "@SECRET@"
#endif
__global__ void k(int *p) { p[0] = 1; }
