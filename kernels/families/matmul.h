/*
** matmul.h — where matmul's parameters (m, n, k, variant, tile) sit in struct params.
*/
#ifndef WARPLAB_MATMUL_H
#define WARPLAB_MATMUL_H

enum { MATMUL_M = 0, MATMUL_N = 1, MATMUL_K = 2, MATMUL_VARIANT = 3, MATMUL_TILE = 4 };

#endif
