/*
** common.h — helpers the family declarations share.
*/
#ifndef WARPLAB_COMMON_H
#define WARPLAB_COMMON_H

#include "family.h"

/* One thread per element: n threads rounded up to whole blocks. */
struct launch_shape one_thread_per_element(const struct params *p);

/* A warp instruction whose lane with thread index t touches element
   t*stride + offset of the array at base, for the lanes with t < active_threads. */
void warp_linear(struct warp_access *acc, enum access_kind kind, int bytes,
                 long long warp, uint64_t base, long long stride,
                 long long offset, long long active_threads);

/* Fills addr[] and active of an affine access (and clears `affine`). */
void warp_access_expand(struct warp_access *acc);

#endif
