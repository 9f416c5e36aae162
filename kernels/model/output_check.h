/*
** output_check.h — the one check of a launch's outputs against a reference:
** the GPU's against the CPU's (or the emulator's, for a declared kernel),
** the emulator's against the CPU's, and, value by value, a declared
** kernel's against its Lua reference (shell/api/declare_kernel.c).
*/
#ifndef WARPLAB_OUTPUT_CHECK_H
#define WARPLAB_OUTPUT_CHECK_H

#include <stddef.h>
#include "model/family.h"

struct atomic_sum;
struct atomic_sums;

/* Whether a value the kernel wrote (got) is the reference's (want) as a
   tolerance allows: within relative of it, scaled by max(1, |want|) (none
   when relative is 0), or, where float atomic adds summed it (sum, or NULL),
   within the rounding of its terms in any order (atomic_sums.h). Equal bits
   (a NaN's included) are the caller's to compare first. */
int value_matches(double got, double want, double relative, const struct atomic_sum *sum);

/* Whether every output buffer of f (got, in the family's order) holds what
   the reference left in want, bit for bit or as value_matches allows with
   f's tolerance (as floats) and the float atomic sums (sums, or NULL: none);
   else 0 and the first difference in mismatch. Large buffers are compared
   on several threads. */
int outputs_match(const struct family *f, void *const *got, void *const *want, const size_t *bytes,
                  const struct atomic_sums *sums, char *mismatch, size_t mismatch_size);

#endif
