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
enum { TRAVERSE_ROWS = 0, TRAVERSE_COLS = 1, TRAVERSE_BLOCK = 2, TRAVERSE_ORDER = 3 };
enum { TRAVERSE_BY_ROW = 0, TRAVERSE_BY_COL = 1, TRAVERSE_TILED = 2 };   /* order's choices */
enum { TRANSPOSE_ROWS = 0, TRANSPOSE_COLS = 1, TRANSPOSE_VARIANT = 2, TRANSPOSE_TILE = 3 };
enum { TRANSPOSE_NAIVE = 0, TRANSPOSE_SHARED = 1, TRANSPOSE_PADDED = 2 };   /* variant's choices */

#endif
