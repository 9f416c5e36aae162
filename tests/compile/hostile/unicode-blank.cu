// expect: a character outside ASCII
// A no-break space before #: clang takes it for a blank, so the line is a directive.
 #include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
