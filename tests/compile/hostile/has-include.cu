// expect: cannot __has_include "@SECRET@"
// Probing whether a file exists.
#if __has_include("@SECRET@")
#error the file is there
#endif
__global__ void k(int *p) { p[0] = 1; }
