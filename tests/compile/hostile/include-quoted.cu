// expect: cannot #include "@SECRET@"
// A submission reads a grader's file: NVRTC quoted it in its error (finding 3).
#include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
