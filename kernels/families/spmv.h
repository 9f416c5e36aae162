/*
** spmv.h — spmv's slots (variant, nnz_per_row, seed) and the variant's choices.
*/
#ifndef WARPLAB_SPMV_H
#define WARPLAB_SPMV_H

enum { SPMV_VARIANT = 2, SPMV_NNZ_PER_ROW, SPMV_SEED, SPMV_SCALAR = 0, SPMV_VECTOR };

#endif
