/*
** slots.h — where each family's own parameters sit in struct params,
** after the common n (0) and block (1). Shared by the declarations (.c)
** and the launchers (.cu).
*/
#ifndef WARPLAB_SLOTS_H
#define WARPLAB_SLOTS_H

enum { COPY_VEC = 2 };
enum { OFFSET_OFFSET = 2, OFFSET_LOAD = 3 };
enum { STRIDED_STRIDE = 2, STRIDED_LOAD = 3 };
enum { WIDTH_TYPE = 2 };
enum { BROADCAST_SPACE = 2, BROADCAST_PATTERN = 3, BROADCAST_TABLE_FLOATS = 16384 };
#define BROADCAST_TABLE_VALUE(j) ((float)(j) + 0.25f)   /* broadcast's table, in both .c and .cu */
enum { STENCIL1D_RADIUS = 2, STENCIL1D_LOAD = 3 };
enum { STORE_POLICY_STORE = 2, STORE_POLICY_FILL = 3 };
enum { AOS_SOA_LAYOUT = 2, AOS_SOA_FIELDS = 3, AOS_SOA_ACCESS = 4 };
enum { AOS_SOA_READ, AOS_SOA_WRITE, AOS_SOA_UPDATE };   /* aos_soa's `access` choices */
enum { AOS_SOA_STRUCTS_IN, AOS_SOA_A, AOS_SOA_B, AOS_SOA_STRUCTS, AOS_SOA_OUT };   /* its buffers */
enum { PARTICLES_LAYOUT = 2 };
enum { LAYOUT_AOS, LAYOUT_SOA };   /* the `layout` choices of aos_soa and particles */
/* Floats between the arrays of a struct of arrays kept in one buffer: n rounded
   up to 64 floats, so that each array starts 256-byte aligned as cudaMalloc's would. */
#define SOA_PITCH(n) (((n) + 63) / 64 * 64)
/* The chapter's velocity update: v += a * dt with these a and dt. */
#define PARTICLES_AX 0.1f
#define PARTICLES_AY 0.2f
#define PARTICLES_AZ 0.3f
#define PARTICLES_DT 0.01f
enum { TRAVERSE_ROWS = 0, TRAVERSE_COLS = 1, TRAVERSE_BLOCK = 2, TRAVERSE_ORDER = 3 };
enum { TRAVERSE_BY_ROW = 0, TRAVERSE_BY_COL = 1, TRAVERSE_TILED = 2 };   /* order's choices */
enum { TRANSPOSE_ROWS = 0, TRANSPOSE_COLS = 1, TRANSPOSE_VARIANT = 2, TRANSPOSE_TILE = 3 };
enum { TRANSPOSE_NAIVE = 0, TRANSPOSE_SHARED = 1, TRANSPOSE_PADDED = 2 };   /* variant's choices */
enum { REUSE_REUSE = 2, REUSE_VARIANT = 3 };
enum { BANK_STRIDE = 2, BANK_ELEMENT_BYTES = 3, BANK_LANES = 4 };
enum { WORKING_SET_BYTES = 2 };
enum { PREFETCH_VARIANT = 2 };
enum { GATHER_PATTERN = 2, GATHER_WINDOW, GATHER_SEED, GATHER_RANDOM = 0, GATHER_SORTED, GATHER_WINDOWED };
enum { SPMV_VARIANT = 2, SPMV_NNZ_PER_ROW, SPMV_SEED, SPMV_SCALAR = 0, SPMV_VECTOR };
enum { HISTOGRAM_VARIANT = 2, HISTOGRAM_BINS, HISTOGRAM_DISTRIBUTION, HISTOGRAM_GLOBAL = 0, HISTOGRAM_SHARED, HISTOGRAM_UNIFORM = 0, HISTOGRAM_SKEWED };
enum { CONV2D_WIDTH = 0, CONV2D_HEIGHT = 1, CONV2D_VARIANT = 2, CONV2D_TILE = 3, CONV2D_RADIUS = 4 };
enum { MATMUL_M = 0, MATMUL_N = 1, MATMUL_K = 2, MATMUL_VARIANT = 3, MATMUL_TILE = 4 };

#endif
