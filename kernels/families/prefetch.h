/*
** prefetch.h — where prefetch's parameter (variant) sits in struct params.
*/
#ifndef WARPLAB_PREFETCH_H
#define WARPLAB_PREFETCH_H

enum { PREFETCH_VARIANT = 2 };

#endif
