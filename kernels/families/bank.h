/*
** bank.h — where bank's parameters (stride, bytes, lanes) sit in struct params.
*/
#ifndef WARPLAB_BANK_H
#define WARPLAB_BANK_H

enum { BANK_STRIDE = 2, BANK_ELEMENT_BYTES = 3, BANK_LANES = 4 };

#endif
