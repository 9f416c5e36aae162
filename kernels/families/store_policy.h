/*
** store_policy.h — where store_policy's parameters (store, fill) sit in struct params.
*/
#ifndef WARPLAB_STORE_POLICY_H
#define WARPLAB_STORE_POLICY_H

enum { STORE_POLICY_STORE = 2, STORE_POLICY_FILL = 3 };

#endif
