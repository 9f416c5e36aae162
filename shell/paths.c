/*
** paths.c — where warplab keeps history, caches and progress.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "paths.h"

/* mkdir -p */
static void make_folders(char *folder)
{
    for (char *slash = strchr(folder + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        mkdir(folder, 0700);
        *slash = '/';
    }
    mkdir(folder, 0700);
}

int xdg_file(const char *variable, const char *fallback, const char *name, char *out, size_t size)
{
    const char *base = getenv(variable), *home = getenv("HOME");
    char folder[4096];
    if (base && *base)
        snprintf(folder, sizeof folder, "%s/warplab", base);
    else if (home && *home)
        snprintf(folder, sizeof folder, "%s/%s/warplab", home, fallback);
    else
        return -1;
    make_folders(folder);
    snprintf(out, size, "%s/%s", folder, name);
    char *last = strrchr(out, '/');   /* a name with folders of its own ("kernels/mine.cu"): those too */
    if (last > out + strlen(folder)) {
        *last = 0;
        make_folders(out);
        *last = '/';
    }
    return 0;
}
