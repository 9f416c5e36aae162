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
enum { REUSE_REUSE = 2, REUSE_VARIANT = 3 };
enum { BANK_STRIDE = 2, BANK_ELEMENT_BYTES = 3, BANK_LANES = 4 };
enum { WORKING_SET_BYTES = 2 };
enum { PREFETCH_VARIANT = 2 };

#endif
