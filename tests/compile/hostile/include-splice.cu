// expect: cannot #include "@SECRET@"
// Line continuations inside the directive's name.
#inc\
lu\
de "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
