// expect: cannot #import "@SECRET@"
#import "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
