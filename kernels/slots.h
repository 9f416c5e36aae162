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
/* Choice values of the cache hints: `load` (offset, strided, stencil1d), and store_policy's `store` and `fill`. */
enum { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_LDG, LOAD_CS };
enum { STORE_DEFAULT, STORE_CS, STORE_CG };
enum { FILL_FULL, FILL_PARTIAL };

#endif
