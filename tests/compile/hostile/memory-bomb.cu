// expect: needed more than
// A string of 64 MiB, made by macros that double it, and the compiler's copies of it.
#define S0 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define S1 S0 S0
#define S2 S1 S1
#define S3 S2 S2
#define S4 S3 S3
#define S5 S4 S4
#define S6 S5 S5
#define S7 S6 S6
#define S8 S7 S7
#define S9 S8 S8
#define S10 S9 S9
#define S11 S10 S10
#define S12 S11 S11
#define S13 S12 S12
#define S14 S13 S13
#define S15 S14 S14
#define S16 S15 S15
#define S17 S16 S16
#define S18 S17 S17
#define S19 S18 S18
#define S20 S19 S19
__device__ const char s[] = S20;
__global__ void k(char *p) { p[0] = s[threadIdx.x]; }
