/*
** emulate_core.h — what emulate_core.c adds to the core table: emulate (a
** kernel's PTX on the emulator), emulate_family and family_device.
*/
#ifndef WARPLAB_EMULATE_CORE_H
#define WARPLAB_EMULATE_CORE_H

#include <lauxlib.h>

extern const luaL_Reg emulate_core[];

#endif
