/*
** measurement.c — what a launch's result holds besides its counts, as the
** backends fill it: summaries of timing samples (median, extremes,
** interquartile range, and whether the median is known well enough to stop
** sampling) and warnings.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/result.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile of sorted values by linear interpolation. */
static double quantile(const double *sorted, int count, double q)
{
    double position = q * (count - 1);
    int below = (int)position;
    if (below + 1 >= count)
        return sorted[count - 1];
    return sorted[below] + (position - below) * (sorted[below + 1] - sorted[below]);
}

void timing_summarize(struct timing *t)
{
    double sorted[MAX_SAMPLES];
    if (t->sample_count == 0)
        return;
    memcpy(sorted, t->samples_ms, t->sample_count * sizeof(double));
    qsort(sorted, t->sample_count, sizeof(double), compare_doubles);
    t->median_ms = quantile(sorted, t->sample_count, 0.5);
    t->min_ms = sorted[0];
    t->max_ms = sorted[t->sample_count - 1];
    t->iqr_relative = (quantile(sorted, t->sample_count, 0.75) -
                       quantile(sorted, t->sample_count, 0.25)) / t->median_ms;
}

int timing_median_is_stable(struct timing *t, double target)
{
    timing_summarize(t);
    double sigma = t->iqr_relative / 1.349;   /* the IQR of a normal spread is 1.349 sigma */
    return 1.2533 * sigma / sqrt((double)t->sample_count) < target;
}

void result_warn(struct result *r, const char *format, ...)
{
    va_list args;
    if (r->warning_count == MAX_WARNINGS)
        return;
    va_start(args, format);
    vsnprintf(r->warnings[r->warning_count++], sizeof r->warnings[0], format, args);
    va_end(args);
}
