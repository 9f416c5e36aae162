/*
** strided.h — where strided's parameters (stride, load) sit in struct params.
*/
#ifndef WARPLAB_STRIDED_H
#define WARPLAB_STRIDED_H

enum { STRIDED_STRIDE = 2, STRIDED_LOAD = 3 };

#endif
