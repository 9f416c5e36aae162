/*
** files.h — saving files so that a failure never destroys what was there,
** locks between warplab processes, and helper programs started without a
** shell: core.write_file, read_file, realpath, lock, spawn, find_program,
** temporary_folder.
*/
#ifndef WARPLAB_FILES_H
#define WARPLAB_FILES_H

#include <stddef.h>
#include <lua.h>
#include "support/io.h"   /* write_all */

/* Adds the file functions to the core table on top of the stack. */
void files_open(lua_State *L);

#endif
