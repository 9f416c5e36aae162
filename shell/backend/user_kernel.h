/*
** user_kernel.h — kernels declared while the shell runs, as families: their
** description (user_kernel.c), as the rest of warplab finds them: by
** family, by index, and as the GPU process gets them. Reading a
** declaration from Lua, and the checks that call its Lua functions, are
** declare_kernel.c's.
*/
#ifndef WARPLAB_USER_KERNEL_H
#define WARPLAB_USER_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "model/family.h"

enum { MAX_USER_KERNELS = 256 };

enum { NAME_BYTES = 48, SYMBOL_BYTES = 256 };

/* Where a launch's params keep what derive computed: after the declared
   params, each buffer's element count, then grid x, y, z, block x, y, z and
   the dynamic shared bytes; the kernel's own index in the last slot. */
enum { DERIVED_GRID = 0, DERIVED_BLOCK = 3, DERIVED_SHARED = 6, DERIVED_AFTER_COUNTS = 7, KERNEL_SLOT = MAX_PARAMS - 1 };

enum fill_kind { FILL_RANDOM, FILL_ZERO, FILL_INTEGERS, FILL_INDEX, FILL_PERMUTATION, FILL_SORTED, FILL_WINDOW, FILL_FUNCTION };
/* Their names, as buffers' fill gives them, in that order, then NULL. */
extern const char *const user_fill_names[];

struct user_buffer {
    char name[NAME_BYTES];
    int is_float, is_signed;
    int scalar_bytes, width;      /* an element: width scalars of scalar_bytes (float4: 4 of 4) */
    enum fill_kind fill;
    long long low, high;          /* FILL_INTEGERS: from low to high; FILL_WINDOW: low is the window */
    /* FILL_FUNCTION: the elements a Lua function of the index gave, from 0, as
       many as the largest launch so far has needed (a smaller one reads a prefix) */
    unsigned char *given;
    size_t given_count;
    int function;                 /* the function, in the registry */
    long long constant_bytes;     /* a __constant__ variable of this name: its size in the PTX; 0: global memory */
};

/* A kernel argument: a buffer's address, a param's value, or a constant. */
struct user_arg {
    int buffer, param;            /* -1 when not that */
    long long value;
    int bytes;                    /* the entry's parameter's size (a float param goes as a float or a double) */
};

/* A declared kernel: a family, and what its callbacks read. The Lua functions
   are kept in Lua's registry by the shell (declare_kernel.c); in the GPU
   process, which has no Lua, they are never called. */
struct user_kernel {
    struct family family;         /* first: the registry holds &family */
    struct param_decl params[MAX_PARAMS];
    struct buffer_decl buffers[MAX_BUFFERS];
    struct user_buffer buffer_info[MAX_BUFFERS];
    struct user_arg args[MAX_KERNEL_ARGS];
    int arg_count, index;
    int derive;                   /* the Lua function computing sizes, in the registry */
    int listing;                  /* the Lua function giving its SASS listing (or nil and why), in the registry */
    int reference;                /* the Lua reference, in the registry, or LUA_NOREF */
    char name[NAME_BYTES], entry[NAME_BYTES];
    char symbol[SYMBOL_BYTES];    /* the entry's name in the PTX and the machine code: mangled, or extern "C" */
    char param_names[MAX_PARAMS][NAME_BYTES];
    const char *image;            /* what the GPU loads: a CUBIN for its architecture, or PTX; NULL off a GPU */
    size_t image_bytes, ptx_bytes;
    unsigned version;             /* grows when a function's elements do: the GPU process is told again */
    const char *constant_names[MAX_BUFFERS];   /* family.constants */
};

/* f's index among the kernels declared in this session, or -1 for a built-in. */
int user_kernel_index(const struct family *f);
/* The declared kernel at index, or NULL; and the one a launch's params are of. */
const struct family *user_kernel_at(int index);
const struct family *user_kernel_of(const struct params *p);
/* How many have been declared: the index the next one takes. */
int user_kernel_count(void);
/* Keeps k, declared and checked, at its index for the session. */
void user_kernel_keep(struct user_kernel *k);
/* Points k's family at k's own arrays and at user_kernel.c's callbacks (the
   Lua ones, derive and check_outputs, left NULL for the caller to set). */
void user_kernel_link(struct user_kernel *k);

/* What derive put in a launch's params: a value after the buffers' counts
   (DERIVED_...), the product of its three dimensions from `first`, and
   each buffer's element count. */
long long user_kernel_derived(const struct params *p, int slot);
long long user_kernel_dims(const struct params *p, int first);
void user_kernel_elements(const struct params *p, size_t *elements);
/* count elements of b, as its fill makes them from seed. */
void user_buffer_fill(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed);

/* Whether f was declared with machine code for the GPU (on a GPU backend). */
int user_kernel_on_gpu(const struct family *f);
/* What the GPU loads for f (a CUBIN, or PTX ended by a NUL), its size, and
   the entry's name in it; NULL when there is none. */
const void *user_kernel_image(const struct family *f, size_t *bytes, const char **symbol);

/* f's description for the GPU process, malloc'd, its size in *size; NULL
   when out of memory. It changes when its version does (a fill function
   gave more elements), and the GPU process is then told again. */
unsigned user_kernel_version(const struct family *f);
void *user_kernel_pack(const struct family *f, size_t *size);
/* In the GPU process: the kernel a description gives, a family here at the
   shell's index (its launch for the CUDA backend to set); NULL with why. */
struct family *user_kernel_unpack(const void *data, size_t size, char *why, size_t why_size);

#endif
