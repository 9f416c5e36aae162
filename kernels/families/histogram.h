/*
** histogram.h — histogram's slots (variant, bins, distribution) and their choices.
*/
#ifndef WARPLAB_HISTOGRAM_H
#define WARPLAB_HISTOGRAM_H

enum { HISTOGRAM_VARIANT = 2, HISTOGRAM_BINS, HISTOGRAM_DISTRIBUTION, HISTOGRAM_GLOBAL = 0, HISTOGRAM_SHARED, HISTOGRAM_UNIFORM = 0, HISTOGRAM_SKEWED };

#endif
