/*
** memory.c — large zeroed memory in huge pages.
*/
#include <stdlib.h>
#include <sys/mman.h>
#include "support/memory.h"

enum { HUGE_PAGE_BYTES = 2 << 20 };

/* Large zeroed memory is asked for in huge pages (memory.h), so that a
   launch that touches a map sparsely takes a page fault per 2 MB rather than per
   4 KB: strided 1024's 128 MB map took 32,768 faults a launch, and faults,
   which the model's threads take one at a time, made two threads slower than one. */
void *zeroed_new(size_t bytes)
{
    if (bytes < HUGE_PAGE_BYTES)
        return calloc(1, bytes);
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return NULL;
    madvise(map, bytes, MADV_HUGEPAGE);
    return map;
}

void zeroed_free(void *map, size_t bytes)
{
    if (map && bytes < HUGE_PAGE_BYTES)
        free(map);
    else if (map)
        munmap(map, bytes);
}
