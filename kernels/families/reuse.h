/*
** reuse.h — where reuse's parameters (reuse, variant) sit in struct params.
*/
#ifndef WARPLAB_REUSE_H
#define WARPLAB_REUSE_H

enum { REUSE_REUSE = 2, REUSE_VARIANT = 3 };

#endif
