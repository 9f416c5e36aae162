/*
** ptx_module.h — the PTX emulator's module, inside the emulator only: what
** the parser (ptx_parse.c) makes of PTX text and the run (ptx_run.c) reads:
** its kernels, their instructions and operands, its variables and registers,
** and the words of PTX they are spelled in. ptx.h is what the rest of
** warplab sees of it.
*/
#ifndef WARPLAB_PTX_MODULE_H
#define WARPLAB_PTX_MODULE_H

#include <stdint.h>
#include <string.h>
#include "emulator/ptx.h"

enum { MAX_OPERANDS = 5, MAX_VECTOR = 4, MAX_KERNELS = 64, MAX_SYMBOLS = 256, NAME_BYTES = 96 };

enum kind { KIND_NONE, KIND_BITS, KIND_UNSIGNED, KIND_SIGNED, KIND_FLOAT, KIND_PREDICATE };

struct value_type {
    enum kind kind;
    int bytes;
};

static const struct {
    const char *name;
    struct value_type type;
} type_names[] = {
    { "pred", { KIND_PREDICATE, 1 } }, { "b8", { KIND_BITS, 1 } },  { "b16", { KIND_BITS, 2 } },
    { "b32", { KIND_BITS, 4 } },       { "b64", { KIND_BITS, 8 } },  { "u8", { KIND_UNSIGNED, 1 } },
    { "u16", { KIND_UNSIGNED, 2 } },   { "u32", { KIND_UNSIGNED, 4 } }, { "u64", { KIND_UNSIGNED, 8 } },
    { "s8", { KIND_SIGNED, 1 } },      { "s16", { KIND_SIGNED, 2 } }, { "s32", { KIND_SIGNED, 4 } },
    { "s64", { KIND_SIGNED, 8 } },     { "f32", { KIND_FLOAT, 4 } },  { "f64", { KIND_FLOAT, 8 } },
};

enum space { SPACE_GENERIC, SPACE_PARAM, SPACE_GLOBAL, SPACE_SHARED, SPACE_CONST, SPACE_LOCAL };

static const char *const space_names[] = { "", "param", "global", "shared", "const", "local" };

/* The generic address window of shared memory, as cvta.shared makes it: far
   from the model's buffers, which start at 1 << 40. */
static const uint64_t SHARED_WINDOW = 1ull << 60;
/* The same for local memory (cvta.local): each thread's own, from 0. */
static const uint64_t LOCAL_WINDOW = 1ull << 61;
/* The generic addresses of the module's constant strings (.global .b8 $str[N]
   = {...}: printf's formats and string literals), below shared memory's. */
static const uint64_t STRINGS_WINDOW = 1ull << 59;

enum compare { CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
               CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN };
static const char *const compare_names[] = { "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                             "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };

/* Modifiers that change what an instruction computes. */
enum { MOD_WIDE = 1, MOD_HI = 2, MOD_LO = 4, MOD_TO = 8, MOD_UNI = 16, MOD_RZI = 32, MOD_RNI = 64, MOD_RMI = 128,
       MOD_RPI = 256, MOD_SAT = 512, MOD_WARP = 1024,
       MOD_L2_ONLY = 2048 };   /* ld.cg, cp.async.cg: past L1 to L2 */

/* What an instruction's mode word names: shfl's, vote's and atom's. */
enum mode { MODE_NONE, SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY, VOTE_BALLOT, VOTE_ANY, VOTE_ALL, VOTE_UNI,
            ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_EXCH, ATOM_CAS, ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_INC, ATOM_DEC,
            PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };
static const char *const mode_names[] = { "", "idx", "up", "down", "bfly", "ballot", "any", "all", "uni",
                                          "add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec",
                                          "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" };

enum operand_kind { OPERAND_REGISTER, OPERAND_IMMEDIATE, OPERAND_SPECIAL, OPERAND_ADDRESS, OPERAND_VECTOR,
                    OPERAND_LABEL, OPERAND_SYMBOL };

/* Special registers: what mov reads for %tid.x and friends. */
enum special { SPECIAL_TID, SPECIAL_NTID, SPECIAL_CTAID, SPECIAL_NCTAID, SPECIAL_LANEID, SPECIAL_WARPID,
               SPECIAL_NWARPID };
static const char *const special_names[] = { "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid" };

struct operand {
    enum operand_kind kind;
    int reg;               /* register (REGISTER, an ADDRESS's base; -1 none) */
    int negate;            /* !%p as a predicate operand */
    int64_t imm;           /* IMMEDIATE's value, an ADDRESS's offset */
    int imm_is_float;      /* IMMEDIATE written as a decimal float: fimm holds it */
    double fimm;
    int special, dim;      /* SPECIAL: which, and x/y/z as 0/1/2 */
    int symbol;            /* SYMBOL, an ADDRESS's base symbol (-1 none) */
    int count, regs[MAX_VECTOR];   /* VECTOR */
    int predicate;         /* REGISTER written d|p: the predicate register p also set (-1 none) */
    int target;            /* LABEL: the instruction index it names */
};

struct instruction;
struct warp;
typedef int (*operation)(struct warp *w, const struct instruction *in, uint32_t lanes);

/* One operation the emulator knows: its name, what runs it, and how it moves the program counter. */
struct operation_decl {
    const char *name;
    operation run;
    int is_branch, is_exit, is_barrier;
    int modes;             /* it takes a mode word (shfl.idx, vote.ballot, atom.add) */
    int compares;          /* it takes a comparison (setp.lt): .hi and .lo are mul's otherwise */
};

struct instruction {
    const char *name;      /* the operation's name, for messages */
    operation run;
    int is_branch, is_exit, is_barrier;
    struct value_type type, source_type;   /* cvt's and setp's: destination and source / compared */
    enum space space;
    int vector;
    enum compare compare;
    enum mode mode;
    int modifiers;
    int guard, guard_negate;   /* predicate register guarding it (-1 none) */
    int operand_count;
    struct operand operands[MAX_OPERANDS];
    int ptx_line, source_line;
    int order;             /* its place in the kernel's control-flow order (order_kernel): lanes run lowest first */
    int result_unused;     /* an atom whose destination no instruction reads (mark_unused_results) */
    int issued;            /* the warp-instructions it stands for on a GPU (INTEGER_DIVISION_ISSUED, or 1) */
};

/* An integer division or remainder: the GPU has no divide instruction, and
   the compiler's sequence cost the H200 about 15 warp-instructions a `%` in
   reuse's loop (smsp__inst_executed, 2026-12-02; PTX's rem is one). */
enum { INTEGER_DIVISION_ISSUED = 15 };

struct symbol {
    char name[NAME_BYTES];
    enum space space;
    uint64_t offset;       /* param: offset in the parameter block; shared: in the block's shared memory */
    uint64_t bytes;
    int kernel;            /* the kernel it belongs to (-1: the module's) */
    int dynamic;           /* extern __shared__: placed after the static shared memory, sized by the launch */
    int call_param;        /* a call's .param (param0, retval0): each thread's own, kept in its local memory */
};

struct kernel {
    char name[NAME_BYTES];
    int first, end;        /* its instructions */
    int param_count;
    int params[32];        /* their symbols */
    uint64_t param_bytes, shared_bytes;
    uint64_t local_bytes;      /* each thread's local memory (.local variables, the stack's depot) */
    uint64_t dynamic_offset;   /* where extern shared memory starts */
};

struct ptx_module {
    unsigned char *constant;   /* the __constant__ bank: module .const variables, their initial values */
    uint64_t constant_bytes;
    struct instruction *code;
    int code_count, code_capacity;
    struct kernel kernels[MAX_KERNELS];
    int kernel_count;
    struct symbol symbols[MAX_SYMBOLS];
    int symbol_count;
    char (*registers)[NAME_BYTES];
    int register_count, register_capacity;
    uint64_t module_shared_bytes;   /* shared variables outside any kernel (clang's): every later kernel's first bytes */
    unsigned char *strings;         /* the constant strings (.global with an initializer), at STRINGS_WINDOW */
    uint64_t strings_bytes;
};

/* The kernel of that name, or NULL. */
static inline const struct kernel *find_kernel(const struct ptx_module *m, const char *name)
{
    for (int i = 0; i < m->kernel_count; i++)
        if (strcmp(m->kernels[i].name, name) == 0)
            return &m->kernels[i];
    return NULL;
}

/* A value's bits as a float of 4 or 8 bytes, and back. */
static inline float f32(uint64_t bits)
{
    uint32_t low = (uint32_t)bits;
    float f;
    memcpy(&f, &low, 4);
    return f;
}

static inline uint64_t f32_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}

static inline double f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    return bits;
}

static inline uint64_t float_bits(double value, struct value_type type)
{
    return type.bytes == 8 ? f64_bits(value) : f32_bits((float)value);
}

/* The float (of type's width) whose bits these are: float_bits' inverse. */
static inline double float_of_bits(uint64_t bits, struct value_type type)
{
    return type.bytes == 8 ? f64(bits) : f32(bits);
}

/* The operation of that name (the run's operations[]), or NULL. */
const struct operation_decl *find_operation(const char *name);
/* What the parser names of the run's operations: atom, whose unused
   results it marks, and vprintf, which a call runs (callees[]). */
int op_atom(struct warp *w, const struct instruction *in, uint32_t lanes);
int op_vprintf(struct warp *w, const struct instruction *in, uint32_t lanes);

#endif
