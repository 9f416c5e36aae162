/*
** libraries.c — the libraries loaded at run time, one table of them, and
** their one loader (libraries.h).
*/
#include <stddef.h>
#include "libraries.h"

#ifdef HAVE_CUDA
#include <dlfcn.h>
#include <cuda_runtime_api.h>

struct nvrtc_functions nvrtc;
struct driver_functions driver;
#ifdef HAVE_CUPTI_RANGE_PROFILER
struct cupti_functions cupti;
#endif

/* A function to find: its name and the pointer it is kept in. */
struct symbol {
    const char *name;
    void **pointer;
};

#define NVRTC_SYMBOL(name) { #name, (void **)&nvrtc.name },
#define DRIVER_SYMBOL(name) { #name, (void **)&driver.name },
#define CUPTI_SYMBOL(name) { #name, (void **)&cupti.name },

/* Per library, where it may be (the loader's path, then the toolkit warplab
   was built with; none: the driver, which the runtime has loaded) and its functions. */
static const char *const nvrtc_paths[] = {
    "libnvrtc.so.13", "libnvrtc.so", CUDA_DIR "/lib64/libnvrtc.so.13", CUDA_DIR "/lib64/libnvrtc.so", NULL,
};
static const struct symbol nvrtc_symbols[] = { NVRTC_FUNCTIONS(NVRTC_SYMBOL) { NULL, NULL } };
static const struct symbol driver_symbols[] = { DRIVER_FUNCTIONS(DRIVER_SYMBOL) { NULL, NULL } };
#ifdef HAVE_CUPTI_RANGE_PROFILER
static const char *const cupti_paths[] = {
    "libcupti.so.13", "libcupti.so", CUDA_DIR "/lib64/libcupti.so.13", CUDA_DIR "/extras/CUPTI/lib64/libcupti.so.13", NULL,
};
static const struct symbol cupti_symbols[] = { CUPTI_FUNCTIONS(CUPTI_SYMBOL) { NULL, NULL } };
#endif

static struct library {
    const char *const *paths;
    const struct symbol *symbols;
    void *handle;        /* what dlopen gave: kept open (CUPTI does not like being unloaded) */
    int loaded;
} libraries[LIBRARY_CUPTI + 1] = {   /* a library this build lacks: no symbols */
    [LIBRARY_NVRTC] = { nvrtc_paths, nvrtc_symbols, NULL, 0 },
    [LIBRARY_DRIVER] = { NULL, driver_symbols, NULL, 0 },
#ifdef HAVE_CUPTI_RANGE_PROFILER
    [LIBRARY_CUPTI] = { cupti_paths, cupti_symbols, NULL, 0 },
#endif
};

/* A driver function's address, through the runtime; NULL when it has none. */
static void *driver_function(const char *name)
{
    void *function = NULL;
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &function, CUDA_VERSION, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
        cudaGetLastError();   /* the runtime's error is this answer, not a later call's */
        return NULL;
    }
    return function;
}

int library_load(enum library_id id, const char **missing)
{
    struct library *lib = &libraries[id];
    *missing = NULL;
    if (lib->loaded)
        return 0;
    if (!lib->symbols)
        return -1;   /* a library this build has no use for */
    for (const char *const *path = lib->paths; path && *path && !lib->handle; path++)
        lib->handle = dlopen(*path, RTLD_NOW | RTLD_LOCAL);
    if (lib->paths && !lib->handle)
        return -1;
    for (const struct symbol *s = lib->symbols; s->name; s++)
        if (!(*s->pointer = lib->paths ? dlsym(lib->handle, s->name) : driver_function(s->name))) {
            *missing = s->name;
            return -1;
        }
    lib->loaded = 1;
    return 0;
}
#endif
