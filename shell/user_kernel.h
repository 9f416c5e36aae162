/*
** user_kernel.h — kernels declared in Lua (user_kernel.c), as the rest of
** warplab finds them: by family, by index, and as the GPU process gets them.
*/
#ifndef WARPLAB_USER_KERNEL_H
#define WARPLAB_USER_KERNEL_H

#include <stddef.h>
#include <lauxlib.h>
#include "model/family.h"

enum { MAX_USER_KERNELS = 256 };

/* f's index among the kernels declared in this session, or -1 for a built-in. */
int user_kernel_index(const struct family *f);
/* The declared kernel at index, or NULL; and the one a launch's params are of. */
const struct family *user_kernel_at(int index);
const struct family *user_kernel_of(const struct params *p);

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

/* What user_kernel.c adds to the core table: declare_kernel (for lua/kernel.lua's kernel{}). */
extern const luaL_Reg user_kernel_core[];

#endif
