/*
** conv2d.h — the conv2d filter, shared by the launcher (which copies it
** into constant memory) and the CPU reference, so both use the same floats.
*/
#ifndef WARPLAB_CONV2D_H
#define WARPLAB_CONV2D_H

enum { CONV2D_MAX_RADIUS = 8, CONV2D_MAX_TAPS = (2 * CONV2D_MAX_RADIUS + 1) * (2 * CONV2D_MAX_RADIUS + 1) };

/* Weight of tap i (row-major) of a filter with `taps` taps: 1, 2, 3, 4, 1, ...
   over 4 * taps, so no two taps of a row or column are alike in the pattern
   (a transposed or flipped filter gives other numbers) and the weights add up
   to at most 1: every partial sum of a pixel stays within [-1, 1]. */
static inline float conv2d_weight(int i, int taps)
{
    return (float)(1 + i % 4) / (float)(4 * taps);
}

#endif
