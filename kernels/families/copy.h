/*
** copy.h — where copy's parameter (vec) sits in struct params.
*/
#ifndef WARPLAB_COPY_H
#define WARPLAB_COPY_H

enum { COPY_VEC = 2 };

#endif
