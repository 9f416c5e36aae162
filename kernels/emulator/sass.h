/*
** sass.h — the machine code a GPU runs (SASS), read from the listing NVIDIA's
** disassembler prints (`nvdisasm -c -g`): each kernel's instructions with
** their offset, predicate, opcode and modifiers, operands, the source line
** they came from, and, for those that touch memory, the space, the access
** and the bytes a lane moves; and the branch labels, each with the
** instruction it names. This is what ptxas made of the PTX the
** emulator runs: merged loads (four LDS into one LDS.128), unrolled loops.
*/
#ifndef WARPLAB_SASS_H
#define WARPLAB_SASS_H

#include <stddef.h>

enum sass_space { SASS_NO_MEMORY, SASS_GLOBAL, SASS_SHARED, SASS_LOCAL, SASS_CONSTANT, SASS_GENERIC };
enum sass_access { SASS_NO_ACCESS, SASS_LOAD, SASS_STORE, SASS_ATOMIC, SASS_REDUCTION, SASS_ASYNC_COPY };

struct sass_instruction {
    unsigned offset;           /* bytes from the kernel's start */
    char predicate[8];         /* "@!P1", or "" */
    char opcode[16];           /* the base: "LDS" */
    char modifiers[48];        /* what follows it: ".128", ".E.ADD.F32.FTZ.RN.STRONG.GPU" */
    char operands[112];        /* "R12, [R16+0x10]" */
    int line;                  /* the source line it came from, or 0 where the listing does not say */
    int file;                  /* index into the listing's files, with line */
    enum sass_space space;
    enum sass_access access;
    int bytes;                 /* memory instructions: the bytes one lane moves */
};

enum { SASS_NAME_BYTES = 256, SASS_MAX_KERNELS = 64, SASS_MAX_FILES = 16 };

struct sass_kernel {
    char name[SASS_NAME_BYTES];   /* the mangled name: _Z12matmul_tiledPKfS0_Pfi */
    int first, count;             /* its instructions in the listing's */
};

/* A label of the code (".L_x_3:", a function's "$__internal_0_$__cuda_sm20_rem_s64:" or a kernel's
   own name), and the instruction it names. */
struct sass_label {
    char name[64];
    int instruction;   /* its index among the listing's instructions; -1: none (a label at a kernel's end) */
};

/* A __constant__ variable: its name and where in bank 3 it starts. */
struct sass_symbol {
    char name[64];
    size_t offset;
};

struct sass_listing {
    struct sass_instruction *instructions;
    int count, capacity;
    struct sass_label *labels;
    int label_count, label_capacity;
    struct sass_kernel kernels[SASS_MAX_KERNELS];
    int kernel_count;
    char files[SASS_MAX_FILES][SASS_NAME_BYTES];   /* the source files the lines name */
    int file_count;
    unsigned char *constants;     /* constant bank 3, the __constant__ variables, as the listing's data gives it */
    size_t constant_bytes;
    struct sass_symbol *symbols;  /* the __constant__ variables, each at its offset in bank 3 */
    int symbol_count;
};

/* Reads nvdisasm's listing into listing: 0, or -1 with why (out of memory,
   or no instruction at all). Lines it does not know are skipped. Listed
   without -c, the data sections come too: bank 3's bytes into constants. */
int sass_parse(const char *text, struct sass_listing *listing, char *why, size_t why_size);
void sass_free(struct sass_listing *listing);

/* The label of that name (length bytes of name, as a branch's operand holds it), or NULL. */
const struct sass_label *sass_label_named(const struct sass_listing *listing, const char *name, size_t length);

/* The __constant__ variable of that name, or NULL. */
const struct sass_symbol *sass_symbol_named(const struct sass_listing *listing, const char *name);

/* The kernel of that (mangled) name, or NULL. */
const struct sass_kernel *sass_kernel_named(const struct sass_listing *listing, const char *name);

/* The words of a space and an access, as the card names them ("global", "load"). */
const char *sass_space_name(enum sass_space space);
const char *sass_access_name(enum sass_access access);

#endif
