// expect: __has_include without a header
#define PROBE __has_include
#if PROBE("@SECRET@")
#error the file is there
#endif
__global__ void k(int *p) { p[0] = 1; }
