/*
** common.h — helpers the family declarations share.
*/
#ifndef WARPLAB_COMMON_H
#define WARPLAB_COMMON_H

#include "model/family.h"

/* One thread per element: n threads rounded up to whole blocks. */
struct launch_shape one_thread_per_element(const struct params *p);

/* Elements of 4 bytes (floats, ints), whatever the parameters. */
int four_byte_elements(const struct params *p);

/* Slice `part` of `parts` of count items, [*first, *end): what one thread of a
   split reference (family.reference_part) computes. */
void reference_slice(long long count, int part, int parts, long long *first, long long *end);

/* out = in (buffers 1 and 0), n elements of `bytes`, slice part of parts:
   the reference of every family that copies. */
void copy_elements(void *const *buffers, long long n, int bytes, int part, int parts);

/* One load from buffer 0 and one store to buffer 1 of `bytes` per thread, n
   threads: the accesses of every family that copies. Returns 2. */
int warp_copy(struct warp_access *acc, int bytes, long long warp, const uint64_t *base, long long n);

/* Buffers of one input and one output array of n elements each. */
void n_in_n_out(const struct params *p, size_t *elements);

/* A warp instruction of lanes 0 .. lanes-1 (clamped to 0..32), lane k at
   first_addr + k * step, bytes each. */
void warp_affine(struct warp_access *acc, enum access_kind kind, int bytes,
                 uint64_t first_addr, int64_t step, long long lanes);

/* Lanes 0 .. lanes-1 at element (start + lane) % count of the array at base:
   affine unless they wrap past its end. */
void warp_wrapped(struct warp_access *acc, enum access_kind kind, int bytes,
                  uint64_t base, long long start, long long count, int lanes);

/* A warp instruction whose lane with thread index t touches element
   t*stride + offset of the array at base, for the lanes with t < active_threads. */
void warp_linear(struct warp_access *acc, enum access_kind kind, int bytes,
                 long long warp, uint64_t base, long long stride,
                 long long offset, long long active_threads);

/* Fills addr[] and active of an affine access (and clears `affine`). */
void warp_access_expand(struct warp_access *acc);

/* A warp instruction from per-lane addresses and the lanes that run it;
   marked affine when the active lanes are consecutive and evenly spaced,
   which the model counts faster (the counts are the same either way). */
void access_from_lanes(struct warp_access *acc, enum access_kind kind, int bytes,
                       const uint64_t *addr, uint32_t active);

/* For kernel_call: the kernel (a printf format: "strided<%lld>") on a 1-D
   grid of shape, then its arguments in order. */
void call_kernel(struct kernel_call *call, struct launch_shape shape, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* The same on a 2-D grid of 2-D blocks. */
void call_kernel_2d(struct kernel_call *call, unsigned grid_x, unsigned grid_y, unsigned block_x, unsigned block_y,
                    const char *format, ...) __attribute__((format(printf, 6, 7)));
void call_buffer(struct kernel_call *call, int buffer);
void call_buffer_at(struct kernel_call *call, int buffer, long long offset);   /* a pointer into it */
void call_float(struct kernel_call *call, float value);
void call_value(struct kernel_call *call, long long value);

#endif
