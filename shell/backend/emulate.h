/*
** emulate.h — a family's own kernel on the PTX emulator (emulate.c), as the
** model behind a launch with model = "emulator", and for the tests.
*/
#ifndef WARPLAB_EMULATE_H
#define WARPLAB_EMULATE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "model/device.h"
#include "model/model.h"
#include "emulator/ptx.h"

/* The seed of the inputs an emulated launch fills (fill_inputs'): a kernel
   declared in Lua gets the same inputs on a GPU, so that where its
   addresses come from its data the emulator counts what the GPU ran. */
enum { EMULATION_SEED = 1 };

/* The lines of a launch's printf output shown at most: two warps' worth of a
   line a thread, enough to see the pattern across lanes and from one warp to
   the next, and short enough that the launch's own result stays in view.
   One more line says how many were not shown. */
enum { PRINTF_LINES_SHOWN = 64 };

struct emulation {
    struct model_counts counts;   /* as a formula gives them, DRAM estimate included */
    struct ptx_ran ran;           /* the instructions that ran */
    char kernel[256];             /* the kernel's mangled name */
    int correct;                  /* its outputs equal the CPU reference's */
    char mismatch[256];
    struct ptx_printed printed;   /* what its printf printed (text malloc'd: the caller frees it) */
    const char *level;            /* what ran: "sass", the machine code the GPU runs, or "ptx" */
    char level_why[320];          /* at PTX level: why not the SASS engine */
};

/* Each runs a launch as device runs it (a block's shared memory is limited
   as there; NULL: no limit). */

/* Compiles f's own .cu with NVRTC (device code only), or takes ptx (the
   same source as another compiler made it; NULL: none), runs the launch p on
   the emulator over the buffers and inputs its GPU runs would have, and
   checks the outputs. 0, or -1 with why (no NVRTC, no kernel_call, an
   instruction not emulated, Ctrl-C through interrupted). */
int emulate_family(const struct family *f, const struct params *p, const struct device_info *device, const char *ptx,
                   volatile sig_atomic_t *interrupted, struct emulation *out, char *why, size_t why_size);

/* Runs f's launch p on the emulator over the caller's buffers, in the
   family's order (inputs as they are; outputs as the kernel leaves them),
   counting nothing but its float atomic adds, into sums (the caller frees
   them): what a GPU's outputs are checked against for kernels declared in
   Lua. Safe beside another emulation. 0, or -1 with why. */
int emulate_outputs(const struct family *f, const struct params *p, const struct device_info *device, void *const *data,
                    struct atomic_sums *sums, volatile sig_atomic_t *interrupted, char *why, size_t why_size);

/* The memory instructions of warp `warp` of f's launch p, as a warp map
   draws them: the emulator runs that warp's block alone, on the inputs an
   emulated launch fills, and keeps the first MAX_WARP_ACCESSES of its
   accesses in acc. How many, or -1 with why. */
int emulate_warp(const struct family *f, const struct params *p, const struct device_info *device, long long warp,
                 struct warp_access *acc, char *why, size_t why_size);

/* A launch's accesses by the source line of the instruction that made them,
   each line's counted as the launch's are but without L1 or DRAM (their
   state is the whole launch's): requests, sectors and their ideal, shared
   wavefronts and their ideal, atomics. */
enum { MOST_COUNTED_LINES = 512, ACCESS_KINDS = ACCESS_LDGSTS + 1 };
struct line_counts {
    int line;                  /* 0: instructions the PTX gives no source line */
    int instruction;           /* counted by instruction: its number in the kernel's SASS, from 1 (0: at PTX level) */
    struct model_counts counts;
    struct warp_access sample[ACCESS_KINDS];   /* of each kind, the costliest of the line's first accesses */
    unsigned sampled;          /* bit k: sample[k] holds one */
    int looked[ACCESS_KINDS], sample_cost[ACCESS_KINDS];   /* how many were weighed, and the sample's cost */
};
/* Whether the SASS engine runs device's machine code (sm_90, the one architecture it knows). */
int sass_engine_runs(const struct device_info *device);

/* The level an emulation ran at: "sass" or "ptx", and at PTX level why. */
struct emulation_level {
    const char *level;
    char why[320];
};

/* The SASS listing of the kernel f's launch p runs (its name expression,
   "strided<2>", in kernel), made once a process; NULL with why (no
   disassembler here, or a compile that failed). */
const char *emulation_listing(const struct family *f, const struct params *p, char *kernel, size_t kernel_size,
                              char *why, size_t why_size);

/* f's launch p on the emulator, counted by line into lines (at most most,
   sorted by line), and at which level it ran ("sass" or "ptx", as the
   launch itself would, and why not at SASS level): how many lines, or -1
   with why. by_instruction:
   a line's instructions counted apart (at SASS level), sorted by instruction. */
int emulate_lines(const struct family *f, const struct params *p, const struct device_info *device, int by_instruction,
                  struct line_counts *lines, int most, struct emulation_level *level, char *why, size_t why_size);

/* The buffers the last emulation left, when it was of f and p: their
   contents (inputs as filled, outputs as the kernel wrote them) and bytes,
   and what its float atomic adds summed; how many, or 0. They are the
   emulator's own, good until it runs again. */
int emulation_buffers(const struct family *f, const struct params *p, void **data, size_t *bytes,
                      const struct atomic_sums **sums);

/* The warp-instructions a launch of grid and block may run on the emulator. */
void emulation_set_budget(struct ptx_launch *launch);
/* What an emulated launch counts: the model's counts and, where the DRAM
   estimate is made, its tracker; emulation_count is the launch's on_access. */
struct emulation_counting {
    struct model_counts counts;
    struct dram_tracker *dram;   /* the DRAM estimate's, or NULL */
};
void emulation_count(void *user, const struct warp_access *a);
/* The compute capability f's launch p is compiled for on the emulator. */
int emulation_compute_capability(const struct family *f, const struct params *p);

#endif
