/*
** paths.h — files under the XDG base folders ($XDG_STATE_HOME, $XDG_CACHE_HOME,
** $XDG_DATA_HOME, with their ~/.local/... defaults).
*/
#ifndef WARPLAB_PATHS_H
#define WARPLAB_PATHS_H

#include <stddef.h>
#include <sys/types.h>

/* Writes "<base>/warplab/<name>" into out, creating the folders. base is
   $variable or $HOME/<fallback>. Returns 0, or -1 when there is no home. */
int xdg_file(const char *variable, const char *fallback, const char *name, char *out, size_t size);

/* mkdir -p: folder and the folders above it that are missing, with mode.
   0, or -1 with errno (folder holds the path as given either way). */
int make_folders(char *folder, mode_t mode);

/* This program's own path (/proc/self/exe), or NULL with errno. */
const char *program_path(void);

#endif
