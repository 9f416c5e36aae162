/*
** sort.h — the sort of a warp's addresses, which the model and L1 share.
*/
#ifndef WARPLAB_SORT_H
#define WARPLAB_SORT_H

#include <stdint.h>

/* Sorts up to 64 addresses in place (insertion sort: lanes usually come in order). */
static inline void sort_addresses(uint64_t *value, int n)
{
    for (int i = 1; i < n; i++) {
        uint64_t key = value[i];
        int j = i - 1;
        while (j >= 0 && value[j] > key) {
            value[j + 1] = value[j];
            j--;
        }
        value[j + 1] = key;
    }
}

#endif
