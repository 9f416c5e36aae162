// expect: cannot #include "@SECRET@"
/* before */ # /* between */ include /* and after */ "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
