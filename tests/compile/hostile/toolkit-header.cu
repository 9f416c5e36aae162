// expect: compiled
// The toolkit's own headers stay allowed.
#include <cuda_pipeline.h>
__global__ void k(int *p) { p[0] = 1; }
