// expect: #include F: the header must be named in <...> or "...", not by a macro
#define F "@SECRET@"
#include F
__global__ void k(int *p) { p[0] = 1; }
