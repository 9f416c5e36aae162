// expect: any
// __has_include made by pasting passes the first check; the child reads nothing outside the toolkit (Landlock).
#define CAT(a, b) a##b
#if CAT(__has_, include)("@SECRET@")
#endif
__global__ void k(int *p) { p[0] = 1; }
