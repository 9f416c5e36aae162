// expect: a trigraph
??=include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
