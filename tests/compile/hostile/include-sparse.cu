// expect: cannot #include "@SPARSE@"
// An 8 GB sparse file reached 5.8 GB in NVRTC (finding 6).
#include "@SPARSE@"
__global__ void k(int *p) { p[0] = 1; }
