/*
** paths.h — files under the XDG base folders ($XDG_STATE_HOME, $XDG_CACHE_HOME,
** $XDG_DATA_HOME, with their ~/.local/... defaults).
*/
#ifndef WARPLAB_PATHS_H
#define WARPLAB_PATHS_H

#include <stddef.h>

/* Writes "<base>/warplab/<name>" into out, creating the folders. base is
   $variable or $HOME/<fallback>. Returns 0, or -1 when there is no home. */
int xdg_file(const char *variable, const char *fallback, const char *name, char *out, size_t size);

#endif
