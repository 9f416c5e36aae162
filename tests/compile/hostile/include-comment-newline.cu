// expect: cannot #include "@SECRET@"
// A comment that spans a line ends right before the #.
int x; /*
*/ #include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
