/*
** family.h — what a kernel family declares.
** One `const struct family` per file under kernels/, listed once in
** Makefile.am's FAMILIES; completion, info(), argument checking, --list,
** both backends and the tests all walk that list. The .cu files include it
** too, also under NVRTC (the emulator's compiles), which has no C library.
*/
#ifndef WARPLAB_FAMILY_H
#define WARPLAB_FAMILY_H

#ifdef __CUDACC_RTC__
typedef unsigned long size_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;
typedef unsigned int uint32_t;
typedef unsigned short uint16_t;
typedef unsigned char uint8_t;
#else
#include <stddef.h>
#include <stdint.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* MAX_WARP_ACCESSES: every loop iteration is an instruction of its own (a CSR
   row of 64 non-zeros read by one thread is 195); acc[] of that many sits on
   the stack of model_run and of the warp maps (about 78 kB). */
enum { MAX_PARAMS = 32, MAX_BUFFERS = 6, WARP_SIZE = 32, MAX_WARP_ACCESSES = 256 };

enum param_type {
    PARAM_INT,     /* an integer in [min, max], or one of `only` */
    PARAM_CHOICE,  /* one of `choices`; the value is the index */
    PARAM_SHAPE,   /* a 2-D block shape {x, y}: x*y threads, a multiple of 32, at most max */
    PARAM_FLOAT    /* a number in [low, high]; the value is its double's bits (PARAM_FLOAT_VALUE) */
};

/* A PARAM_FLOAT value's number, and the value of a number. */
#define PARAM_FLOAT_VALUE(v) (((union { long long bits; double number; }){ .bits = (v) }).number)
#define PARAM_FLOAT_BITS(x) (((union { double number; long long bits; }){ .number = (x) }).bits)

/* A PARAM_SHAPE value packs x and y. */
#define SHAPE(x, y) ((long long)(x) | ((long long)(y) << 16))
#define SHAPE_X(v) ((int)((v) & 0xffff))
#define SHAPE_Y(v) ((int)((v) >> 16))

/* A family's params are declared by slot, every field by name, so that a
   parameter's place in the array is the slot its code reads:
       [COPY_VEC] = { .name = "vec", .type = PARAM_INT, .fallback = 1, .min = 1, .max = 4,
                      ONLY(1, 2, 4), .doc = "...", .doc_zh = "..." },
   tests/model/params checks that no slot is left empty. */
struct param_decl {
    const char *name;
    enum param_type type;
    long long fallback;          /* default value (CHOICE: index into choices) */
    long long min, max;          /* INT: inclusive range */
    const long long *only;       /* INT: the allowed values, only_count of them (ONLY()), or NULL: any in range */
    int only_count;
    const char *const *choices;  /* CHOICE: names ended by NULL */
    long long multiple_of;       /* INT: value must be a multiple (0: any) */
    double low, high;            /* FLOAT: inclusive range */
    const char *doc;
    const char *doc_zh;          /* the same in Simplified Chinese */
};

/* .only and .only_count of the values listed. */
#define ONLY(...) .only = (const long long[]){ __VA_ARGS__ },                                 \
                  .only_count = (int)(sizeof((const long long[]){ __VA_ARGS__ }) / sizeof(long long))

/* Parameter values of one launch, in the order of the family's params; a
   kernel declared while the shell runs keeps values derived from them after
   its params (family.derive). */
struct params {
    long long v[MAX_PARAMS];
};

enum buffer_role { BUFFER_IN, BUFFER_OUT };

struct buffer_decl {
    const char *name;
    enum buffer_role role;
    int element_bytes;   /* 0: the family's element_bytes(params) */
};

/* One warp-wide memory instruction, as the model sees it: either lane by
   lane (addr[] and active), or, when `affine` is set, as lanes first_lane ..
   first_lane + lane_count - 1 at first_addr + k * step; then addr[] and
   active are only filled on demand (warp_access_expand), which keeps the
   model fast for the common streaming patterns. */
enum access_kind { ACCESS_LOAD, ACCESS_STORE, ACCESS_SHARED_LOAD, ACCESS_SHARED_STORE, ACCESS_CONSTANT_LOAD,
                   ACCESS_ATOMIC,          /* global atom whose result is used (SASS ATOMG) */
                   ACCESS_REDUCTION,       /* global atom or red whose result is unused (SASS REDG) */
                   ACCESS_SHARED_ATOMIC,   /* atom on shared memory (SASS ATOMS) */
                   ACCESS_LDGSTS };        /* cp.async's global side (SASS LDGSTS): addr is the global source */
/* Shared-memory accesses give addr as a byte offset into the block's shared
   memory; constant-memory loads as a byte offset into the __constant__ bank.
   An atomic's bytes are its operand's width (4 for atomicAdd on unsigned). */

struct warp_access {
    enum access_kind kind;
    int bytes;                 /* per lane: 1, 2, 4, 8 or 16 */
    int affine;
    int first_lane, lane_count;
    uint64_t first_addr;
    int64_t step;
    uint32_t active;           /* lanes that execute it */
    uint64_t addr[WARP_SIZE];  /* byte address per lane (model address space) */
    /* Set by whoever counts it, not by a family's model: the block that ran
       it (the L1 it looks in), and whether the load skips L1 (ld.global.cg). */
    long long block;
    int l2_only;
    int line;                  /* the emulator's: the source line of the instruction (0: not known) */
    int instruction;           /* the SASS engine's: the instruction's number in its kernel, from 1 (0: not known) */
};

/* Launch shape in threads; the backends derive blocks and warps from it. */
struct launch_shape {
    long long threads;   /* total threads, a multiple of block */
    int block;
};

/* How a launch calls its kernel, on the GPU (through the driver, from the
   family's source compiled by NVRTC: shell/backend/cuda_kernels.c) and on
   the emulator alike: the kernel, the grid, and each argument, in the
   kernel's order, in 8-byte words: a buffer's address (plus an offset), or
   a value; a struct passed by value takes a word per 8 bytes of it. */
enum { MAX_KERNEL_ARGS = 16 };
struct kernel_call {
    char kernel[64];              /* a C++ name expression: "strided<2>" */
    unsigned grid[3], block[3];
    unsigned shared_bytes;        /* dynamic shared memory, <<<grid, block, shared_bytes>>> */
    int arg_count;
    struct {
        int buffer;               /* >= 0: the address of buffer `buffer`, plus value bytes; -1: value */
        long long value;
    } args[MAX_KERNEL_ARGS];
};

/* What a warp of a family costs besides its memory traffic, for the time
   model: the instructions it issues, of every kind (`instructions` each,
   and `per_access` more for each memory instruction: its address arithmetic
   and the loop around it), measured on the H200 (smsp__inst_executed.sum
   over bench/model_time.lua's launches, 2026-12-02; tests/model/time.lua
   holds them to those counts); and the loads it waits for one after another
   (load_chain): each one's address read by the load before it, or a load
   that may not pass the store before it. */
struct warp_cost {
    double instructions, per_access;
    int load_chain;
};

/* A GPU feature a launch uses: its name and the compute capability that has it. */
struct gpu_need {
    const char *because;        /* the parameter that asks for it: "variant = \"cp_async\"" */
    const char *feature;        /* "cp.async" */
    int compute_capability;     /* 80 for sm_80 */
};

/* What a family's check_outputs found, besides right or wrong. */
/* The output values float atomic adds summed, which a check compares
   within the rounding their terms allow (kernels/model/atomic_sums.h): how many,
   the most terms one of them summed, and the widest tolerance that gave. */
struct sum_tolerance {
    long long values, most_terms;
    double widest;
};

struct output_check {
    char mismatch[256];        /* the first difference, when the outputs are wrong */
    char unchecked[160];       /* why nothing was compared, when nothing was */
    long long checked;         /* output elements compared with the reference */
    long long elements;        /* output elements the launch has */
    struct sum_tolerance summed;
};

/* Choice values of the cache hints (the model reads `load`'s through
   load_hint_by): `load` (offset, strided, stencil1d), and store_policy's `store` and `fill`. */
enum { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_LDG, LOAD_CS };
enum { STORE_DEFAULT, STORE_CS, STORE_CG };
enum { FILL_FULL, FILL_PARTIAL };

struct family {
    const char *name;
    const char *summary;        /* one line, shown by --list */
    const char *teaches;        /* one sentence: what it shows */
    const char *summary_zh;     /* the same two in Simplified Chinese */
    const char *teaches_zh;
    const struct param_decl *params;
    int param_count;
    const struct buffer_decl *buffers;
    int buffer_count;
    /* Bytes per element of the family's main arrays. */
    int (*element_bytes)(const struct params *p);
    /* Element count of each buffer, in declaration order. */
    void (*buffer_elements)(const struct params *p, size_t *elements);
    /* Bytes a launch must move at the least: each input read once, each output written once. */
    uint64_t (*useful_bytes)(const struct params *p);
    struct launch_shape (*shape)(const struct params *p);
    /* CPU reference: fills the out buffers from the in buffers. */
    void (*reference)(const struct params *p, void *const *buffers);
    /* Instead of reference, for families whose outputs split into independent
       slices: slice `part` of `parts`, so that the check of a large launch runs
       on several threads (see reference_slice). */
    void (*reference_part)(const struct params *p, void *const *buffers, int part, int parts);
    /* Access model: the memory instructions of one warp, in program order;
       returns how many it wrote into acc (at most MAX_WARP_ACCESSES). */
    int (*warp_accesses)(const struct params *p, const uint64_t *base,
                         long long warp, struct warp_access *acc);
    const char *source;         /* its .cu file's text, which NVRTC compiles for the GPU and the emulator */
    /* Optional: fills the inputs on the host (index arrays, structured data)
       instead of random floats made on the GPU; a pure function of p and seed. */
    void (*fill_inputs)(const struct params *p, void *const *buffers, uint64_t seed);
    double tolerance;           /* relative tolerance of the check; 0: bit for bit */
    int accumulates;            /* the kernel adds into its outputs: they are reset before every run */
    unsigned filled;            /* outputs, bit i for buffer i, that start with what fill_inputs writes (y of y = a x + y) */
    /* Optional: buffers that are a __constant__ variable of the kernel's,
       by index: the variable's name (NULL: a buffer in global memory). The
       kernel reads it by that name; it is no argument. */
    const char *const *constants;
    /* Optional: the GPU feature these parameters use that not every GPU has,
       with the compute capability it needs (80 for cp.async); NULL: none. */
    const struct gpu_need *(*needs)(const struct params *p);
    /* Optional, for warps that run more memory instructions than one call of
       warp_accesses may return (loops): page `page` of the warp's
       instructions in program order, at most MAX_WARP_ACCESSES of them;
       returns 0 past the last page (only the last page may hold fewer than
       MAX_WARP_ACCESSES). The model walks every page; warp_accesses then gives
       page 0 (what warp maps draw). */
    int (*warp_page)(const struct params *p, const uint64_t *base, long long warp,
                     long long page, struct warp_access *acc);
    /* The kernel a launch of p runs, as a C++ name expression
       ("copy<float4>"), and how (struct kernel_call): what the GPU launches
       and the PTX emulator runs. */
    void (*kernel_call)(const struct params *p, struct kernel_call *call);
    /* For kernels declared while the shell runs (kernel{} in Lua, user_kernel.c):
       their PTX, compiled already, which the emulator runs (their model: they
       have no warp_accesses); and derive, which fills p's slots after
       param_count (buffer sizes, grid, block) from its params, on the shell's
       thread, where Lua runs (lua_state: its lua_State). 0, or -1 with why. */
    const char *ptx;
    /* And, once a launch has asked for it (derive), the SASS listing of the
       machine code the session's GPU runs (nvdisasm's, for the SASS engine),
       or why there is none; NULL until then. */
    const char *sass, *sass_why;
    /* Its warps' cost (struct warp_cost): a row for each value of the CHOICE
       param in slot cost_by, or one row for all when cost_by is 0 (no family
       has a choice in slot 0). NULL: copy's. */
    const struct warp_cost *costs;
    int cost_by;
    /* Optional: the slot of its `load` param (cache_hints.h), whose value
       "cg" sends the global loads past L1 to L2; 0: they go through L1. */
    int load_hint_by;
    int (*derive)(void *lua_state, const struct family *f, struct params *p, char *why, size_t why_size);
    /* And check_outputs, run on the shell's thread after the emulator ran p:
       the outputs it left against the kernel's Lua reference; 1 when they
       match, 0 with the first difference in check->mismatch, -1 when not
       checked (check->unchecked says why). check->checked of
       check->elements output elements were compared (a large launch's: a sample). */
    int (*check_outputs)(void *lua_state, const struct family *f, const struct params *p, struct output_check *check);
};

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The parameters every family starts with; index 0 and 1. */
enum { PARAM_N = 0, PARAM_BLOCK = 1 };
#define COMMON_PARAMS(default_n)                                                              \
    [PARAM_N] = { .name = "n", .type = PARAM_INT, .fallback = (default_n), .min = 1, .max = (1LL << 31) - 1, \
                  .doc = "elements to process (threads in the grid)", .doc_zh = "要处理的元素个数（网格中的线程数）" }, \
    [PARAM_BLOCK] = { .name = "block", .type = PARAM_INT, .fallback = 256, .min = 32, .max = 1024,          \
                      .multiple_of = 32, .doc = "threads per block", .doc_zh = "每个线程块的线程数" }

#ifdef __cplusplus
}
#endif
#endif
