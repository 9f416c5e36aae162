/*
** sass_run.h — a SASS engine: the machine code ptxas made of a kernel (as
** nvdisasm lists it, sass.h) run without a GPU, warp by warp, with the
** hardware's registers (R, UR, P, UP), its constant bank and its
** reconvergence (BSSY/BSYNC). Every memory instruction a warp executes goes
** to the launch's on_access as a struct warp_access, as the PTX emulator's
** do (ptx.h), so the same accounting counts what the GPU runs: four LDS
** merged into one LDS.128 count as one request of 16 bytes a lane.
**
** An opcode it does not know is an error naming it and its offset, found
** before anything runs; the caller runs the PTX instead.
*/
#ifndef WARPLAB_SASS_RUN_H
#define WARPLAB_SASS_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "emulator/ptx.h"
#include "emulator/sass.h"

struct sass_program;

/* Decodes kernel (its mangled or extern "C" name) of nvdisasm's listing
   text: NULL with why (an opcode it does not know, and its offset) when it cannot. */
struct sass_program *sass_decode(const char *listing, const char *kernel, char *why, size_t why_size);
void sass_program_free(struct sass_program *p);

/* Writes bytes of data into __constant__ variable name, as cudaMemcpyToSymbol
   would before a launch. 0, or -1 (no such variable, or memory short). */
int sass_write_constant(struct sass_program *p, const char *name, const void *data, size_t bytes);

/* Runs the grid of l (kernel, grid, block, args, buffers, on_access,
   budgets, interrupted, only_warp; not threads, printf or sums) with each
   argument's bytes in arg_bytes (4 or 8, laid out from c[0x0][0x210] as the
   CUDA ABI aligns them). 0, or -1 with why. */
struct sass_ran {
    uint64_t warp_instructions;   /* each one a warp issued, however many lanes ran it */
    uint64_t lane_instructions;   /* each active lane's */
};
int sass_run(const struct sass_program *p, const struct ptx_launch *l, const int *arg_bytes, struct sass_ran *ran,
             char *why, size_t why_size);

#endif
