/*
** ptx.h — a PTX emulator: a kernel's own compiled instructions run without
** a GPU, warp by warp, the 32 lanes of a warp in lock step, on real buffer
** contents. Every memory instruction a warp executes is handed, with its
** active lanes' addresses and width, to the caller as a struct warp_access:
** the same accounting the formulas feed counts it.
**
** What it runs: the instructions NVRTC and clang emit for the catalogue and
** kernels like it, over parameter, global, shared and constant memory
** (docs/model.md lists them). An instruction it does not know is one error
** naming it and its line in the PTX and the source, never a wrong count.
*/
#ifndef WARPLAB_PTX_H
#define WARPLAB_PTX_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "model/atomic_sums.h"
#include "model/family.h"

struct ptx_module;

/* Parses PTX text; NULL with why ("line 12: ...") when it cannot. */
struct ptx_module *ptx_parse(const char *text, char *why, size_t why_size);
void ptx_free(struct ptx_module *m);

/* The module's kernels (.entry), by index: how many, and each one's name as the PTX spells it. */
int ptx_kernel_count(const struct ptx_module *m);
const char *ptx_kernel_name(const struct ptx_module *m, int index);

/* The kernel's parameters as its .entry declares them: how many, and each one's size in bytes. */
int ptx_param_count(const struct ptx_module *m, const char *kernel);
int ptx_param_size(const struct ptx_module *m, const char *kernel, int index);

/* The bytes of the module's __constant__ variable of that name, or -1 when it has none. */
long long ptx_constant_size(const struct ptx_module *m, const char *name);
/* Sets the first bytes of that variable (what cudaMemcpyToSymbol does before a launch); 0, or -1. */
int ptx_write_constant(struct ptx_module *m, const char *name, const void *data, size_t bytes);

/* Global memory: buffers at the model's addresses (model_buffer_bases), held on the host. */
struct ptx_buffer {
    uint64_t address;
    void *data;
    size_t bytes;
    const char *name;   /* what messages call it (the kernel's buffer), or NULL */
};

/* What printf in the kernel printed: the first lines in block order and,
   within a block, in the order its warps ran, each warp's lanes in lane
   order (a GPU's order between warps may differ); how many lines were not kept. */
enum { PTX_PRINTED_MOST_BYTES = 16384 };   /* the text kept at most, its lines cut there too */
struct ptx_printed {
    char *text;                          /* malloc'd, NUL-ended; NULL when the run failed */
    unsigned long long lines_not_shown;
};

struct ptx_launch {
    const char *kernel;
    unsigned grid[3], block[3];
    unsigned dynamic_shared_bytes;  /* extern __shared__ memory, as <<<grid, block, bytes>>> gives */
    const uint64_t *args;           /* each parameter's value (a pointer, an integer, a float's bits) */
    int arg_count;
    struct ptx_buffer *buffers;
    int buffer_count;
    /* Called for every memory instruction a warp executes (global, shared,
       constant), with the user of the thread that runs its block. */
    void (*on_access)(void *user, const struct warp_access *a);
    void *user;
    int threads;                    /* blocks run on this many threads (0 or 1: one) */
    void *const *users;             /* each thread's user, when threads > 1 (else user) */
    uint64_t instruction_budget;    /* warp-instructions at most, however many lanes run each (0: no limit) */
    uint64_t block_instruction_budget;   /* the same for any one block (0: no limit) */
    uint64_t shared_bytes_most;     /* a block's shared memory, static and dynamic, at most (0: no limit) */
    /* For one warp's accesses (a warp map): 1 + the warp's number in the
       grid, counting ceil(threads / 32) warps a block; then only its block
       runs, and on_access hears of that warp's accesses alone. 0: all. */
    long long only_warp;
    volatile sig_atomic_t *interrupted;   /* set by Ctrl-C: the run stops */
    struct ptx_printed *printed;    /* where printf's output goes (NULL: it runs and is not kept) */
    int printed_lines;              /* the lines of it kept at most */
    struct atomic_sums *sums;       /* where float atomic adds on global memory are tallied (atomic_sums.h), or NULL */
};

/* Runs the whole grid, its blocks shared among l->threads threads. 0; or -1 with why (an unknown instruction, an access
   outside every buffer, the budget spent, Ctrl-C), naming the PTX line and
   the source line where it knows them. *ran counts what ran. */
struct ptx_ran {
    uint64_t lane_instructions;   /* each active lane's */
    uint64_t issued;              /* warp-instructions as a GPU issues them: an integer division is many */
    /* Float adds on a shared word another warp of the block added to first:
       the GPU's compare-and-swap loop retries those as the warps' timing
       falls, so its shared loads may exceed the count (tell_shared_float_add) */
    uint64_t shared_float_collisions;
};
int ptx_run(const struct ptx_module *m, const struct ptx_launch *l, struct ptx_ran *ran, char *why, size_t why_size);

/* A lane that reached outside every buffer, as the message names it; and the
   message (both engines'): which kernel, what it did where (as an element of
   the buffer it missed, when one is near), which lane; hint: what the address
   may be ("" none; an address below 4 GiB is called a null pointer's). */
struct emulator_lane {
    const char *kernel;
    int lane, warp;
    unsigned block[3];
};
void emulator_outside(const struct ptx_launch *l, const struct emulator_lane *at, const char *what, const char *space,
                      uint64_t address, uint64_t bytes, const char *hint, char *text, size_t size);
/* Whether a launch that ran launch_ran warp-instructions, block_ran of them
   in the block running now, is over l's budgets: 1 with the message (both
   engines'), else 0. */
int emulator_over_budget(const struct ptx_launch *l, const char *kernel, uint64_t launch_ran, uint64_t block_ran,
                         const unsigned block[3], char *text, size_t size);

#endif
