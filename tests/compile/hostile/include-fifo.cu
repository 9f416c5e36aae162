// expect: cannot #include "@FIFO@"
// A FIFO blocked grading forever (finding 3).
#include "@FIFO@"
__global__ void k(int *p) { p[0] = 1; }
