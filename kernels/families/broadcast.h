/*
** broadcast.h — broadcast's slots (space, pattern) and its table, which .c and .cu fill alike.
*/
#ifndef WARPLAB_BROADCAST_H
#define WARPLAB_BROADCAST_H

enum { BROADCAST_SPACE = 2, BROADCAST_PATTERN = 3, BROADCAST_TABLE_FLOATS = 16384 };
#define BROADCAST_TABLE_VALUE(j) ((float)(j) + 0.25f)   /* broadcast's table, in both .c and .cu */

#endif
