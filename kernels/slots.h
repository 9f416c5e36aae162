/*
** slots.h — where each family's own parameters sit in struct params,
** after the common n (0) and block (1). Shared by the declarations (.c)
** and the launchers (.cu).
*/
#ifndef WARPLAB_SLOTS_H
#define WARPLAB_SLOTS_H

enum { COPY_VEC = 2 };
enum { OFFSET_OFFSET = 2 };
enum { STRIDED_STRIDE = 2 };
enum { CONV2D_WIDTH = 0, CONV2D_HEIGHT = 1, CONV2D_VARIANT = 2, CONV2D_TILE = 3, CONV2D_RADIUS = 4 };
enum { MATMUL_M = 0, MATMUL_N = 1, MATMUL_K = 2, MATMUL_VARIANT = 3, MATMUL_TILE = 4 };

#endif
