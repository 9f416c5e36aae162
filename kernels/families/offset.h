/*
** offset.h — where offset's parameters (offset, load) sit in struct params.
*/
#ifndef WARPLAB_OFFSET_H
#define WARPLAB_OFFSET_H

enum { OFFSET_OFFSET = 2, OFFSET_LOAD = 3 };

#endif
