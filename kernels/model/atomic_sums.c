/*
** atomic_sums.c — float atomic sums per word, and the tolerance they allow
** (atomic_sums.h).
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include "model/atomic_sums.h"
#include "support/memory.h"

enum { WORD_BYTES = 4, TERMS_MOST = (1 << 30) - 1 };

/* Buffer's words, made (zeroed) on its first add; NULL when memory is short. */
static struct atomic_sum *words_of(struct atomic_sums *s, int buffer, size_t buffer_bytes)
{
    if (!s->words[buffer]) {
        size_t count = buffer_bytes / WORD_BYTES + 1;
        s->words[buffer] = zeroed_new(count * sizeof *s->words[buffer]);
        s->word_count[buffer] = s->words[buffer] ? count : 0;
    }
    return s->words[buffer];
}

void atomic_sum_add(struct atomic_sum *sum, int bytes, double old, double term)
{
    if (sum->terms == 0 && old != 0) {   /* what the word held first is a term too, in every order */
        sum->terms = 1;
        sum->magnitude = fabs(old);
    }
    sum->terms += sum->terms < TERMS_MOST;
    sum->magnitude += fabs(term);
    sum->words = (uint32_t)bytes / WORD_BYTES & 3;
}

int atomic_sums_add(struct atomic_sums *s, int buffer, size_t buffer_bytes, size_t offset, int bytes, double old,
                    double term, double carried)
{
    struct atomic_sum *words = buffer >= 0 && buffer < MAX_BUFFERS ? words_of(s, buffer, buffer_bytes) : NULL;
    if (!words)
        return -1;
    struct atomic_sum *sum = &words[offset / WORD_BYTES];
    atomic_sum_add(sum, bytes, old, term);
    if (carried > 0)   /* a float, rounded up: a bound never narrower than it was */
        sum->carried = nextafterf(sum->carried + (float)carried, INFINITY);
    return 0;
}

const struct atomic_sum *atomic_sum_at(const struct atomic_sums *s, int buffer, size_t offset)
{
    if (!s || buffer < 0 || buffer >= MAX_BUFFERS || offset / WORD_BYTES >= s->word_count[buffer])
        return NULL;
    const struct atomic_sum *sum = &s->words[buffer][offset / WORD_BYTES];
    return sum->terms ? sum : NULL;
}

double atomic_sum_rounding(const struct atomic_sum *sum)
{
    if (sum->terms == 0)
        return 0;
    double unit = sum->words == 2 ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
    double smallest = sum->words == 2 ? DBL_MIN : FLT_MIN;
    double k = (double)(sum->terms - 1) * unit;
    double gamma = k < 0.5 ? k / (1 - k) : 1;
    return gamma * sum->magnitude + (double)sum->terms * smallest + sum->carried;
}

double atomic_sum_tolerance(const struct atomic_sum *sum)
{
    return 2 * atomic_sum_rounding(sum);
}

void atomic_sums_summarize(const struct atomic_sums *s, int buffer, struct sum_tolerance *summary)
{
    for (size_t w = 0; s && buffer >= 0 && buffer < MAX_BUFFERS && w < s->word_count[buffer]; w++) {
        const struct atomic_sum *sum = &s->words[buffer][w];
        if (!sum->terms)
            continue;
        double tolerance = atomic_sum_tolerance(sum);
        summary->values++;
        summary->most_terms = sum->terms > summary->most_terms ? sum->terms : summary->most_terms;
        summary->widest = tolerance > summary->widest ? tolerance : summary->widest;
    }
}

void atomic_sums_free(struct atomic_sums *s)
{
    for (int i = 0; i < MAX_BUFFERS; i++) {
        zeroed_free(s->words[i], s->word_count[i] * sizeof *s->words[i]);
        s->words[i] = NULL;
        s->word_count[i] = 0;
    }
}
