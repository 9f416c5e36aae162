/*
** ptx.c — the PTX emulator (ptx.h): a parser into a compact instruction
** array, then a grid run block by block, warp by warp. A warp runs its lanes
** in lock step: each step takes the lowest program counter among its live
** lanes and runs that instruction for every lane standing there, which
** reconverges divergent paths where they join, as the hardware does for
** structured code. bar.sync parks a warp until every warp of its block has
** arrived or ended.
*/
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interrupt.h"
#include "ptx.h"

enum { MAX_OPERANDS = 5, MAX_VECTOR = 4, MAX_KERNELS = 64, MAX_SYMBOLS = 256, NAME_BYTES = 96, MAX_RUNNERS = 16 };

/* ---------------------------------------------------------------------- */
/* Types, spaces, operations                                              */
/* ---------------------------------------------------------------------- */

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

enum compare { CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
               CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN };
static const char *const compare_names[] = { "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                             "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };

/* Modifiers that change what an instruction computes. */
enum { MOD_WIDE = 1, MOD_HI = 2, MOD_LO = 4, MOD_TO = 8, MOD_UNI = 16, MOD_RZI = 32, MOD_RNI = 64, MOD_RMI = 128,
       MOD_RPI = 256, MOD_SAT = 512, MOD_WARP = 1024 };

/* What an instruction's mode word names: shfl's, vote's and atom's. */
enum mode { MODE_NONE, SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY, VOTE_BALLOT, VOTE_ANY, VOTE_ALL, VOTE_UNI,
            ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_EXCH, ATOM_CAS, ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_INC, ATOM_DEC };
static const char *const mode_names[] = { "", "idx", "up", "down", "bfly", "ballot", "any", "all", "uni",
                                          "add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec" };

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
    char label[NAME_BYTES];
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
};

struct symbol {
    char name[NAME_BYTES];
    enum space space;
    uint64_t offset;       /* param: offset in the parameter block; shared: in the block's shared memory */
    uint64_t bytes;
    int kernel;            /* the kernel it belongs to (-1: the module's) */
    int dynamic;           /* extern __shared__: placed after the static shared memory, sized by the launch */
};

struct kernel {
    char name[NAME_BYTES];
    int first, end;        /* its instructions */
    int param_count;
    int params[32];        /* their symbols */
    uint64_t param_bytes, shared_bytes;
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
};

/* ---------------------------------------------------------------------- */
/* Parsing                                                                */
/* ---------------------------------------------------------------------- */

struct parser {
    struct ptx_module *m;
    const char *text;
    int line, source_line;
    int kernel;            /* the kernel being read, or -1 */
    char *why;
    size_t why_size;
};

static int fail(struct parser *p, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *format, ...)
{
    va_list args;
    int used = snprintf(p->why, p->why_size, "PTX line %d: ", p->line);
    va_start(args, format);
    vsnprintf(p->why + used, p->why_size > (size_t)used ? p->why_size - (size_t)used : 0, format, args);
    va_end(args);
    return -1;
}

static int find_type(const char *name, struct value_type *type)
{
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strcmp(type_names[i].name, name) == 0) {
            *type = type_names[i].type;
            return 1;
        }
    return 0;
}

static int register_id(struct ptx_module *m, const char *name)
{
    for (int i = 0; i < m->register_count; i++)
        if (strcmp(m->registers[i], name) == 0)
            return i;
    if (m->register_count == m->register_capacity) {
        int capacity = m->register_capacity ? 2 * m->register_capacity : 256;
        void *grown = realloc(m->registers, (size_t)capacity * sizeof *m->registers);
        if (!grown)
            return -1;
        m->registers = grown;
        m->register_capacity = capacity;
    }
    snprintf(m->registers[m->register_count], NAME_BYTES, "%s", name);
    return m->register_count++;
}

static int find_symbol(const struct ptx_module *m, const char *name, int kernel)
{
    for (int i = 0; i < m->symbol_count; i++)
        if (strcmp(m->symbols[i].name, name) == 0 && (m->symbols[i].kernel == kernel || m->symbols[i].kernel < 0))
            return i;
    return -1;
}

static int add_symbol(struct parser *p, const char *name, enum space space, uint64_t bytes, uint64_t align)
{
    struct ptx_module *m = p->m;
    if (m->symbol_count == MAX_SYMBOLS)
        return fail(p, "more than %d variables", MAX_SYMBOLS);
    struct symbol *s = &m->symbols[m->symbol_count];
    struct kernel *k = p->kernel >= 0 ? &m->kernels[p->kernel] : NULL;
    uint64_t *next = !k ? NULL : space == SPACE_PARAM ? &k->param_bytes : space == SPACE_SHARED ? &k->shared_bytes : NULL;
    if (!next)
        return fail(p, "'.%s %s': only kernel parameters and shared memory are emulated yet", space_names[space], name);
    align = align ? align : bytes < 8 ? bytes : 8;
    *next = (*next + align - 1) / align * align;
    snprintf(s->name, sizeof s->name, "%s", name);
    s->space = space;
    s->offset = *next;
    s->bytes = bytes;
    s->kernel = p->kernel;
    *next += bytes;
    return m->symbol_count++;
}

/* Copies the next word (letters, digits, _ $ % . and the like) into out; returns its end. */
static const char *word(const char *s, char *out, size_t size)
{
    size_t n = 0;
    while (*s && (isalnum((unsigned char)*s) || strchr("_$%.!", *s)) && n + 1 < size)
        out[n++] = *s++;
    out[n] = 0;
    return s;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

static int parse_number(const char *text, int64_t *value, double *fvalue, int *is_float)
{
    char *end;
    *is_float = 0;
    if ((text[0] == '0' && (text[1] == 'f' || text[1] == 'F') && strlen(text) == 10) ||
        (text[0] == '0' && (text[1] == 'd' || text[1] == 'D') && strlen(text) == 18)) {
        *value = (int64_t)strtoull(text + 2, &end, 16);   /* the float's bits */
        return *end == 0;
    }
    if (strpbrk(text, ".eE") && !(text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))) {
        *fvalue = strtod(text, &end);
        *is_float = 1;
        return *end == 0;
    }
    int negative = text[0] == '-';
    uint64_t magnitude = strtoull(text + negative, &end, 0);
    if (*end == 'U' || *end == 'u')
        end++;
    *value = negative ? -(int64_t)magnitude : (int64_t)magnitude;
    return *end == 0 && end != text + negative;
}

static int parse_special(const char *text, struct operand *o)
{
    for (size_t i = 0; i < sizeof special_names / sizeof special_names[0]; i++) {
        size_t n = strlen(special_names[i]);
        if (strncmp(text, special_names[i], n) != 0)
            continue;
        if (text[n] == 0 || (text[n] == '.' && strchr("xyz", text[n + 1]) && text[n + 2] == 0)) {
            o->kind = OPERAND_SPECIAL;
            o->special = (int)i;
            o->dim = text[n] ? text[n + 1] - 'x' : 0;
            return 1;
        }
    }
    return 0;
}

/* A register, an immediate, a special register, a symbol or a label. */
static int parse_simple(struct parser *p, const char *text, struct operand *o)
{
    int negate = text[0] == '!';
    text += negate;
    o->reg = o->symbol = -1;
    o->predicate = -1;
    o->negate = negate;
    if (parse_special(text, o))
        return 0;
    if (text[0] == '%') {
        o->kind = OPERAND_REGISTER;
        o->reg = register_id(p->m, text);
        return o->reg < 0 ? fail(p, "out of memory") : 0;
    }
    if (isdigit((unsigned char)text[0]) || text[0] == '-' || text[0] == '+') {
        o->kind = OPERAND_IMMEDIATE;
        return parse_number(text, &o->imm, &o->fimm, &o->imm_is_float) ? 0 : fail(p, "bad number '%s'", text);
    }
    int symbol = find_symbol(p->m, text, p->kernel);
    if (symbol >= 0) {
        o->kind = OPERAND_SYMBOL;
        o->symbol = symbol;
        return 0;
    }
    o->kind = OPERAND_LABEL;   /* resolved when the kernel ends */
    snprintf(o->label, sizeof o->label, "%s", text);
    return 0;
}

/* [base], [base+offset], [offset]: a register or a symbol, and a byte offset. */
static int parse_address(struct parser *p, char *text, struct operand *o)
{
    char *plus = strpbrk(text + 1, "+-");
    o->kind = OPERAND_ADDRESS;
    o->reg = o->symbol = -1;
    o->imm = 0;
    if (plus) {
        int is_float;
        double ignored;
        if (!parse_number(plus + (*plus == '+'), &o->imm, &ignored, &is_float) || is_float)
            return fail(p, "bad address offset in '[%s]'", text);
        *plus = 0;
    }
    if (text[0] == '%') {
        o->reg = register_id(p->m, text);
    } else if (isdigit((unsigned char)text[0])) {
        int is_float;
        double ignored;
        int64_t base;
        if (!parse_number(text, &base, &ignored, &is_float))
            return fail(p, "bad address '[%s]'", text);
        o->imm += base;
    } else if ((o->symbol = find_symbol(p->m, text, p->kernel)) < 0) {
        return fail(p, "unknown variable '%s'", text);
    }
    return 0;
}

static int parse_operand(struct parser *p, char *text, struct operand *o)
{
    memset(o, 0, sizeof *o);
    o->predicate = -1;
    char *bar = strchr(text, '|');
    if (bar && text[0] == '%') {   /* d|p: a value and a predicate, as shfl and setp write */
        *bar = 0;
        if (parse_simple(p, text, o))
            return -1;
        o->predicate = register_id(p->m, bar + 1);
        return 0;
    }
    size_t n = strlen(text);
    if (text[0] == '[' && text[n - 1] == ']') {
        text[n - 1] = 0;
        return parse_address(p, text + 1, o);
    }
    if (text[0] == '{' && text[n - 1] == '}') {
        text[n - 1] = 0;
        o->kind = OPERAND_VECTOR;
        for (char *item = strtok(text + 1, ", "); item; item = strtok(NULL, ", ")) {
            if (o->count == MAX_VECTOR || item[0] != '%')
                return fail(p, "bad vector operand");
            o->regs[o->count++] = register_id(p->m, item);
        }
        return 0;
    }
    return parse_simple(p, text, o);
}

/* Splits operands at top-level commas (not inside [] or {}), trimming spaces. */
static int split_operands(char *text, char **parts, int most)
{
    int count = 0, depth = 0;
    char *start = text;
    for (char *c = text;; c++) {
        if (*c == '[' || *c == '{')
            depth++;
        if (*c == ']' || *c == '}')
            depth--;
        if ((*c == ',' && depth == 0) || *c == 0) {
            int last = *c == 0;
            *c = 0;
            start = (char *)skip_space(start);
            char *end = start + strlen(start);
            while (end > start && isspace((unsigned char)end[-1]))
                *--end = 0;
            if (*start) {
                if (count == most)
                    return -1;
                parts[count++] = start;
            }
            if (last)
                return count;
            start = c + 1;
        }
    }
}

static const struct operation_decl *find_operation(const char *name);

/* The dotted parts of an opcode (ld.global.nc.v4.f32) into the instruction. */
static int parse_opcode(struct parser *p, char *opcode, struct instruction *in)
{
    char *parts[12];
    int count = 0;
    for (char *part = strtok(opcode, "."); part && count < 12; part = strtok(NULL, "."))
        parts[count++] = part;
    /* cp.async.*: the copy (cp.async.ca.shared.global, its spaces the operands')
       and its groups (commit_group, wait_group, wait_all: the copy is done when issued) */
    int first = 1;
    char name[32];
    snprintf(name, sizeof name, "%s", parts[0]);
    if (strcmp(parts[0], "cp") == 0 && count > 1 && strcmp(parts[1], "async") == 0) {
        int group = count > 2 && strncmp(parts[2], "wait", 4) == 0 ? 1 : count > 2 && strcmp(parts[2], "commit_group") == 0;
        snprintf(name, sizeof name, group ? "cp.async.group" : "cp.async");
        first = group ? count : 2;
    }
    const struct operation_decl *decl = find_operation(name);
    if (!decl)
        return fail(p, "instruction '%s' is not emulated yet", parts[0]);
    int types = 0;
    in->vector = 1;
    for (int i = first; i < count; i++) {
        struct value_type type;
        if (strcmp(decl->name, "cp.async") == 0 && (strcmp(parts[i], "shared") == 0 || strcmp(parts[i], "global") == 0))
            continue;   /* cp.async's spaces: shared to, global from */
        if (find_type(parts[i], &type)) {
            *(types++ == 0 ? &in->type : &in->source_type) = type;
            continue;
        }
        if (parts[i][0] == 'v' && (strcmp(parts[i], "v2") == 0 || strcmp(parts[i], "v4") == 0)) {
            in->vector = parts[i][1] - '0';
            continue;
        }
        int known = 0;
        for (int s = 1; s < (int)(sizeof space_names / sizeof space_names[0]); s++)
            if (strcmp(parts[i], space_names[s]) == 0)
                in->space = (enum space)s, known = 1;
        for (int c = 1; c < (int)(sizeof compare_names / sizeof compare_names[0]) && decl->compares; c++)
            if (strcmp(parts[i], compare_names[c]) == 0 && !known)
                in->compare = (enum compare)c, known = 1;
        for (int d = 1; d < (int)(sizeof mode_names / sizeof mode_names[0]) && decl->modes; d++)
            if (strcmp(parts[i], mode_names[d]) == 0 && !known)
                in->mode = (enum mode)d, known = 1;
        static const struct {
            const char *name;
            int flag;
        } flags[] = { { "wide", MOD_WIDE }, { "hi", MOD_HI }, { "lo", MOD_LO }, { "to", MOD_TO }, { "uni", MOD_UNI },
                      { "rzi", MOD_RZI }, { "rni", MOD_RNI }, { "rmi", MOD_RMI }, { "rpi", MOD_RPI }, { "sat", MOD_SAT },
                      { "warp", MOD_WARP } };
        for (size_t f = 0; f < sizeof flags / sizeof flags[0] && !known; f++)
            if (strcmp(parts[i], flags[f].name) == 0)
                in->modifiers |= flags[f].flag, known = 1;
        /* what changes only where or how fast, never what a lane computes or which bytes it moves */
        static const char *const ignored[] = { "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "rn", "rz", "rm", "rp",
                                               "ftz", "approx", "full", "sync", "aligned", "relaxed", "weak", "cta",
                                               "gpu", "sys", "L1", "L2", "evict_normal", "evict_first", "evict_last",
                                               "no_allocate" };
        for (size_t g = 0; g < sizeof ignored / sizeof ignored[0] && !known; g++)
            known = strcmp(parts[i], ignored[g]) == 0;
        if (!known)
            return fail(p, "'%s' with .%s is not emulated yet", parts[0], parts[i]);
    }
    in->name = decl->name;
    in->run = decl->run;
    in->is_branch = decl->is_branch;
    in->is_exit = decl->is_exit;
    in->is_barrier = decl->is_barrier;
    if (types == 1)
        in->source_type = in->type;
    return 0;
}

static struct instruction *new_instruction(struct parser *p)
{
    struct ptx_module *m = p->m;
    if (m->code_count == m->code_capacity) {
        int capacity = m->code_capacity ? 2 * m->code_capacity : 256;
        void *grown = realloc(m->code, (size_t)capacity * sizeof *m->code);
        if (!grown)
            return NULL;
        m->code = grown;
        m->code_capacity = capacity;
    }
    struct instruction *in = &m->code[m->code_count++];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->ptx_line = p->line;
    in->source_line = p->source_line;
    return in;
}

static int parse_instruction(struct parser *p, char *statement)
{
    struct instruction *in = new_instruction(p);
    if (!in)
        return fail(p, "out of memory");
    char *s = (char *)skip_space(statement);
    if (*s == '@') {
        s++;
        in->guard_negate = *s == '!';
        s += in->guard_negate;
        char name[NAME_BYTES];
        s = (char *)word(s, name, sizeof name);
        in->guard = register_id(p->m, name);
        s = (char *)skip_space(s);
    }
    char opcode[NAME_BYTES];
    size_t n = 0;
    while (*s && !isspace((unsigned char)*s) && n + 1 < sizeof opcode)
        opcode[n++] = *s++;
    opcode[n] = 0;
    if (parse_opcode(p, opcode, in))
        return -1;
    char *parts[MAX_OPERANDS];
    int count = split_operands(s, parts, MAX_OPERANDS);
    if (count < 0)
        return fail(p, "'%s' has too many operands", in->name);
    in->operand_count = count;
    for (int i = 0; i < count; i++)
        if (parse_operand(p, parts[i], &in->operands[i]))
            return -1;
    return 0;
}

/* A variable's declaration: [.space ...] [.align A] .TYPE name[N]: its name,
   alignment (0: none given), element size and element count (1 when no
   brackets, 0 for "[]"). The declaration's text is cut up in place. */
struct declaration {
    char *name;
    uint64_t align, element, elements;
    struct value_type type;
};

static int read_declaration(char *text, struct declaration *d)
{
    char *parts[8];
    int count = 0;
    memset(d, 0, sizeof *d);
    d->elements = 1;
    for (char *part = strtok(text, " \t;"); part && count < 8; part = strtok(NULL, " \t;"))
        parts[count++] = part;
    for (int i = 0; i < count; i++) {
        if (strcmp(parts[i], ".align") == 0 && i + 1 < count)
            d->align = strtoull(parts[++i], NULL, 10);
        else if (parts[i][0] == '.' && find_type(parts[i] + 1, &d->type))
            d->element = (uint64_t)d->type.bytes;
        else if (parts[i][0] != '.')
            d->name = parts[i];
    }
    char *bracket = d->name ? strchr(d->name, '[') : NULL;
    if (bracket) {
        d->elements = strtoull(bracket + 1, NULL, 10);
        *bracket = 0;
    }
    return d->name && d->element ? 0 : -1;
}

/* .param .u64 name / .param .align 8 .b8 name[16]: one kernel parameter. */
static int parse_param(struct parser *p, char *text)
{
    struct declaration d;
    if (read_declaration(text, &d))
        return fail(p, "a kernel parameter this emulator does not read");
    struct kernel *k = &p->m->kernels[p->kernel];
    int symbol = add_symbol(p, d.name, SPACE_PARAM, d.element * d.elements, d.align);
    if (symbol < 0)
        return -1;
    if (k->param_count == 32)
        return fail(p, "more than 32 kernel parameters");
    k->params[k->param_count++] = symbol;
    return 0;
}

/* .shared .align 4 .b8 name[1024]; and .extern .shared ... name[], sized by the launch */
static int parse_shared(struct parser *p, char *text)
{
    struct declaration d;
    int dynamic = strncmp(text, ".extern", 7) == 0;
    if (read_declaration(text, &d))
        return fail(p, "a shared variable this emulator does not read");
    if (dynamic) {
        struct ptx_module *m = p->m;
        if (m->symbol_count == MAX_SYMBOLS)
            return fail(p, "more than %d variables", MAX_SYMBOLS);
        struct symbol *s = &m->symbols[m->symbol_count++];
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "%s", d.name);
        s->space = SPACE_SHARED;
        s->kernel = p->kernel;
        s->dynamic = 1;
        s->bytes = d.align ? d.align : 16;   /* its alignment, until the kernel's end places it */
        return 0;
    }
    return add_symbol(p, d.name, SPACE_SHARED, d.element * d.elements, d.align) < 0 ? -1 : 0;
}

/* At a kernel's end: extern shared variables (its own or the module's) start
   after its static ones, at the largest alignment any of them asks for. */
static void place_dynamic_shared(struct ptx_module *m, int kernel)
{
    struct kernel *k = &m->kernels[kernel];
    uint64_t align = 16;
    for (int i = 0; i < m->symbol_count; i++)
        if (m->symbols[i].dynamic && (m->symbols[i].kernel == kernel || m->symbols[i].kernel < 0) && m->symbols[i].bytes > align)
            align = m->symbols[i].bytes;
    k->dynamic_offset = (k->shared_bytes + align - 1) / align * align;
}

static uint64_t float_bits(double value, struct value_type type);

/* .const .align A .TYPE name[N] (= {v, v, ...}): a variable of the constant
   bank, placed after the ones before it, holding its initial values. */
static int parse_constant(struct parser *p, char *text)
{
    struct ptx_module *m = p->m;
    struct declaration d;
    char *initializer = strchr(text, '=');
    if (initializer)
        *initializer++ = 0;
    if (read_declaration(text, &d) || m->symbol_count == MAX_SYMBOLS)
        return fail(p, "a constant this emulator does not read");
    uint64_t align = d.align ? d.align : d.element;
    uint64_t offset = (m->constant_bytes + align - 1) / align * align, bytes = d.element * d.elements;
    unsigned char *grown = realloc(m->constant, offset + bytes + 1);
    if (!grown)
        return fail(p, "out of memory");
    m->constant = grown;
    memset(m->constant + m->constant_bytes, 0, offset + bytes - m->constant_bytes);
    m->constant_bytes = offset + bytes;
    struct symbol *s = &m->symbols[m->symbol_count++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", d.name);
    s->space = SPACE_CONST;
    s->offset = offset;
    s->bytes = bytes;
    s->kernel = -1;
    uint64_t index = 0;
    for (char *value = initializer ? strtok(initializer, "{}, \t") : NULL; value && index < d.elements;
         value = strtok(NULL, "{}, \t"), index++) {
        int64_t v = 0;
        double f = 0;
        int is_float;
        if (!parse_number(value, &v, &f, &is_float))
            return fail(p, "bad value '%s' in the initializer of '%s'", value, d.name);
        uint64_t bits = is_float ? float_bits(f, d.type) : (uint64_t)v;
        memcpy(m->constant + offset + index * d.element, &bits, (size_t)d.element);
    }
    return 0;
}

/* Labels name instructions of the kernel just read. */
static int resolve_labels(struct parser *p, struct kernel *k, char (*labels)[NAME_BYTES], int *label_at, int label_count)
{
    for (int i = k->first; i < k->end; i++)
        for (int j = 0; j < p->m->code[i].operand_count; j++) {
            struct operand *o = &p->m->code[i].operands[j];
            if (o->kind != OPERAND_LABEL)
                continue;
            o->target = -1;
            for (int l = 0; l < label_count; l++)
                if (strcmp(labels[l], o->label) == 0)
                    o->target = label_at[l];
            if (o->target < 0) {
                p->line = p->m->code[i].ptx_line;
                return fail(p, "unknown name '%s'", o->label);
            }
        }
    return 0;
}

/* The next statement: up to ';', '{', '}' or a newline after a directive or label.
   Its text grows as needed: a constant's initializer can be 64 KB of numbers. */
struct statement {
    char *text;
    size_t capacity;
    int line;
};

/* Appends c to the statement (kept NUL-ended); 0, or -1 when memory runs out. */
static int append(struct statement *out, size_t *n, char c)
{
    if (*n + 2 > out->capacity) {
        size_t capacity = out->capacity ? 2 * out->capacity : 1024;
        char *grown = realloc(out->text, capacity);
        if (!grown)
            return -1;
        out->text = grown;
        out->capacity = capacity;
    }
    out->text[(*n)++] = c;
    out->text[*n] = 0;
    return 0;
}

static const char *next_statement(struct parser *p, const char *s, struct statement *out)
{
    size_t n = 0;
    if (append(out, &n, 0) == 0)
        n = 0;   /* an empty, NUL-ended text to start from */
    for (;;) {
        if (*s == 0)
            break;
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n')
                s++;
            continue;
        }
        if (s[0] == '/' && s[1] == '*') {
            for (s += 2; *s && !(s[0] == '*' && s[1] == '/'); s++)
                p->line += *s == '\n';
            s += *s ? 2 : 0;
            continue;
        }
        if (*s == '\n') {
            p->line++;
            s++;
            /* a directive or label without ';' ends at the line's end (.loc, .file, labels) */
            const char *t = skip_space(out->text);
            if (n && (t[0] == '.' || (n && out->text[n - 1] == ':')) && strncmp(t, ".param", 6) != 0 &&
                strncmp(t, ".visible", 8) != 0 && strncmp(t, ".entry", 6) != 0 && strncmp(t, ".reg", 4) != 0 &&
                strncmp(t, ".shared", 7) != 0 && strncmp(t, ".local", 6) != 0 && strncmp(t, ".const", 6) != 0 &&
                strncmp(t, ".global", 7) != 0)
                break;
            if (n)
                append(out, &n, ' ');
            continue;
        }
        if (n == 0)
            out->line = p->line;
        /* { and } alone are scopes; inside an instruction they hold a vector operand */
        int scope = (*s == '{' || *s == '}') && *skip_space(out->text) == 0;
        if (*s == ';' || scope || *s == '(' || *s == ')' || (*s == ',' && (n == 0 || strncmp(skip_space(out->text), ".param", 6) == 0))) {
            if (n == 0) {
                append(out, &n, *s);
                s++;
            }
            break;
        }
        append(out, &n, *s);
        s++;
    }
    if (*s == ';')
        s++;
    return s;
}

struct ptx_module *ptx_parse(const char *text, char *why, size_t why_size)
{
    struct ptx_module *m = calloc(1, sizeof *m);
    struct parser p = { m, text, 1, 0, -1, why, why_size };
    char labels[512][NAME_BYTES];
    int label_at[512], label_count = 0, depth = 0, failed = !m;
    struct statement st = { NULL, 0, 0 };
    if (!m)
        snprintf(why, why_size, "out of memory");
    for (const char *s = text; !failed && *s;) {
        st.line = 0;
        s = next_statement(&p, s, &st);
        if (!st.text) {
            failed = fail(&p, "out of memory");
            break;
        }
        char *t = (char *)skip_space(st.text);
        size_t n = strlen(t);
        while (n && isspace((unsigned char)t[n - 1]))
            t[--n] = 0;
        if (n == 0 || strcmp(t, "(") == 0 || strcmp(t, ")") == 0 || strcmp(t, ",") == 0)
            continue;
        p.line = st.line ? st.line : p.line;
        if (strcmp(t, "{") == 0) {
            depth++;
        } else if (strcmp(t, "}") == 0) {
            if (--depth == 0 && p.kernel >= 0) {
                struct kernel *k = &m->kernels[p.kernel];
                k->end = m->code_count;
                place_dynamic_shared(m, p.kernel);
                failed = resolve_labels(&p, k, labels, label_at, label_count);
                p.kernel = -1;
                label_count = 0;
            }
        } else if (strncmp(t, ".loc", 4) == 0) {
            int file, line;
            if (sscanf(t, ".loc %d %d", &file, &line) == 2)
                p.source_line = line;
        } else if (strstr(t, ".entry ")) {
            if (m->kernel_count == MAX_KERNELS) {
                failed = fail(&p, "more than %d kernels", MAX_KERNELS);
                break;
            }
            struct kernel *k = &m->kernels[m->kernel_count];
            memset(k, 0, sizeof *k);
            word(skip_space(strstr(t, ".entry ") + 7), k->name, sizeof k->name);
            k->first = m->code_count;
            p.kernel = m->kernel_count++;
        } else if (strncmp(t, ".param", 6) == 0 && p.kernel >= 0 && depth == 0) {
            failed = parse_param(&p, t);
        } else if (strncmp(t, ".const", 6) == 0 && p.kernel < 0) {
            failed = parse_constant(&p, t);
        } else if ((strncmp(t, ".shared", 7) == 0 && p.kernel >= 0) || strncmp(t, ".extern .shared", 15) == 0) {
            failed = parse_shared(&p, t);
        } else if (t[0] == '.') {
            static const char *const skipped[] = { ".version", ".target", ".address_size", ".reg", ".file", ".pragma",
                                                   ".maxntid", ".reqntid", ".minnctapersm", ".maxnreg",
                                                   ".section", ".visible .func", ".weak" };
            int known = 0;
            for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
                known = known || strncmp(t, skipped[i], strlen(skipped[i])) == 0;
            if (!known)
                failed = fail(&p, "'%.40s' is not emulated yet", t);
        } else if (t[n - 1] == ':' && p.kernel >= 0) {
            if (label_count == 512) {
                failed = fail(&p, "more than 512 labels in a kernel");
                break;
            }
            t[n - 1] = 0;
            snprintf(labels[label_count], NAME_BYTES, "%s", t);
            label_at[label_count++] = m->code_count;
        } else if (p.kernel >= 0 && depth > 0) {
            failed = parse_instruction(&p, t);
        } else {
            failed = fail(&p, "'%.40s' outside a kernel", t);
        }
    }
    free(st.text);
    if (!failed && m->kernel_count == 0)
        failed = snprintf(why, why_size, "the PTX holds no kernel (.entry)") > 0;
    if (failed) {
        ptx_free(m);
        return NULL;
    }
    return m;
}

void ptx_free(struct ptx_module *m)
{
    if (!m)
        return;
    free(m->code);
    free(m->registers);
    free(m->constant);
    free(m);
}

static const struct kernel *find_kernel(const struct ptx_module *m, const char *name)
{
    for (int i = 0; i < m->kernel_count; i++)
        if (strcmp(m->kernels[i].name, name) == 0)
            return &m->kernels[i];
    return NULL;
}

int ptx_param_count(const struct ptx_module *m, const char *kernel)
{
    const struct kernel *k = find_kernel(m, kernel);
    return k ? k->param_count : -1;
}

int ptx_param_size(const struct ptx_module *m, const char *kernel, int index)
{
    const struct kernel *k = find_kernel(m, kernel);
    return k && index >= 0 && index < k->param_count ? (int)m->symbols[k->params[index]].bytes : -1;
}

/* ---------------------------------------------------------------------- */
/* Running                                                                */
/* ---------------------------------------------------------------------- */

struct block {
    const struct ptx_module *m;
    const struct ptx_launch *l;
    const struct kernel *k;
    unsigned ctaid[3];
    unsigned threads;
    unsigned char *shared, *params;
    uint64_t shared_size;      /* static shared memory, then the launch's dynamic bytes */
    void *user;                /* on_access's, this thread's */
    pthread_mutex_t *atomics;  /* held around each atomic update */
    char *why;
    size_t why_size;
    uint64_t lane_instructions;
};

struct warp {
    struct block *b;
    int index;
    int pc[WARP_SIZE];
    uint32_t alive;        /* lanes that have not ended */
    int at_barrier;
    uint64_t *regs;        /* register r of lane i at regs[r * WARP_SIZE + i] */
};

static int run_error(struct warp *w, const struct instruction *in, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int run_error(struct warp *w, const struct instruction *in, const char *format, ...)
{
    struct block *b = w->b;
    va_list args;
    int used = in->source_line ? snprintf(b->why, b->why_size, "PTX line %d (source line %d), %s: ", in->ptx_line,
                                          in->source_line, in->name)
                               : snprintf(b->why, b->why_size, "PTX line %d, %s: ", in->ptx_line, in->name);
    va_start(args, format);
    vsnprintf(b->why + used, b->why_size > (size_t)used ? b->why_size - (size_t)used : 0, format, args);
    va_end(args);
    return -1;
}

/* A variable's address in its own space; extern shared memory starts after the running kernel's static. */
static uint64_t symbol_address(const struct block *b, int symbol)
{
    const struct symbol *s = &b->m->symbols[symbol];
    return s->dynamic ? b->k->dynamic_offset : s->offset;
}

#define FOR_LANES(lanes, i) for (int i = 0; i < WARP_SIZE; i++) if ((lanes) >> i & 1)

static uint64_t *reg(struct warp *w, int r, int lane)
{
    return &w->regs[(size_t)r * WARP_SIZE + (size_t)lane];
}

static uint64_t mask_of(int bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

static int64_t sign_extend(uint64_t bits, int bytes)
{
    if (bytes >= 8)
        return (int64_t)bits;
    uint64_t sign = 1ull << (8 * bytes - 1);
    bits &= mask_of(bytes);
    return (int64_t)((bits ^ sign) - sign);
}

static uint64_t special_value(const struct warp *w, const struct operand *o, int lane)
{
    const struct block *b = w->b;
    unsigned thread = (unsigned)(w->index * WARP_SIZE + lane);
    unsigned tid[3] = { thread % b->l->block[0], thread / b->l->block[0] % b->l->block[1],
                        thread / (b->l->block[0] * b->l->block[1]) };
    switch (o->special) {
    case SPECIAL_TID: return tid[o->dim];
    case SPECIAL_NTID: return b->l->block[o->dim];
    case SPECIAL_CTAID: return b->ctaid[o->dim];
    case SPECIAL_NCTAID: return b->l->grid[o->dim];
    case SPECIAL_LANEID: return (uint64_t)lane;
    case SPECIAL_WARPID: return (uint64_t)w->index;
    default: return (b->threads + WARP_SIZE - 1) / WARP_SIZE;
    }
}

static uint64_t float_bits(double value, struct value_type type)
{
    if (type.bytes == 8) {
        uint64_t bits;
        memcpy(&bits, &value, 8);
        return bits;
    }
    float single = (float)value;
    uint32_t bits;
    memcpy(&bits, &single, 4);
    return bits;
}

/* An operand's bits for one lane, as a value of `type`. */
static uint64_t get(const struct warp *w, const struct operand *o, int lane, struct value_type type)
{
    switch (o->kind) {
    case OPERAND_REGISTER: {
        uint64_t v = w->regs[(size_t)o->reg * WARP_SIZE + (size_t)lane];
        return o->negate ? !v : v;
    }
    case OPERAND_IMMEDIATE:   /* a float written 0f3F800000 is its bits already */
        return o->imm_is_float ? float_bits(o->fimm, type) : (uint64_t)o->imm;
    case OPERAND_SPECIAL:
        return special_value(w, o, lane);
    case OPERAND_SYMBOL:   /* a variable's address in its own space */
        return symbol_address(w->b, o->symbol);
    default:
        return 0;
    }
}

/* The float (of type's width) whose bits these are: float_bits' inverse. */
static double float_of_bits(uint64_t bits, struct value_type type)
{
    if (type.bytes == 8) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    uint32_t low = (uint32_t)bits;
    float f;
    memcpy(&f, &low, 4);
    return f;
}

static double get_float(const struct warp *w, const struct operand *o, int lane, struct value_type type)
{
    if (o->kind == OPERAND_IMMEDIATE && o->imm_is_float)
        return o->fimm;
    return float_of_bits(get(w, o, lane, type), type);
}

static void set(struct warp *w, const struct operand *o, int lane, uint64_t bits, struct value_type type)
{
    if (o->kind == OPERAND_REGISTER)
        *reg(w, o->reg, lane) = type.kind == KIND_PREDICATE ? bits != 0 : bits & mask_of(type.bytes);
}

static int check_operands(struct warp *w, const struct instruction *in, int count)
{
    if (in->operand_count != count)
        return run_error(w, in, "%d operands expected, got %d", count, in->operand_count);
    return 0;
}

/* --- arithmetic --------------------------------------------------------- */

enum arith { ADD, SUB, MUL, MIN, MAX, DIV, REM, AND, OR, XOR, SHL, SHR };

static uint64_t integer_op(enum arith op, struct value_type t, uint64_t a, uint64_t b, int modifiers)
{
    int is_signed = t.kind == KIND_SIGNED;
    int64_t sa = sign_extend(a, t.bytes), sb = sign_extend(b, t.bytes);
    uint64_t ua = a & mask_of(t.bytes), ub = b & mask_of(t.bytes);
    switch (op) {
    case ADD: return ua + ub;
    case SUB: return ua - ub;
    case MUL:
        if (modifiers & MOD_WIDE)
            return is_signed ? (uint64_t)(sa * sb) : ua * ub;
        if (modifiers & MOD_HI) {
            if (t.bytes == 8)
                return is_signed ? (uint64_t)(((__int128)sa * sb) >> 64) : (uint64_t)(((unsigned __int128)ua * ub) >> 64);
            return is_signed ? (uint64_t)((sa * sb) >> (8 * t.bytes)) : (ua * ub) >> (8 * t.bytes);
        }
        return ua * ub;
    case MIN: return is_signed ? (uint64_t)(sa < sb ? sa : sb) : ua < ub ? ua : ub;
    case MAX: return is_signed ? (uint64_t)(sa > sb ? sa : sb) : ua > ub ? ua : ub;
    case DIV:
        if (is_signed)
            return sb == 0 ? ~0ull : (uint64_t)(sa / sb);
        return ub == 0 ? ~0ull : ua / ub;
    case REM:
        if (is_signed)
            return sb == 0 ? (uint64_t)sa : (uint64_t)(sa % sb);
        return ub == 0 ? ua : ua % ub;
    case AND: return a & b;
    case OR: return a | b;
    case XOR: return a ^ b;
    case SHL: return ub >= (uint64_t)(8 * t.bytes) ? 0 : ua << ub;
    case SHR:
        if (is_signed)
            return (uint64_t)(sa >> (ub >= (uint64_t)(8 * t.bytes) ? 8 * t.bytes - 1 : (int)ub));
        return ub >= (uint64_t)(8 * t.bytes) ? 0 : ua >> ub;
    }
    return 0;
}

static double float_op(enum arith op, double a, double b)
{
    switch (op) {
    case ADD: return a + b;
    case SUB: return a - b;
    case MUL: return a * b;
    case MIN: return fmin(a, b);
    case MAX: return fmax(a, b);
    case DIV: return a / b;
    default: return NAN;
    }
}

/* The result type: .wide doubles the width. */
static struct value_type result_type(const struct instruction *in)
{
    struct value_type t = in->type;
    if (in->modifiers & MOD_WIDE)
        t.bytes *= 2;
    return t;
}

static int binary(struct warp *w, const struct instruction *in, uint32_t lanes, enum arith op)
{
    if (check_operands(w, in, 3))
        return -1;
    const struct operand *o = in->operands;
    struct value_type t = in->type, r = result_type(in);
    if (t.kind == KIND_FLOAT && (op >= AND))
        return run_error(w, in, "not defined on floats");
    if (t.kind == KIND_PREDICATE) {
        FOR_LANES(lanes, i) set(w, &o[0], i, integer_op(op, (struct value_type){ KIND_BITS, 1 }, get(w, &o[1], i, t), get(w, &o[2], i, t), 0), t);
        return 0;
    }
    FOR_LANES(lanes, i) {
        if (t.kind == KIND_FLOAT) {
            double v = float_op(op, get_float(w, &o[1], i, t), get_float(w, &o[2], i, t));
            set(w, &o[0], i, float_bits(t.bytes == 4 ? (double)(float)v : v, t), t);
        } else {
            struct value_type shift_type = (op == SHL || op == SHR) ? (struct value_type){ KIND_UNSIGNED, 4 } : t;
            set(w, &o[0], i, integer_op(op, t, get(w, &o[1], i, t), get(w, &o[2], i, shift_type), in->modifiers), r);
        }
    }
    return 0;
}

static int op_add(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, ADD); }
static int op_sub(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, SUB); }
static int op_mul(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, MUL); }
static int op_min(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, MIN); }
static int op_max(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, MAX); }
static int op_div(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, DIV); }
static int op_rem(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, REM); }
static int op_and(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, AND); }
static int op_or(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, OR); }
static int op_xor(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, XOR); }
static int op_shl(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, SHL); }
static int op_shr(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, SHR); }

/* mad and fma: a * b + c, .lo/.hi/.wide as mul's. */
static int op_mad(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 4))
        return -1;
    const struct operand *o = in->operands;
    struct value_type t = in->type, r = result_type(in);
    FOR_LANES(lanes, i) {
        if (t.kind == KIND_FLOAT) {
            double a = get_float(w, &o[1], i, t), b = get_float(w, &o[2], i, t), c = get_float(w, &o[3], i, t);
            double v = t.bytes == 4 ? (double)fmaf((float)a, (float)b, (float)c) : fma(a, b, c);
            set(w, &o[0], i, float_bits(v, t), t);
        } else {
            uint64_t product = integer_op(MUL, t, get(w, &o[1], i, t), get(w, &o[2], i, t), in->modifiers);
            set(w, &o[0], i, product + get(w, &o[3], i, r), r);
        }
    }
    return 0;
}

static int unary(struct warp *w, const struct instruction *in, uint32_t lanes, int which)
{
    if (check_operands(w, in, 2))
        return -1;
    const struct operand *o = in->operands;
    struct value_type t = in->type;
    FOR_LANES(lanes, i) {
        if (t.kind == KIND_FLOAT) {
            double a = get_float(w, &o[1], i, t);
            double v = which == 0 ? -a : which == 1 ? fabs(a) : which == 3 ? 1.0 / a : sqrt(a);
            if (t.bytes == 4 && which >= 3)   /* .rn: the float of the exact value; .approx is taken as exact */
                v = which == 3 ? (double)(1.0f / (float)a) : (double)sqrtf((float)a);
            set(w, &o[0], i, float_bits(v, t), t);
        } else if (which >= 3) {
            return run_error(w, in, "defined on floats only");
        } else if (which == 2) {   /* not */
            set(w, &o[0], i, t.kind == KIND_PREDICATE ? !get(w, &o[1], i, t) : ~get(w, &o[1], i, t), t);
        } else {
            int64_t a = sign_extend(get(w, &o[1], i, t), t.bytes);
            set(w, &o[0], i, (uint64_t)(which == 0 ? -a : a < 0 ? -a : a), t);
        }
    }
    return 0;
}

static int op_neg(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, 0); }
static int op_abs(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, 1); }
static int op_not(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, 2); }
static int op_rcp(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, 3); }
static int op_sqrt(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, 4); }

static int op_mov(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 2))
        return -1;
    const struct operand *o = in->operands;
    if (o[1].kind == OPERAND_SYMBOL && w->b->m->symbols[o[1].symbol].space == SPACE_SHARED) {
        FOR_LANES(lanes, i) set(w, &o[0], i, symbol_address(w->b, o[1].symbol), in->type);
        return 0;
    }
    if (o[0].kind == OPERAND_VECTOR || o[1].kind == OPERAND_VECTOR) {   /* mov.b64 {lo, hi}, d and back */
        const struct operand *vector = o[0].kind == OPERAND_VECTOR ? &o[0] : &o[1];
        int part = in->type.bytes / vector->count;
        FOR_LANES(lanes, i) {
            if (o[0].kind == OPERAND_VECTOR) {
                uint64_t bits = get(w, &o[1], i, in->type);
                for (int k = 0; k < vector->count; k++)
                    *reg(w, vector->regs[k], i) = (bits >> (8 * part * k)) & mask_of(part);
            } else {
                uint64_t bits = 0;
                for (int k = 0; k < vector->count; k++)
                    bits |= (*reg(w, vector->regs[k], i) & mask_of(part)) << (8 * part * k);
                set(w, &o[0], i, bits, in->type);
            }
        }
        return 0;
    }
    FOR_LANES(lanes, i) set(w, &o[0], i, get(w, &o[1], i, in->type), in->type);
    return 0;
}

/* shfl.sync.MODE.b32 d[|p], a, b, c, membermask: each lane reads a from lane j
   of its segment (c packs the clamp and the segment mask), or keeps its own
   when j is out of range; p says whether j was in range. */
static int op_shfl(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (in->operand_count < 4)
        return run_error(w, in, "4 or 5 operands expected");
    const struct operand *o = in->operands;
    struct value_type t = { KIND_BITS, 4 };
    uint64_t source[WARP_SIZE];
    for (int i = 0; i < WARP_SIZE; i++)
        source[i] = get(w, &o[1], i, t);
    FOR_LANES(lanes, lane) {
        int b = (int)(get(w, &o[2], lane, t) & 0x1f), c = (int)get(w, &o[3], lane, t);
        int clamp = c & 0x1f, segment = (c >> 8) & 0x1f;
        int max_lane = (lane & segment) | (clamp & ~segment), min_lane = lane & segment, j = lane, in_range;
        switch (in->mode) {
        case SHFL_UP: j = lane - b; in_range = j >= max_lane; break;
        case SHFL_DOWN: j = lane + b; in_range = j <= max_lane; break;
        case SHFL_BFLY: j = lane ^ b; in_range = j <= max_lane; break;
        case SHFL_IDX: j = min_lane | (b & ~segment); in_range = j <= max_lane; break;
        default: return run_error(w, in, "a mode (idx, up, down, bfly) expected");
        }
        if (!in_range)
            j = lane;
        set(w, &o[0], lane, source[j], t);
        if (o[0].predicate >= 0)
            *reg(w, o[0].predicate, lane) = (uint64_t)in_range;
    }
    return 0;
}

/* vote.sync.MODE d, a, membermask: the lanes' predicates a, gathered. */
static int op_vote(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 3))
        return -1;
    const struct operand *o = in->operands;
    struct value_type predicate = { KIND_PREDICATE, 1 }, bits = { KIND_BITS, 4 };
    uint32_t yes = 0;
    FOR_LANES(lanes, i) if (get(w, &o[1], i, predicate)) yes |= 1u << i;
    FOR_LANES(lanes, i) {
        uint32_t members = (uint32_t)get(w, &o[2], i, bits) & lanes;
        switch (in->mode) {
        case VOTE_BALLOT: set(w, &o[0], i, yes & members, bits); break;
        case VOTE_ANY: set(w, &o[0], i, (yes & members) != 0, predicate); break;
        case VOTE_ALL: set(w, &o[0], i, (yes & members) == members, predicate); break;
        case VOTE_UNI: set(w, &o[0], i, (yes & members) == 0 || (yes & members) == members, predicate); break;
        default: return run_error(w, in, "a mode (ballot, any, all, uni) expected");
        }
    }
    return 0;
}

/* activemask.b32 d: the lanes running this instruction. */
static int op_activemask(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 1))
        return -1;
    FOR_LANES(lanes, i) set(w, &in->operands[0], i, lanes, (struct value_type){ KIND_BITS, 4 });
    return 0;
}

static int compare_values(enum compare c, struct value_type t, uint64_t a, uint64_t b, double fa, double fb)
{
    if (t.kind == KIND_FLOAT) {
        int unordered = isnan(fa) || isnan(fb);
        switch (c) {
        case CMP_EQ: return !unordered && fa == fb;
        case CMP_NE: return !unordered && fa != fb;
        case CMP_LT: return !unordered && fa < fb;
        case CMP_LE: return !unordered && fa <= fb;
        case CMP_GT: return !unordered && fa > fb;
        case CMP_GE: return !unordered && fa >= fb;
        case CMP_EQU: return unordered || fa == fb;
        case CMP_NEU: return unordered || fa != fb;
        case CMP_LTU: return unordered || fa < fb;
        case CMP_LEU: return unordered || fa <= fb;
        case CMP_GTU: return unordered || fa > fb;
        case CMP_GEU: return unordered || fa >= fb;
        case CMP_NUM: return !unordered;
        case CMP_NAN: return unordered;
        default: return 0;
        }
    }
    int64_t sa = sign_extend(a, t.bytes), sb = sign_extend(b, t.bytes);
    uint64_t ua = a & mask_of(t.bytes), ub = b & mask_of(t.bytes);
    int is_signed = t.kind == KIND_SIGNED;
    switch (c) {
    case CMP_EQ: return ua == ub;
    case CMP_NE: return ua != ub;
    case CMP_LT: return is_signed ? sa < sb : ua < ub;
    case CMP_LE: return is_signed ? sa <= sb : ua <= ub;
    case CMP_GT: return is_signed ? sa > sb : ua > ub;
    case CMP_GE: return is_signed ? sa >= sb : ua >= ub;
    case CMP_LO: return ua < ub;
    case CMP_LS: return ua <= ub;
    case CMP_HI: return ua > ub;
    case CMP_HS: return ua >= ub;
    default: return 0;
    }
}

/* setp.CMP.TYPE p, a, b (a second destination, p|q, is not emulated yet). */
static int op_setp(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 3))
        return -1;
    const struct operand *o = in->operands;
    struct value_type t = in->type, predicate = { KIND_PREDICATE, 1 };
    FOR_LANES(lanes, i) {
        uint64_t a = get(w, &o[1], i, t), b = get(w, &o[2], i, t);
        double fa = t.kind == KIND_FLOAT ? get_float(w, &o[1], i, t) : 0, fb = t.kind == KIND_FLOAT ? get_float(w, &o[2], i, t) : 0;
        int holds = compare_values(in->compare, t, a, b, fa, fb);
        set(w, &o[0], i, (uint64_t)holds, predicate);
        if (o[0].predicate >= 0)   /* setp p|q: q is the complement */
            *reg(w, o[0].predicate, i) = !holds;
    }
    return 0;
}

/* selp.TYPE d, a, b, p: a where p, else b. */
static int op_selp(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 4))
        return -1;
    const struct operand *o = in->operands;
    struct value_type predicate = { KIND_PREDICATE, 1 };
    FOR_LANES(lanes, i) set(w, &o[0], i, get(w, get(w, &o[3], i, predicate) ? &o[1] : &o[2], i, in->type), in->type);
    return 0;
}

static double round_to_integer(double v, int modifiers)
{
    if (modifiers & MOD_RNI)
        return nearbyint(v);
    if (modifiers & MOD_RMI)
        return floor(v);
    if (modifiers & MOD_RPI)
        return ceil(v);
    return trunc(v);
}

/* cvt.DTYPE.STYPE d, a: widths, signs, and integers to and from floats. */
static int op_cvt(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 2))
        return -1;
    const struct operand *o = in->operands;
    struct value_type to = in->type, from = in->source_type;
    FOR_LANES(lanes, i) {
        uint64_t bits = get(w, &o[1], i, from), out;
        if (from.kind == KIND_FLOAT && to.kind == KIND_FLOAT) {
            out = float_bits(get_float(w, &o[1], i, from), to);
        } else if (from.kind == KIND_FLOAT) {
            double v = round_to_integer(get_float(w, &o[1], i, from), in->modifiers);
            if (isnan(v))
                out = 0;
            else if (to.kind == KIND_SIGNED) {
                double most = ldexp(1.0, 8 * to.bytes - 1);
                out = (uint64_t)(int64_t)(v >= most ? most - 1 : v < -most ? -most : v);
            } else {
                double most = ldexp(1.0, 8 * to.bytes);
                out = v <= 0 ? 0 : v >= most ? mask_of(to.bytes) : (uint64_t)v;
            }
        } else if (to.kind == KIND_FLOAT) {
            double v = from.kind == KIND_SIGNED ? (double)sign_extend(bits, from.bytes) : (double)(bits & mask_of(from.bytes));
            out = float_bits(v, to);
        } else {
            out = from.kind == KIND_SIGNED ? (uint64_t)sign_extend(bits, from.bytes) : bits & mask_of(from.bytes);
        }
        set(w, &o[0], i, out, to);
    }
    return 0;
}

/* cvta.to.SPACE / cvta.SPACE: between generic addresses and a space's own. */
static int op_cvta(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 2))
        return -1;
    const struct operand *o = in->operands;
    uint64_t window = in->space == SPACE_SHARED ? SHARED_WINDOW : 0;
    FOR_LANES(lanes, i) {
        uint64_t a = o[1].kind == OPERAND_SYMBOL ? symbol_address(w->b, o[1].symbol) : get(w, &o[1], i, in->type);
        set(w, &o[0], i, in->modifiers & MOD_TO ? a - window : a + window, in->type);
    }
    return 0;
}

/* --- memory ------------------------------------------------------------- */

/* A lane's address: base register or symbol, plus offset, in the instruction's space. */
static uint64_t lane_address(const struct warp *w, const struct operand *o, int lane)
{
    uint64_t base = o->reg >= 0 ? w->regs[(size_t)o->reg * WARP_SIZE + (size_t)lane]
                  : o->symbol >= 0 ? symbol_address(w->b, o->symbol) : 0;
    return base + (uint64_t)o->imm;
}

/* Where a lane's bytes are: global memory in a buffer, shared memory in the
   block's, parameters in the parameter block; NULL when outside all. */
static unsigned char *memory_at(struct block *b, enum space space, uint64_t address, uint64_t bytes, enum space *resolved)
{
    if (space == SPACE_GENERIC)
        space = address >= SHARED_WINDOW ? SPACE_SHARED : SPACE_GLOBAL;
    if (space == SPACE_SHARED && address >= SHARED_WINDOW)
        address -= SHARED_WINDOW;
    *resolved = space;
    switch (space) {
    case SPACE_SHARED:
        return address + bytes <= b->shared_size ? b->shared + address : NULL;
    case SPACE_PARAM:
        return address + bytes <= b->k->param_bytes ? b->params + address : NULL;
    case SPACE_CONST:
        return address + bytes <= b->m->constant_bytes ? b->m->constant + address : NULL;
    case SPACE_GLOBAL:
        for (int i = 0; i < b->l->buffer_count; i++) {
            const struct ptx_buffer *buffer = &b->l->buffers[i];
            if (address >= buffer->address && address + bytes <= buffer->address + buffer->bytes)
                return (unsigned char *)buffer->data + (address - buffer->address);
        }
        return NULL;
    default:
        return NULL;
    }
}

/* ld and st: each lane's element(s), and the access handed to on_access. */
static int memory_op(struct warp *w, const struct instruction *in, uint32_t lanes, int store)
{
    if (check_operands(w, in, 2))
        return -1;
    const struct operand *address = &in->operands[store ? 0 : 1], *value = &in->operands[store ? 1 : 0];
    int element = in->type.bytes, count = in->vector;
    if (address->kind != OPERAND_ADDRESS)
        return run_error(w, in, "an address [..] expected");
    struct warp_access a = { .bytes = element * count, .active = lanes };
    enum space space = in->space;
    FOR_LANES(lanes, i) {
        uint64_t at = lane_address(w, address, i);
        unsigned char *memory = memory_at(w->b, in->space, at, (uint64_t)(element * count), &space);
        if (!memory)
            return run_error(w, in, "lane %d of warp %d of block (%u, %u, %u) %s %s address 0x%llx, outside every buffer",
                             i, w->index, w->b->ctaid[0], w->b->ctaid[1], w->b->ctaid[2], store ? "writes" : "reads",
                             space_names[space], (unsigned long long)at);
        a.addr[i] = space == SPACE_SHARED && at >= SHARED_WINDOW ? at - SHARED_WINDOW : at;
        for (int k = 0; k < count; k++) {
            const struct operand single = { .kind = OPERAND_REGISTER, .reg = value->kind == OPERAND_VECTOR ? value->regs[k] : value->reg };
            uint64_t bits = 0;
            if (store) {
                bits = get(w, value->kind == OPERAND_VECTOR ? &single : value, i, in->type);
                memcpy(memory + k * element, &bits, (size_t)element);
            } else {
                memcpy(&bits, memory + k * element, (size_t)element);
                if (in->type.kind == KIND_SIGNED)
                    bits = (uint64_t)sign_extend(bits, element);
                set(w, value->kind == OPERAND_VECTOR ? &single : value, i, bits,
                    (struct value_type){ in->type.kind, 8 });
            }
        }
    }
    if (space == SPACE_PARAM)
        return 0;
    if (space == SPACE_CONST && store)
        return run_error(w, in, "a store to constant memory");
    if (space != SPACE_GLOBAL && space != SPACE_SHARED && space != SPACE_CONST)
        return run_error(w, in, "%s memory is not emulated yet", space_names[space]);
    a.kind = space == SPACE_CONST ? ACCESS_CONSTANT_LOAD
           : space == SPACE_SHARED ? (store ? ACCESS_SHARED_STORE : ACCESS_SHARED_LOAD) : store ? ACCESS_STORE : ACCESS_LOAD;
    if (w->b->l->on_access)
        w->b->l->on_access(w->b->user, &a);
    return 0;
}

static int op_ld(struct warp *w, const struct instruction *in, uint32_t lanes) { return memory_op(w, in, lanes, 0); }

/* One atomic update of a value of type t: the new value, from the old one, b and (cas) c. */
static uint64_t atomic_update(enum mode mode, struct value_type t, uint64_t old, uint64_t b, uint64_t c, double fold, double fb)
{
    switch (mode) {
    case ATOM_ADD: return t.kind == KIND_FLOAT ? float_bits(t.bytes == 4 ? (double)(float)(fold + fb) : fold + fb, t) : old + b;
    case ATOM_MIN: return t.kind == KIND_FLOAT ? float_bits(fmin(fold, fb), t) : integer_op(MIN, t, old, b, 0);
    case ATOM_MAX: return t.kind == KIND_FLOAT ? float_bits(fmax(fold, fb), t) : integer_op(MAX, t, old, b, 0);
    case ATOM_EXCH: return b;
    case ATOM_CAS: return (old & mask_of(t.bytes)) == (b & mask_of(t.bytes)) ? c : old;
    case ATOM_AND: return old & b;
    case ATOM_OR: return old | b;
    case ATOM_XOR: return old ^ b;
    case ATOM_INC: return (old & mask_of(t.bytes)) >= (b & mask_of(t.bytes)) ? 0 : old + 1;
    case ATOM_DEC: return (old & mask_of(t.bytes)) == 0 || (old & mask_of(t.bytes)) > (b & mask_of(t.bytes)) ? b : old - 1;
    default: return old;
    }
}

/* atom.SPACE.MODE.TYPE d, [a], b[, c] and red (no d): lane by lane, in lane
   order. Atomics are neither loads nor stores in the hand-written models
   (docs/model.md), so they are not counted as either here. */
static int atomic_op(struct warp *w, const struct instruction *in, uint32_t lanes, int returns)
{
    int first = returns ? 1 : 0;
    if (in->operand_count < first + 2 || in->operands[first].kind != OPERAND_ADDRESS)
        return run_error(w, in, "an address [..] and a value expected");
    const struct operand *o = in->operands;
    struct value_type t = in->type;
    FOR_LANES(lanes, i) {
        enum space space;
        uint64_t at = lane_address(w, &o[first], i);
        unsigned char *memory = memory_at(w->b, in->space, at, (uint64_t)t.bytes, &space);
        if (!memory || (space != SPACE_GLOBAL && space != SPACE_SHARED))
            return run_error(w, in, "lane %d of warp %d updates address 0x%llx, outside every buffer", i, w->index,
                             (unsigned long long)at);
        uint64_t old = 0, b = get(w, &o[first + 1], i, t), c = in->operand_count > first + 2 ? get(w, &o[first + 2], i, t) : 0;
        pthread_mutex_lock(w->b->atomics);   /* other threads run other blocks */
        memcpy(&old, memory, (size_t)t.bytes);
        double fold = t.kind == KIND_FLOAT ? float_of_bits(old, t) : 0;
        double fb = t.kind == KIND_FLOAT ? get_float(w, &o[first + 1], i, t) : 0;
        uint64_t updated = atomic_update(in->mode, t, old, b, c, fold, fb);
        memcpy(memory, &updated, (size_t)t.bytes);
        pthread_mutex_unlock(w->b->atomics);
        if (returns)
            set(w, &o[0], i, t.kind == KIND_SIGNED ? (uint64_t)sign_extend(old, t.bytes) : old, t);
    }
    return 0;
}

static int op_atom(struct warp *w, const struct instruction *in, uint32_t lanes) { return atomic_op(w, in, lanes, 1); }

/* cp.async.ca.shared.global [shared], [global], size[, source size]: done at once
   (a wait_group only makes it visible, and nothing may read it before), and
   counted as the hand-written model counts it: a global load and a shared
   store of size bytes per lane; bytes past the source size are zero. */
static int op_cp_async(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    const struct operand *o = in->operands;
    if (in->operand_count < 3 || o[0].kind != OPERAND_ADDRESS || o[1].kind != OPERAND_ADDRESS || o[2].kind != OPERAND_IMMEDIATE)
        return run_error(w, in, "[shared], [global], size expected");
    int size = (int)o[2].imm;
    struct warp_access load = { .kind = ACCESS_LOAD, .bytes = size, .active = lanes };
    struct warp_access store = { .kind = ACCESS_SHARED_STORE, .bytes = size, .active = lanes };
    FOR_LANES(lanes, i) {
        enum space to_space, from_space;
        uint64_t to = lane_address(w, &o[0], i), from = lane_address(w, &o[1], i);
        unsigned char *target = memory_at(w->b, SPACE_SHARED, to, (uint64_t)size, &to_space);
        unsigned char *source = memory_at(w->b, SPACE_GLOBAL, from, (uint64_t)size, &from_space);
        if (!target || !source)
            return run_error(w, in, "lane %d of warp %d copies from 0x%llx to shared 0x%llx, outside every buffer", i,
                             w->index, (unsigned long long)from, (unsigned long long)to);
        int copied = in->operand_count > 3 ? (int)get(w, &o[3], i, (struct value_type){ KIND_UNSIGNED, 4 }) : size;
        copied = copied < size ? copied : size;
        memcpy(target, source, (size_t)copied);
        memset(target + copied, 0, (size_t)(size - copied));
        load.addr[i] = from;
        store.addr[i] = to >= SHARED_WINDOW ? to - SHARED_WINDOW : to;
    }
    if (w->b->l->on_access) {
        w->b->l->on_access(w->b->user, &load);
        w->b->l->on_access(w->b->user, &store);
    }
    return 0;
}
static int op_red(struct warp *w, const struct instruction *in, uint32_t lanes) { return atomic_op(w, in, lanes, 0); }
static int op_st(struct warp *w, const struct instruction *in, uint32_t lanes) { return memory_op(w, in, lanes, 1); }

/* Control flow is done by the warp's stepping (run_warp): these only mark. */
static int op_control(struct warp *w, const struct instruction *in, uint32_t lanes) { return 0; }

#define OPERATION(op, ...) { .name = #op, .run = op_##op, __VA_ARGS__ }
static const struct operation_decl operations[] = {
    OPERATION(ld), OPERATION(st), OPERATION(mov), OPERATION(add), OPERATION(sub), OPERATION(mul),
    OPERATION(mad), { .name = "fma", .run = op_mad }, OPERATION(div), OPERATION(rem), OPERATION(min), OPERATION(max),
    OPERATION(and), OPERATION(or), OPERATION(xor), OPERATION(shl), OPERATION(shr), OPERATION(not),
    OPERATION(neg), OPERATION(abs), OPERATION(rcp), OPERATION(sqrt), OPERATION(setp, .compares = 1), OPERATION(selp), OPERATION(cvt), OPERATION(cvta),
    OPERATION(activemask), OPERATION(shfl, .modes = 1), OPERATION(vote, .modes = 1), OPERATION(atom, .modes = 1),
    OPERATION(red, .modes = 1),
    { .name = "cp.async", .run = op_cp_async },
    { .name = "cp.async.group", .run = op_control },
    { .name = "bra", .run = op_control, .is_branch = 1 },
    { .name = "ret", .run = op_control, .is_exit = 1 },
    { .name = "exit", .run = op_control, .is_exit = 1 },
    { .name = "bar", .run = op_control, .is_barrier = 1 },
    { .name = "barrier", .run = op_control, .is_barrier = 1 },
};

static const struct operation_decl *find_operation(const char *name)
{
    for (size_t i = 0; i < sizeof operations / sizeof operations[0]; i++)
        if (strcmp(operations[i].name, name) == 0)
            return &operations[i];
    return NULL;
}

/* --- warps and blocks ----------------------------------------------------- */

enum step { STEP_RAN, STEP_BARRIER, STEP_DONE, STEP_FAILED };

/* The lanes standing at the lowest program counter, and that counter. */
static uint32_t lowest_lanes(const struct warp *w, int *pc)
{
    uint32_t lanes = 0;
    *pc = 1 << 30;
    FOR_LANES(w->alive, i) {
        if (w->pc[i] < *pc) {
            *pc = w->pc[i];
            lanes = 0;
        }
        if (w->pc[i] == *pc)
            lanes |= 1u << i;
    }
    return lanes;
}

static enum step step_warp(struct warp *w)
{
    struct block *b = w->b;
    int pc;
    uint32_t lanes = lowest_lanes(w, &pc);
    if (pc >= b->k->end) {   /* ran off the kernel's end: as ret */
        w->alive &= ~lanes;
        return w->alive ? STEP_RAN : STEP_DONE;
    }
    const struct instruction *in = &b->m->code[pc];
    uint32_t taken = lanes;
    if (in->guard >= 0) {
        taken = 0;
        FOR_LANES(lanes, i) if ((*reg(w, in->guard, i) != 0) != in->guard_negate) taken |= 1u << i;
    }
    b->lane_instructions += (uint64_t)__builtin_popcount(lanes);
    if (b->l->instruction_budget && b->lane_instructions > b->l->instruction_budget) {
        run_error(w, in, "the emulator's budget of %llu lane-instructions is spent",
                  (unsigned long long)b->l->instruction_budget);
        return STEP_FAILED;
    }
    if (in->is_exit) {
        w->alive &= ~taken;
        FOR_LANES(lanes & ~taken, i) w->pc[i]++;
        return w->alive ? STEP_RAN : STEP_DONE;
    }
    if (in->is_branch) {
        int target = in->operands[0].target;
        FOR_LANES(lanes, i) w->pc[i] = taken >> i & 1 ? target : pc + 1;
        return STEP_RAN;
    }
    if (taken && in->run(w, in, taken))
        return STEP_FAILED;
    FOR_LANES(lanes, i) w->pc[i] = pc + 1;
    if (in->is_barrier && !(in->modifiers & MOD_WARP) && lanes == w->alive) {
        w->at_barrier = 1;
        return STEP_BARRIER;
    }
    return STEP_RAN;
}

/* Runs a warp until it parks at a barrier, ends, or fails. */
static enum step run_warp(struct warp *w)
{
    enum step s;
    unsigned steps = 0;
    while ((s = step_warp(w)) == STEP_RAN)
        if (++steps % 4096 == 0 && w->b->l->interrupted && *w->b->l->interrupted) {
            snprintf(w->b->why, w->b->why_size, "interrupted");
            return STEP_FAILED;
        }
    return s;
}

static int run_block(struct block *b, struct warp *warps, int warp_count)
{
    for (;;) {
        int live = 0, parked = 0;
        for (int i = 0; i < warp_count; i++) {
            struct warp *w = &warps[i];
            if (!w->alive)
                continue;
            enum step s = w->at_barrier ? STEP_BARRIER : run_warp(w);
            if (s == STEP_FAILED)
                return -1;
            live += w->alive != 0;
            parked += w->alive && w->at_barrier;
        }
        if (live == 0)
            return 0;
        if (parked == live)   /* every live warp has arrived: the barrier opens */
            for (int i = 0; i < warp_count; i++)
                warps[i].at_barrier = 0;
    }
}

/* What the threads of one run share: the next block to take, and the first failure. */
struct grid_run {
    const struct ptx_module *m;
    const struct ptx_launch *l;
    const struct kernel *k;
    unsigned long long next_block, blocks;
    int stop;
    pthread_mutex_t atomics;   /* atomics of different threads' blocks, one at a time */
};

/* One thread's part: its own block state, taking blocks until none are left. */
struct block_runner {
    struct grid_run *run;
    struct block b;
    struct warp *warps;
    uint64_t *regs;
    int warp_count, failed;
    char why[512];
    pthread_t thread;
};

static void *run_blocks(void *argument)
{
    struct block_runner *r = argument;
    struct grid_run *g = r->run;
    struct block *b = &r->b;
    const struct kernel *k = g->k;
    unsigned long long index;
    while (!r->failed && !__atomic_load_n(&g->stop, __ATOMIC_RELAXED) &&
           (index = __atomic_fetch_add(&g->next_block, 1, __ATOMIC_RELAXED)) < g->blocks) {
        b->ctaid[0] = (unsigned)(index % g->l->grid[0]);
        b->ctaid[1] = (unsigned)(index / g->l->grid[0] % g->l->grid[1]);
        b->ctaid[2] = (unsigned)(index / ((unsigned long long)g->l->grid[0] * g->l->grid[1]));
        memset(b->shared, 0, b->shared_size);
        for (int i = 0; i < r->warp_count; i++) {
            struct warp *w = &r->warps[i];
            unsigned first = (unsigned)i * WARP_SIZE;
            w->b = b;
            w->index = i;
            w->at_barrier = 0;
            w->regs = r->regs + (size_t)i * (size_t)g->m->register_count * WARP_SIZE;
            w->alive = b->threads - first >= WARP_SIZE ? ~0u : (1u << (b->threads - first)) - 1;
            for (int lane = 0; lane < WARP_SIZE; lane++)
                w->pc[lane] = k->first;
        }
        r->failed = run_block(b, r->warps, r->warp_count);
    }
    if (r->failed)
        __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* A runner's memory; -1 when it runs out. */
static int make_runner(struct block_runner *r, struct grid_run *g, unsigned threads, void *user)
{
    const struct kernel *k = g->k;
    r->run = g;
    r->warp_count = (int)((threads + WARP_SIZE - 1) / WARP_SIZE);
    r->b = (struct block){ .m = g->m, .l = g->l, .k = k, .threads = threads, .why = r->why, .why_size = sizeof r->why,
                           .user = user, .atomics = &g->atomics };
    r->warps = calloc((size_t)r->warp_count, sizeof *r->warps);
    r->regs = calloc((size_t)r->warp_count * (size_t)g->m->register_count * WARP_SIZE + 1, sizeof *r->regs);
    r->b.shared_size = g->l->dynamic_shared_bytes ? k->dynamic_offset + g->l->dynamic_shared_bytes : k->shared_bytes;
    r->b.shared = calloc(r->b.shared_size + 1, 1);
    r->b.params = calloc(k->param_bytes + 1, 1);
    if (!r->warps || !r->regs || !r->b.shared || !r->b.params)
        return -1;
    for (int i = 0, word = 0; i < k->param_count; i++) {
        const struct symbol *s = &g->m->symbols[k->params[i]];
        memcpy(r->b.params + s->offset, &g->l->args[word], s->bytes);
        word += (int)((s->bytes + 7) / 8);
    }
    return 0;
}

static void free_runner(struct block_runner *r)
{
    free(r->warps);
    free(r->regs);
    free(r->b.shared);
    free(r->b.params);
}

int ptx_run(const struct ptx_module *m, const struct ptx_launch *l, uint64_t *lane_instructions, char *why, size_t why_size)
{
    const struct kernel *k = find_kernel(m, l->kernel);
    *lane_instructions = 0;
    if (!k) {
        snprintf(why, why_size, "the PTX has no kernel named '%s'", l->kernel);
        return -1;
    }
    int words = 0;   /* a parameter takes a word per 8 bytes (a struct passed by value, several) */
    for (int i = 0; i < k->param_count; i++)
        words += (int)((m->symbols[k->params[i]].bytes + 7) / 8);
    if (l->arg_count != words) {
        snprintf(why, why_size, "kernel '%s' takes %d parameters (%d 8-byte words), %d words were given", k->name,
                 k->param_count, words, l->arg_count);
        return -1;
    }
    unsigned threads = l->block[0] * l->block[1] * l->block[2];
    if (threads == 0) {
        snprintf(why, why_size, "a block of 0 threads");
        return -1;
    }
    struct grid_run g = { .m = m, .l = l, .k = k,
                          .blocks = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2] };
    int count = l->threads < 1 ? 1 : l->threads > MAX_RUNNERS ? MAX_RUNNERS : l->threads;
    count = (unsigned long long)count > g.blocks ? (int)(g.blocks ? g.blocks : 1) : count;
    struct block_runner *runners = calloc((size_t)count, sizeof *runners);
    int failed = !runners;
    pthread_mutex_init(&g.atomics, NULL);
    for (int i = 0; i < count && !failed; i++)
        failed = make_runner(&runners[i], &g, threads, l->users ? l->users[i] : l->user);
    if (failed) {
        snprintf(why, why_size, "out of memory");
    } else {
        int started = 1;
        while (started < count && start_worker(&runners[started].thread, run_blocks, &runners[started]) == 0)
            started++;
        run_blocks(&runners[0]);
        for (int i = 1; i < started; i++)
            pthread_join(runners[i].thread, NULL);
        for (int i = 0; i < started; i++) {
            *lane_instructions += runners[i].b.lane_instructions;
            if (runners[i].failed && !failed) {
                failed = 1;
                snprintf(why, why_size, "%s", runners[i].why);
            }
        }
    }
    for (int i = 0; runners && i < count; i++)
        free_runner(&runners[i]);
    free(runners);
    pthread_mutex_destroy(&g.atomics);
    return failed ? -1 : 0;
}
