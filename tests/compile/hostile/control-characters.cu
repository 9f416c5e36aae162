// expect: \x1B[31m|<U+001B>[31m
// The compiler's messages echo the source: its control characters come back visible, never raw.
#error [31m red ]0;title
__global__ void k(int *p) { p[0] = 1; }
