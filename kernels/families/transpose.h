/*
** transpose.h — transpose's slots (rows, cols, variant, tile) and the variant's choices.
*/
#ifndef WARPLAB_TRANSPOSE_H
#define WARPLAB_TRANSPOSE_H

enum { TRANSPOSE_ROWS = 0, TRANSPOSE_COLS = 1, TRANSPOSE_VARIANT = 2, TRANSPOSE_TILE = 3 };
enum { TRANSPOSE_NAIVE = 0, TRANSPOSE_SHARED = 1, TRANSPOSE_PADDED = 2 };   /* variant's choices */

#endif
