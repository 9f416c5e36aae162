/*
** model.h — exact per-warp accounting of a launch's memory instructions.
** Counts what Nsight Compute calls requests and sectors for global loads and
** stores (l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum and friends).
*/
#ifndef WARPLAB_MODEL_H
#define WARPLAB_MODEL_H

#include <signal.h>
#include "model/family.h"
#include "model/dram.h"
#include "model/l1.h"

enum { SECTOR_BYTES = 32, LINE_BYTES = 128 };

/* Traffic of one kind of instruction (loads or stores) over a launch. */
struct traffic {
    uint64_t requests;        /* warp-wide instructions with an active lane */
    uint64_t sectors;         /* distinct 32-byte sectors, summed per request */
    uint64_t lines;           /* distinct 128-byte lines, summed per request */
    uint64_t ideal_sectors;   /* fewest sectors that could hold the bytes asked for */
    uint64_t bytes;           /* bytes the active lanes asked for, each byte once */
    /* What went on to L2: for loads, the sectors and lines L1 did not hold
       (l1.h), an estimate; for the others, all of them. */
    uint64_t l2_sectors, l2_lines;
};

/* Shared-memory traffic: 32 banks of 4 bytes; lanes reading one word share it. */
struct shared_traffic {
    uint64_t requests;
    uint64_t wavefronts;          /* passes the shared-memory pipeline needed */
    uint64_t ideal_wavefronts;    /* without bank conflicts: 1, 2 or 4 per request by width */
};

/* Constant-memory loads: one address per pass, so distinct addresses serialise. */
struct constant_traffic {
    uint64_t requests;
    uint64_t passes;              /* distinct addresses, summed per request */
};

/* Atomics of one kind over a launch: what Nsight Compute counts for them
   (l1tex__t_requests/sectors_pipe_lsu_mem_global_op_atom and _op_red), and
   what their serialisation depends on: lanes of one request on one address
   are done one after another, and so are all operations on one address. */
struct atomic_traffic {
    uint64_t requests;            /* warp-wide instructions with an active lane */
    uint64_t sectors;             /* distinct 32-byte sectors, summed per request (global only) */
    uint64_t operations;          /* active lanes: one read-modify-write each */
    uint64_t same_address_lanes;  /* per request, the most active lanes on one address, summed */
    uint64_t hottest_operations;  /* over the launch: the most operations one address received (global only) */
    uint64_t addresses;           /* over the launch: distinct addresses updated (global only) */
    uint64_t hottest_sector_requests;   /* over the launch: the most requests that updated one 32-byte
                                           sector (global only); L2 takes them one after another */
    int at_least;                 /* the address map was full: the two above are lower bounds */
};

/* Operations per global address while a launch is counted (model.c). */
struct address_map;

struct model_counts {
    struct traffic load, store;
    struct shared_traffic shared_load, shared_store;
    struct constant_traffic constant;
    struct atomic_traffic atomic;         /* global atom whose result is used (ATOMG) */
    struct atomic_traffic reduction;      /* global atomics whose result is unused (REDG) */
    struct atomic_traffic shared_atomic;  /* atomics on shared memory (ATOMS) */
    struct traffic ldgsts;                /* cp.async's global side (LDGSTS), neither a load nor a shared store */
    struct dram_estimate dram;
    /* Warp-instructions issued, of every kind: the emulator's count of the PTX
       that ran, or by formula the family's issue cost. */
    uint64_t instructions;
    /* While counting: operations per global address, which model_counts_finish
       turns into hottest_operations and addresses and frees (NULL: none). */
    struct address_map *atomic_addresses;
    /* While counting: the counting thread's L1, owned by the counter (NULL:
       no L1, every load sector goes on to L2). */
    struct l1_cache *l1;
};

/* At most this many distinct global atomic addresses are told apart in one
   launch (16 bytes each); past it hottest_operations is a lower bound. */
enum { ATOMIC_ADDRESSES_MOST = 1 << 22 };

enum { SHARED_BANKS = 32, BANK_BYTES = 4 };

/* Wavefronts of one shared-memory instruction: the lanes go in phases of 128
   bytes (all 32 lanes for 4-byte elements, 16 for 8-byte, 8 for 16-byte, 16
   for 16-byte lanes paired on one address), and each phase needs as many
   wavefronts as the most distinct words any one bank holds for it. The ideal
   is one per phase with an active lane. */
struct shared_cost { int wavefronts, ideal; };
struct shared_cost shared_cost(const struct warp_access *a);
int shared_wavefronts(const struct warp_access *a);
/* Adds one shared-memory instruction. */
void shared_add(struct shared_traffic *t, const struct warp_access *a);

/* Where the model places buffer k: 2^40 apart, so 256-byte aligned like cudaMalloc. */
void model_buffer_bases(int buffer_count, uint64_t *base);

/* The threads the model (and the emulator) count with: WARPLAB_MODEL_THREADS,
   else the online CPUs, from 1 to 16. */
int model_threads_wanted(void);

/* Adds part's counts into into (the counts of several threads, of several
   runs), moving part's address map into into's (part's is freed). */
void model_counts_add(struct model_counts *into, struct model_counts *part);

/* Turns the address map into the atomics' launch-wide figures and frees it:
   once, after the last model_counts_add. */
void model_counts_finish(struct model_counts *c);

/* Adds one warp instruction to the counts of its kind (requests, sectors,
   shared wavefronts, constant passes, the DRAM estimate when dram is given):
   the one accounting, for the formulas and the PTX emulator alike. */
void model_count_access(struct model_counts *out, struct dram_tracker *dram, const struct warp_access *a);


/* Adds one warp instruction to t. */
void traffic_add(struct traffic *t, const struct warp_access *a);

/* Runs the model over every warp of the launch. Returns 0, or -1 when
   *interrupted became non-zero (the counts are then partial). */
int model_run(const struct family *f, const struct params *p,
              struct model_counts *out, volatile sig_atomic_t *interrupted);

/* Average sectors per request rounded to 2 decimals, as Nsight Compute shows it. */
double per_request(uint64_t count, uint64_t requests);

#endif
