/*
** atomic_sums.h — what floating-point atomic adds summed at each word of a
** launch's global buffers, kept by the emulator (ptx.h, ptx_launch.sums),
** and the tolerance it allows. A float atomic sum's terms arrive in an order
** no one chooses (the GPU's is not the emulator's, and neither is a
** reference's), and float addition is not associative: two orders round
** differently. So a value float atomics summed is compared within the
** rounding its terms allow, and every other value as before.
*/
#ifndef WARPLAB_ATOMIC_SUMS_H
#define WARPLAB_ATOMIC_SUMS_H

#include <stddef.h>
#include <stdint.h>
#include "model/family.h"

/* One word's sum: how many terms (its value before the first add among
   them, when that was not 0; the count stops at 2^30 - 1, minutes of
   emulation), the width added in 4-byte words (1: f32, 2: f64), the sum of
   their magnitudes, and the rounding its terms carried in: a term that was
   itself a float atomic sum in shared memory lies that far from its exact
   value. 16 bytes: four times the word it describes. */
struct atomic_sum {
    uint32_t terms : 30, words : 2;
    float carried;
    double magnitude;
};

/* A launch's sums: per buffer, one atomic_sum per 4-byte word (an f64's at
   its first word), made when a float atomic add first reaches the buffer
   (as zeroed pages: memory only where adds land). */
struct atomic_sums {
    struct atomic_sum *words[MAX_BUFFERS];
    size_t word_count[MAX_BUFFERS];
};

/* Tallies one float atomic add of term, bytes wide, to sum, whose word held old. */
void atomic_sum_add(struct atomic_sum *sum, int bytes, double old, double term);

/* Tallies one float atomic add of term to the value old at byte offset of
   buffer (of buffer_bytes), bytes wide, the term carrying a rounding of
   carried. 0, or -1 when memory is short. The caller serialises the adds
   (the emulator holds its atomics' lock). */
int atomic_sums_add(struct atomic_sums *s, int buffer, size_t buffer_bytes, size_t offset, int bytes, double old,
                    double term, double carried);

/* The sum at byte offset of buffer, or NULL when no float atomic added there. */
const struct atomic_sum *atomic_sum_at(const struct atomic_sums *s, int buffer, size_t offset);

/* How far a result of the sum, added in any order, may lie from the exact
   sum: gamma(terms - 1) * magnitude (Higham's bound for recursive summation
   in any order, gamma(k) = k*u / (1 - k*u), u the unit roundoff), plus a
   smallest normal per add (atom.add.f32 flushes subnormals to zero), plus
   what its terms carried. Past k*u = 1/2 the bound says nothing, and the
   magnitude itself stands. A single term is off by the flush alone. */
double atomic_sum_rounding(const struct atomic_sum *sum);

/* How far apart two results of the same sum may lie, added in any two
   orders (the GPU's and the emulator's, or the emulator's and a
   reference's): twice atomic_sum_rounding. */
double atomic_sum_tolerance(const struct atomic_sum *sum);

/* What buffer's sums add to the check's summary: the values, the most terms, the widest tolerance. */
void atomic_sums_summarize(const struct atomic_sums *s, int buffer, struct sum_tolerance *summary);

void atomic_sums_free(struct atomic_sums *s);

#endif
