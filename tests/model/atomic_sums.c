/*
** unit_atomic_sums.c — float atomic sums and the tolerance they allow
** (kernels/model/atomic_sums.h): what one word tallies, that the tolerance holds
** two orders of the same sum (the worst case too) and nothing wider, and
** the output check (kernels/model/output_check.h) applying it to summed
** values alone.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "model/atomic_sums.h"
#include "model/output_check.h"
#include "../lib/tap.h"

static const double UNIT = FLT_EPSILON / 2;

static double gamma_of(double k)
{
    return k * UNIT / (1 - k * UNIT);
}

static void test_tally(void)
{
    struct atomic_sums sums = { .words = { NULL } };
    ok(atomic_sum_at(&sums, 0, 0) == NULL && atomic_sum_at(NULL, 0, 0) == NULL, "no sum where nothing was added");
    atomic_sums_add(&sums, 1, 64, 8, 4, 0.0, 2.0, 0);
    atomic_sums_add(&sums, 1, 64, 8, 4, 2.0, -3.0, 0);
    const struct atomic_sum *sum = atomic_sum_at(&sums, 1, 8);
    ok(sum && sum->terms == 2 && sum->magnitude == 5.0 && sum->words == 1, "two adds to a word that held 0: two terms, magnitude 5");
    ok(atomic_sum_at(&sums, 1, 4) == NULL && atomic_sum_at(&sums, 0, 8) == NULL, "the other words and buffers hold none");
    atomic_sums_add(&sums, 2, 64, 0, 8, 1.5, 0.25, 0);
    sum = atomic_sum_at(&sums, 2, 0);
    ok(sum && sum->terms == 2 && sum->magnitude == 1.75 && sum->words == 2, "a word that held 1.5 before its first add: 1.5 is a term too");
    atomic_sums_add(&sums, 1, 64, 60, 4, 0.0, 1.0, 0);
    struct sum_tolerance summary = { 0, 0, 0 };
    atomic_sums_summarize(&sums, 1, &summary);
    ok(summary.values == 2 && summary.most_terms == 2 && summary.widest == atomic_sum_tolerance(atomic_sum_at(&sums, 1, 8)),
       "the summary: two values, two terms at the most, the wider tolerance");
    atomic_sums_free(&sums);
    ok(atomic_sum_at(&sums, 1, 8) == NULL, "freed: no sums");
}

static void test_tolerance(void)
{
    struct atomic_sum one = { .terms = 1, .words = 1, .magnitude = 7.0 }, many = { .terms = 1000, .words = 1, .magnitude = 500.0 },
                      wide = { .terms = 1000, .words = 2, .magnitude = 500.0 };
    ok(atomic_sum_tolerance(&one) == 2 * FLT_MIN, "one term: only a flushed subnormal's worth");
    ok(fabs(atomic_sum_tolerance(&many) - 2 * (gamma_of(999) * 500.0 + 1000 * FLT_MIN)) < 1e-12,
       "1000 f32 terms: twice gamma(999) times their magnitudes");
    ok(atomic_sum_tolerance(&wide) < atomic_sum_tolerance(&many) * 1e-8, "f64 terms: a double's rounding");
    struct atomic_sums sums = { .words = { NULL } };
    atomic_sums_add(&sums, 0, 4, 0, 4, 0.0, 2.0, 0.5);
    double carried = atomic_sum_tolerance(atomic_sum_at(&sums, 0, 0));
    ok(carried >= 2 * (0.5 + FLT_MIN) && carried < 2 * (0.5 + 1e-6),
       "a term that was a shared-memory sum carries its rounding in, twice over (two orders)");
    atomic_sums_free(&sums);
    struct atomic_sum endless = { .terms = (1u << 30) - 1, .words = 1, .magnitude = 3.0 };
    ok(atomic_sum_tolerance(&endless) >= 2 * 3.0, "past k*u = 1/2: the magnitudes themselves");
}

/* 1 and then k terms of half an ulp of 1: forward, every add rounds back to
   1 (a tie, to even); backward, the small ones add up exactly first. */
static void test_worst_order(void)
{
    enum { K = 4096 };
    float forward = 1.0f, backward = 0.0f, tiny = ldexpf(1.0f, -24);
    struct atomic_sums sums = { .words = { NULL } };
    atomic_sums_add(&sums, 0, 4, 0, 4, 0.0, 1.0, 0);
    for (int i = 0; i < K; i++) {
        forward += tiny;
        backward += tiny;
        atomic_sums_add(&sums, 0, 4, 0, 4, 1.0, tiny, 0);
    }
    backward += 1.0f;
    double apart = fabs((double)forward - (double)backward), tolerance = atomic_sum_tolerance(atomic_sum_at(&sums, 0, 0));
    char name[160];
    snprintf(name, sizeof name, "two orders of 1 + %d half-ulps lie %.3g apart, within the tolerance %.3g", K, apart, tolerance);
    ok(apart > 0 && apart <= tolerance && tolerance < 4 * apart, name);
    atomic_sums_free(&sums);
}

/* outputs_match where buffer `buffer` of "in" and "out" is the one output. */
static int output_matches(int buffer, const void *got, const void *want, size_t bytes, const struct atomic_sums *sums,
                          char *mismatch, size_t mismatch_size)
{
    struct buffer_decl buffers[] = { { .name = "in", .role = BUFFER_IN }, { .name = "out", .role = BUFFER_IN } };
    buffers[buffer].role = BUFFER_OUT;
    struct family f = { .name = "sums", .buffers = buffers, .buffer_count = 2 };
    void *gots[] = { (void *)got, (void *)got }, *wants[] = { (void *)want, (void *)want };
    size_t sizes[] = { bytes, bytes };
    return outputs_match(&f, gots, wants, sizes, sums, mismatch, mismatch_size);
}

static void test_output_matches(void)
{
    struct atomic_sums sums = { .words = { NULL } };
    float want[2] = { 100.0f, 100.0f }, near[2] = { 100.0f + 1e-3f, 100.0f }, far[2] = { 100.0f, 100.5f };
    char mismatch[256] = "";
    for (int i = 0; i < 1000; i++)
        atomic_sums_add(&sums, 1, sizeof want, 0, 4, i ? 1.0 : 0.0, 0.1, 0);   /* out[0]: 1000 terms of 0.1 */
    ok(output_matches(1, near, want, sizeof want, &sums, mismatch, sizeof mismatch),
       "a summed value within its terms' rounding matches");
    ok(!output_matches(1, near, want, sizeof want, NULL, mismatch, sizeof mismatch), "without the sums, bit for bit as before");
    ok(!output_matches(1, far, want, sizeof want, &sums, mismatch, sizeof mismatch) && strstr(mismatch, "out[1]"),
       "a value no atomic summed stays bit for bit");
    float wrong[2] = { 101.0f, 100.0f };
    ok(!output_matches(1, wrong, want, sizeof want, &sums, mismatch, sizeof mismatch) && strstr(mismatch, "1000 float atomic terms"),
       "a summed value off by more than its rounding is wrong, and says how much was allowed");
    atomic_sums_add(&sums, 1, sizeof want, 4, 4, 0.0, 1.0, 0);   /* out[1]: a sum too */
    float nan_want[2] = { 100.0f, NAN }, nan_same[2] = { 100.0f + 1e-3f, NAN }, nan_other[2] = { 100.0f + 1e-3f, -NAN };
    ok(output_matches(1, nan_same, nan_want, sizeof nan_want, &sums, mismatch, sizeof mismatch) &&
       !output_matches(1, nan_other, nan_want, sizeof nan_want, &sums, mismatch, sizeof mismatch),
       "a summed NaN matches only the same bits, as before");
    atomic_sums_free(&sums);
    double want_wide = 1.0, near_wide = 1.0 + 1e-14, far_wide = 1.0 + 1e-12;   /* allowed: 2 * gamma(100) * 1.0, 2.2e-14 */
    atomic_sums_add(&sums, 0, 8, 0, 8, 0.0, 0.5, 0);
    for (int i = 0; i < 100; i++)
        atomic_sums_add(&sums, 0, 8, 0, 8, 0.5, 0.005, 0);
    ok(output_matches(0, &near_wide, &want_wide, 8, &sums, mismatch, sizeof mismatch) &&
       !output_matches(0, &far_wide, &want_wide, 8, &sums, mismatch, sizeof mismatch) && strstr(mismatch, "in[0]"),
       "a summed double is compared as a double, within a double's rounding");
    atomic_sums_free(&sums);
    ok(value_matches(100.0009, 100.0, 1e-5, NULL) && !value_matches(100.01, 100.0, 1e-5, NULL) &&
       !value_matches(0.0, -0.0, 0, NULL),
       "a value within the relative tolerance of max(1, |want|) matches; with none, only the caller's equal bits do");
}

int main(void)
{
    test_tally();
    test_tolerance();
    test_worst_order();
    test_output_matches();
    return done();
}
