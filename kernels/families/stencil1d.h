/*
** stencil1d.h — where stencil1d's parameters (radius, load) sit in struct params.
*/
#ifndef WARPLAB_STENCIL1D_H
#define WARPLAB_STENCIL1D_H

enum { STENCIL1D_RADIUS = 2, STENCIL1D_LOAD = 3 };

#endif
