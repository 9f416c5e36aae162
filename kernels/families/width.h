/*
** width.h — where width's parameter (type) sits in struct params.
*/
#ifndef WARPLAB_WIDTH_H
#define WARPLAB_WIDTH_H

enum { WIDTH_TYPE = 2 };

#endif
