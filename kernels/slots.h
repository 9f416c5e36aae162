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
enum { WIDTH_TYPE = 2 };
enum { BROADCAST_SPACE = 2, BROADCAST_PATTERN = 3, BROADCAST_TABLE_FLOATS = 16384 };
#define BROADCAST_TABLE_VALUE(j) ((float)(j) + 0.25f)   /* broadcast's table, in both .c and .cu */

#endif
