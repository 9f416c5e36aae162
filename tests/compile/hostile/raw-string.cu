// expect: a raw string literal
// A raw string that holds a comment's start, which a simpler reading would follow.
__device__ const char *text = R"x(" /* ")x";
#include "@SECRET@"
// */
__global__ void k(int *p) { p[0] = 1; }
