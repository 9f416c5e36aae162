// expect: this _Pragma may read a file
_Pragma("GCC dependency \"@SECRET@\"")
__global__ void k(int *p) { p[0] = 1; }
