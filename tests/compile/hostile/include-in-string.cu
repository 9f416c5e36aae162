// expect: compiled
// "#include" in a string or a comment is no directive.
__device__ const char *text = "#include \"@SECRET@\"";
/*
#include "@SECRET@"
*/
__global__ void k(int *p) { p[0] = text[0]; }
