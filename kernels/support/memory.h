/*
** memory.h — zeroed memory for the maps a launch touches sparsely.
*/
#ifndef WARPLAB_MEMORY_H
#define WARPLAB_MEMORY_H

#include <stddef.h>

/* Zeroed memory of bytes, in 2 MB huge pages where the kernel gives them when
   it is large (a fault per 2 MB, not per 4 KB); NULL when there is none.
   zeroed_free takes the same size back. */
void *zeroed_new(size_t bytes);
void zeroed_free(void *memory, size_t bytes);

#endif
