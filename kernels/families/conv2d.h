/*
** conv2d.h — where conv2d's parameters (width, height, variant, tile, radius)
** sit in struct params, and its filters, shared by the kernel (whose
** constant-memory table is built from them at compile time) and the CPU
** reference, so both use the same floats.
*/
#ifndef WARPLAB_CONV2D_H
#define WARPLAB_CONV2D_H

enum { CONV2D_WIDTH = 0, CONV2D_HEIGHT = 1, CONV2D_VARIANT = 2, CONV2D_TILE = 3, CONV2D_RADIUS = 4 };

#ifdef __cplusplus
#define CONV2D_CONSTEXPR constexpr
#else
#define CONV2D_CONSTEXPR
#endif

enum {
    CONV2D_MAX_RADIUS = 8,
    CONV2D_TABLE_TAPS = 968   /* the filters of radius 1 to 8 one after another: 9 + 25 + ... + 289 */
};

/* Weight of tap i (row-major) of a filter with `taps` taps: 1, 2, 3, 4, 1, ...
   over 4 * taps, so no two taps of a row or column are alike in the pattern
   (a transposed or flipped filter gives other numbers) and the weights add up
   to at most 1: every partial sum of a pixel stays within [-1, 1]. */
static inline CONV2D_CONSTEXPR float conv2d_weight(int i, int taps)
{
    return (float)(1 + i % 4) / (float)(4 * taps);
}

/* Where radius r's filter starts in the table: after the filters of radius 1 .. r-1. */
static inline CONV2D_CONSTEXPR int conv2d_first_tap(int radius)
{
    int first = 0;
    for (int r = 1; r < radius; r++)
        first += (2 * r + 1) * (2 * r + 1);
    return first;
}

#endif
