/*
** traverse.h — traverse's slots (rows, cols, block, order) and the order's choices.
*/
#ifndef WARPLAB_TRAVERSE_H
#define WARPLAB_TRAVERSE_H

enum { TRAVERSE_ROWS = 0, TRAVERSE_COLS = 1, TRAVERSE_BLOCK = 2, TRAVERSE_ORDER = 3 };
enum { TRAVERSE_BY_ROW = 0, TRAVERSE_BY_COL = 1, TRAVERSE_TILED = 2 };   /* order's choices */

#endif
