/*
** gather.h — gather's slots (pattern, window, seed) and the pattern's choices.
*/
#ifndef WARPLAB_GATHER_H
#define WARPLAB_GATHER_H

enum { GATHER_PATTERN = 2, GATHER_WINDOW, GATHER_SEED, GATHER_RANDOM = 0, GATHER_SORTED, GATHER_WINDOWED };

#endif
