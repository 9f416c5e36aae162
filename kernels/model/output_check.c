/*
** output_check.c — a launch's outputs against a reference (output_check.h).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "model/atomic_sums.h"
#include "model/output_check.h"
#include "support/text.h"
#include "support/threads.h"

int value_matches(double got, double want, double relative, const struct atomic_sum *sum)
{
    double gap = fabs(got - want);
    return (relative > 0 && gap <= relative * fmax(1.0, fabs(want))) || (sum && gap <= atomic_sum_tolerance(sum));
}

/* A float (width 1 word) or a double (2) from word k of a buffer. */
static double value_at(const uint32_t *words, size_t k, uint32_t width)
{
    float single;
    double wide;
    if (width == 2)
        return memcpy(&wide, words + k, 8), wide;
    return memcpy(&single, words + k, 4), (double)single;
}

/* Whether word k of got (and k + 1, a double's) is want's, or within the
   rounding of the float atomic sum there; else the difference, in mismatch. */
static int within_sum(const struct family *f, int buffer, const uint32_t *got, const uint32_t *want, size_t k,
                      const struct atomic_sum *sum, char *mismatch, size_t mismatch_size)
{
    double got_value = value_at(got, k, sum->words), want_value = value_at(want, k, sum->words);
    if (memcmp(got + k, want + k, 4 * sum->words) == 0 || value_matches(got_value, want_value, 0, sum))
        return 1;   /* a NaN only as the same bits, as every other value */
    snprintf(mismatch, mismatch_size,
             SAY("%s[%zu]: expected %.9g, got %.9g, further apart than the tolerance of %.3g that rounding its %u float atomic terms allows",
                 "%1$s[%2$zu]：应为 %3$.9g，实际为 %4$.9g，相差超过其 %6$u 项浮点原子操作之和的舍入所允许的容差 %5$.3g"),
             f->buffers[buffer].name, k / sum->words, want_value, got_value, atomic_sum_tolerance(sum), sum->terms);
    return 0;
}

/* Whether output buffer `buffer` of f holds what the reference computed (the
   words of outputs_match); else 0 and the first difference in mismatch. */
static int output_matches(const struct family *f, int buffer, const void *got_bytes, const void *want_bytes, size_t bytes,
                          const struct atomic_sums *sums, char *mismatch, size_t mismatch_size)
{
    const uint32_t *got = got_bytes, *want = want_bytes;
    size_t whole = bytes / 4 * 4;
    if (memcmp(got, want, whole) == 0) {
        if (memcmp((const char *)got + whole, (const char *)want + whole, bytes - whole) == 0)
            return 1;
        snprintf(mismatch, mismatch_size, SAY("%s: the last %zu bytes differ from the reference", "%s：最后 %zu 个字节与参考结果不同"),
                 f->buffers[buffer].name, bytes - whole);   /* char and short outputs */
        return 0;
    }
    for (size_t k = 0; k < bytes / 4; k++) {
        const struct atomic_sum *sum = atomic_sum_at(sums, buffer, k * 4);
        if (sum && (k + sum->words) * 4 <= whole) {   /* a value float atomics summed: within their rounding */
            if (!within_sum(f, buffer, got, want, k, sum, mismatch, mismatch_size))
                return 0;
            k += sum->words - 1;
            continue;
        }
        float got_value, want_value;
        memcpy(&got_value, &got[k], 4);
        memcpy(&want_value, &want[k], 4);
        if (got[k] == want[k] || value_matches(got_value, want_value, f->tolerance, NULL))
            continue;
        snprintf(mismatch, mismatch_size, SAY("%s[%zu] (as float): expected %.9g, got %.9g", "%s[%zu]（按 float）：应为 %.9g，实际为 %.9g"),
                 f->buffers[buffer].name, k, want_value, got_value);
        return 0;
    }
    return 1;
}

/* A comparison split in parts: whether each part's bytes are equal. */
struct comparison {
    const unsigned char *got, *want;
    size_t size;
    int equal[MAX_PARTS];
};

static void compare_part(void *argument, int part, int parts)
{
    struct comparison *c = argument;
    size_t from = c->size / (size_t)parts * (size_t)part;
    size_t to = part == parts - 1 ? c->size : from + c->size / (size_t)parts;
    c->equal[part] = memcmp(c->got + from, c->want + from, to - from) == 0;
}

/* memcmp(got, want, size) == 0, on several threads when large: one thread
   reads a few GB/s, and an 805 MB launch has 268 MB of output to compare. */
static int same_bytes(const void *got, const void *want, size_t size)
{
    struct comparison c = { got, want, size, { 0 } };
    int parts = threads_for_bytes(size), equal = 1;
    run_in_parts(parts, compare_part, &c);
    for (int k = 0; k < parts && k < MAX_PARTS; k++)
        equal = equal && c.equal[k];
    return equal;
}

int outputs_match(const struct family *f, void *const *got, void *const *want, const size_t *bytes,
                  const struct atomic_sums *sums, char *mismatch, size_t mismatch_size)
{
    for (int i = 0; i < f->buffer_count; i++)
        if (f->buffers[i].role == BUFFER_OUT && !same_bytes(got[i], want[i], bytes[i]) &&   /* the usual case, at memcmp's speed */
            !output_matches(f, i, got[i], want[i], bytes[i], sums, mismatch, mismatch_size))
            return 0;
    return 1;
}
