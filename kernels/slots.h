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
enum { GATHER_PATTERN = 2, GATHER_WINDOW, GATHER_SEED, GATHER_RANDOM = 0, GATHER_SORTED, GATHER_WINDOWED };
enum { SPMV_VARIANT = 2, SPMV_NNZ_PER_ROW, SPMV_SEED, SPMV_SCALAR = 0, SPMV_VECTOR };
enum { HISTOGRAM_VARIANT = 2, HISTOGRAM_BINS, HISTOGRAM_DISTRIBUTION, HISTOGRAM_GLOBAL = 0, HISTOGRAM_SHARED, HISTOGRAM_UNIFORM = 0, HISTOGRAM_SKEWED };

#endif
