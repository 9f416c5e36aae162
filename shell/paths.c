/*
** paths.c — where warplab keeps history, caches and progress; making
** folders; this program's own path.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "paths.h"

int make_folders(char *folder, mode_t mode)
{
    for (char *slash = strchr(folder + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = 0;
        int failed = mkdir(folder, mode) != 0 && errno != EEXIST;
        if (slash)
            *slash = '/';
        if (failed)
            return -1;
        if (!slash)
            return 0;
    }
}

const char *program_path(void)
{
    static char path[4096];
    if (!path[0]) {
        ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
        if (length <= 0)
            return NULL;
        path[length] = 0;
    }
    return path;
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
    make_folders(folder, 0700);
    snprintf(out, size, "%s/%s", folder, name);
    char *last = strrchr(out, '/');   /* a name with folders of its own ("kernels/mine.cu"): those too */
    if (last > out + strlen(folder)) {
        *last = 0;
        make_folders(out, 0700);
        *last = '/';
    }
    return 0;
}
