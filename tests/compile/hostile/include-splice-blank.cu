// expect: cannot #include "@SECRET@"
// A backslash, blanks, then the line's end: a continuation to clang, not to every compiler.
# \   
include "@SECRET@"
__global__ void k(int *p) { p[0] = 1; }
