/*
** working_set.h — where working_set's parameter (bytes) sits in struct params.
*/
#ifndef WARPLAB_WORKING_SET_H
#define WARPLAB_WORKING_SET_H

enum { WORKING_SET_BYTES = 2 };

#endif
