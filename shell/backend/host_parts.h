/*
** host_parts.h — host work on a launch's buffers, split over threads when
** they are large: what both backends do around a kernel (filling inputs and
** outputs, the CPU reference; comparing what the kernel wrote with it is
** kernels/model/output_check.c's).
*/
#ifndef WARPLAB_HOST_PARTS_H
#define WARPLAB_HOST_PARTS_H

#include <stddef.h>
#include <stdint.h>
#include "model/family.h"

/* memset(data, value, bytes), on several threads when large. */
void fill_in_parts(void *data, int value, size_t bytes);

/* Deterministic random floats in [0, 1) over bytes (whole floats; the bytes
   past the last are left alone), the same for a seed whatever the threads. */
void random_floats_in_parts(void *data, size_t bytes, uint32_t seed);

/* f's CPU reference over buffers (inputs read, outputs written), in parts
   on several threads when the family can split it; total: all their bytes. */
void reference_in_parts(const struct family *f, const struct params *p, void *const *buffers, size_t total);

#endif
