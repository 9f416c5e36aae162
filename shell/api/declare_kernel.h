/*
** declare_kernel.h — what declare_kernel.c adds to the core table:
** declare_kernel, for lua/kernel.lua's kernel{}.
*/
#ifndef WARPLAB_DECLARE_KERNEL_H
#define WARPLAB_DECLARE_KERNEL_H

#include <lauxlib.h>

extern const luaL_Reg declare_kernel_core[];

#endif
