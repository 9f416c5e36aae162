// expect: cannot #include "@SECRET@"
%:include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
