/*
** ptx_parse.c — the PTX emulator's parser (ptx.h): PTX text into a module
** (ptx_module.h) of compact instructions. It reads the text statement by
** statement: directives (.version, .entry, .param, .shared, .loc ...),
** labels and instructions, each instruction's opcode and operands, the
** functions a kernel may call (callees[]); and, at each kernel's end,
** resolves its labels and numbers its instructions in control-flow order
** (order_kernel), the order the run steps lanes in. The module's questions
** (its kernels, parameters, constants) are answered here too.
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emulator/ptx_module.h"
#include "support/text.h"

/* A label an operand names, resolved when its kernel ends (the operand
   keeps only the instruction index, so that instructions stay small). */
struct label_use {
    int instruction, operand;
    char name[NAME_BYTES];
};

/* A kernel's labels at most. */
enum { MAX_LABELS = 512 };

struct parser {
    struct ptx_module *m;
    const char *text;
    int line, source_line;  /* line: the statement's, for messages */
    int at_line;           /* where reading stands */
    int kernel;            /* the kernel being read, or -1 */
    int depth;             /* braces open: 0 in a kernel's parameter list, more in its body */
    int in_section;        /* inside a .section's braces (debug information, with -lineinfo): braces open there */
    int section_begun;     /* a .section was read and its { has not come yet */
    char *why;
    size_t why_size;
    struct label_use *uses;   /* the kernel's, so far */
    int use_count, use_capacity;
    char labels[MAX_LABELS][NAME_BYTES];   /* the kernel's labels, so far, and the instruction each names */
    int label_at[MAX_LABELS], label_count;
};

static int fail(struct parser *p, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *format, ...)
{
    va_list args;
    int used = snprintf(p->why, p->why_size, SAY("PTX line %d: ", "PTX 第 %d 行："), p->line);
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
        return fail(p, SAY("more than %d variables", "超过 %d 个变量"), MAX_SYMBOLS);
    struct symbol *s = &m->symbols[m->symbol_count];
    struct kernel *k = p->kernel >= 0 ? &m->kernels[p->kernel] : NULL;
    uint64_t *next = !k ? (space == SPACE_SHARED ? &m->module_shared_bytes : NULL)
                   : space == SPACE_PARAM ? &k->param_bytes : space == SPACE_SHARED ? &k->shared_bytes
                   : space == SPACE_LOCAL ? &k->local_bytes : NULL;
    if (!next)
        return fail(p, SAY("'.%s %s': only kernel parameters, shared and local memory are emulated yet", "'.%s %s'：目前只模拟核函数参数、共享内存和局部内存"), space_names[space], name);
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
        return o->reg < 0 ? fail(p, SAY("out of memory", "内存不足")) : 0;
    }
    if (isdigit((unsigned char)text[0]) || text[0] == '-' || text[0] == '+') {
        o->kind = OPERAND_IMMEDIATE;
        return parse_number(text, &o->imm, &o->fimm, &o->imm_is_float) ? 0 : fail(p, SAY("bad number '%s'", "数字 '%s' 有误"), text);
    }
    int symbol = find_symbol(p->m, text, p->kernel);
    if (symbol >= 0) {
        o->kind = OPERAND_SYMBOL;
        o->symbol = symbol;
        return 0;
    }
    o->kind = OPERAND_LABEL;   /* resolved when the kernel ends */
    if (p->use_count == p->use_capacity) {
        int capacity = p->use_capacity ? 2 * p->use_capacity : 64;
        void *grown = realloc(p->uses, (size_t)capacity * sizeof *p->uses);
        if (!grown)
            return fail(p, SAY("out of memory", "内存不足"));
        p->uses = grown;
        p->use_capacity = capacity;
    }
    const struct instruction *in = &p->m->code[p->m->code_count - 1];   /* the one being read */
    struct label_use *use = &p->uses[p->use_count++];
    use->instruction = p->m->code_count - 1;
    use->operand = (int)(o - in->operands);
    snprintf(use->name, sizeof use->name, "%s", text);
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
            return fail(p, SAY("bad address offset in '[%s]'", "'[%s]' 中的地址偏移有误"), text);
        *plus = 0;
    }
    if (text[0] == '%') {
        o->reg = register_id(p->m, text);
    } else if (isdigit((unsigned char)text[0])) {
        int is_float;
        double ignored;
        int64_t base;
        if (!parse_number(text, &base, &ignored, &is_float))
            return fail(p, SAY("bad address '[%s]'", "地址 '[%s]' 有误"), text);
        o->imm += base;
    } else if ((o->symbol = find_symbol(p->m, text, p->kernel)) < 0) {
        return fail(p, SAY("unknown variable '%s'", "未知变量 '%s'"), text);
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
                return fail(p, SAY("bad vector operand", "向量操作数有误"));
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

/* The dotted parts of an opcode (ld.global.nc.v4.f32) into the instruction. */
static int parse_opcode(struct parser *p, char *opcode, struct instruction *in)
{
    char *parts[12] = { opcode };   /* an opcode of no parts (a guard alone, "@%p;") is named as written */
    int count = 0;
    for (char *part = strtok(opcode, "."); part && count < 12; part = strtok(NULL, "."))
        parts[count++] = part;
    /* cp.async.*: the copy (cp.async.ca.shared.global, its spaces the operands')
       and its groups (commit_group, wait_group, wait_all: the copy is done when issued) */
    int first = 1;
    char name[NAME_BYTES];
    snprintf(name, sizeof name, "%s", parts[0]);
    if (strcmp(parts[0], "cp") == 0 && count > 1 && strcmp(parts[1], "async") == 0) {
        int group = count > 2 && strncmp(parts[2], "wait", 4) == 0 ? 1 : count > 2 && strcmp(parts[2], "commit_group") == 0;
        snprintf(name, sizeof name, group ? "cp.async.group" : "cp.async");
        first = group ? count : 2;
    }
    const struct operation_decl *decl = find_operation(name);
    if (!decl)
        return fail(p, SAY("instruction '%s' is not emulated yet", "指令 '%s' 还没有模拟"), parts[0]);
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
                      { "warp", MOD_WARP }, { "cg", MOD_L2_ONLY } };
        for (size_t f = 0; f < sizeof flags / sizeof flags[0] && !known; f++)
            if (strcmp(parts[i], flags[f].name) == 0)
                in->modifiers |= flags[f].flag, known = 1;
        /* what changes only where or how fast, never what a lane computes or which bytes it moves
           (volatile: each access happens once, in program order, which lanes in lock step do anyway) */
        static const char *const ignored[] = { "nc", "ca", "cs", "lu", "cv", "wb", "wt", "rn", "rz", "rm", "rp",
                                               "ftz", "approx", "full", "sync", "aligned", "relaxed", "weak", "cta",
                                               "gpu", "sys", "L1", "L2", "evict_normal", "evict_first", "evict_last",
                                               "no_allocate", "volatile" };
        for (size_t g = 0; g < sizeof ignored / sizeof ignored[0] && !known; g++)
            known = strcmp(parts[i], ignored[g]) == 0;
        if (!known)
            return fail(p, SAY("'%s' with .%s is not emulated yet", "带 .%2$s 的 '%1$s' 还没有模拟"), parts[0], parts[i]);
    }
    in->name = decl->name;
    in->run = decl->run;
    in->issued = (strcmp(decl->name, "div") == 0 || strcmp(decl->name, "rem") == 0) && in->type.kind != KIND_FLOAT
                     ? INTEGER_DIVISION_ISSUED : 1;
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

static int parse_call(struct parser *p, struct instruction *in, char *text);

/* Whether an opcode is call (call, call.uni). */
static int is_call(const char *opcode)
{
    return strncmp(opcode, "call", 4) == 0 && (opcode[4] == 0 || opcode[4] == '.');
}

/* A call's parameter names it in st.param and ld.param: those go to the thread's local memory. */
static void place_call_params(struct parser *p, struct instruction *in)
{
    for (int i = 0; i < in->operand_count && in->space == SPACE_PARAM; i++)
        if (in->operands[i].kind == OPERAND_ADDRESS && in->operands[i].symbol >= 0 && p->m->symbols[in->operands[i].symbol].call_param)
            in->space = SPACE_LOCAL;
}

static int parse_instruction(struct parser *p, char *statement)
{
    struct instruction *in = new_instruction(p);
    if (!in)
        return fail(p, SAY("out of memory", "内存不足"));
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
    if (is_call(opcode))
        return parse_call(p, in, s);
    if (parse_opcode(p, opcode, in))
        return -1;
    char *parts[MAX_OPERANDS];
    int count = split_operands(s, parts, MAX_OPERANDS);
    if (count < 0)
        return fail(p, SAY("'%s' has too many operands", "'%s' 的操作数太多"), in->name);
    in->operand_count = count;
    for (int i = 0; i < count; i++)
        if (parse_operand(p, parts[i], &in->operands[i]))
            return -1;
    place_call_params(p, in);
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
        return fail(p, SAY("a kernel parameter this emulator does not read", "模拟器读不懂的核函数参数"));
    struct kernel *k = &p->m->kernels[p->kernel];
    int symbol = add_symbol(p, d.name, SPACE_PARAM, d.element * d.elements, d.align);
    if (symbol < 0)
        return -1;
    if (k->param_count == 32)
        return fail(p, SAY("more than 32 kernel parameters", "核函数参数超过 32 个"));
    k->params[k->param_count++] = symbol;
    return 0;
}

/* .shared .align 4 .b8 name[1024]; and .extern .shared ... name[], sized by the launch */
static int parse_shared(struct parser *p, char *text)
{
    struct declaration d;
    int dynamic = strncmp(text, ".extern", 7) == 0;
    if (read_declaration(text, &d))
        return fail(p, SAY("a shared variable this emulator does not read", "模拟器读不懂的共享变量"));
    if (dynamic) {
        struct ptx_module *m = p->m;
        if (m->symbol_count == MAX_SYMBOLS)
            return fail(p, SAY("more than %d variables", "超过 %d 个变量"), MAX_SYMBOLS);
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

/* .local .align A .TYPE name[N]: a variable of each thread's local memory (an array the compiler could not keep in registers). */
static int parse_local(struct parser *p, char *text)
{
    struct declaration d;
    if (read_declaration(text, &d))
        return fail(p, SAY("a local variable this emulator does not read", "模拟器读不懂的局部变量"));
    return add_symbol(p, d.name, SPACE_LOCAL, d.element * d.elements, d.align) < 0 ? -1 : 0;
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

/* An initializer's values {v, v, ...} into `into`, d's elements at most. */
static int read_initializer(struct parser *p, char *initializer, const struct declaration *d, unsigned char *into)
{
    uint64_t index = 0;
    for (char *value = initializer ? strtok(initializer, "{}, \t") : NULL; value && index < d->elements;
         value = strtok(NULL, "{}, \t"), index++) {
        int64_t v = 0;
        double f = 0;
        int is_float;
        if (!parse_number(value, &v, &f, &is_float))
            return fail(p, SAY("bad value '%s' in the initializer of '%s'", "'%2$s' 的初值中的值 '%1$s' 有误"), value, d->name);
        uint64_t bits = is_float ? float_bits(f, d->type) : (uint64_t)v;
        memcpy(into + index * d->element, &bits, (size_t)d->element);
    }
    return 0;
}

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
        return fail(p, SAY("a constant this emulator does not read", "模拟器读不懂的常量"));
    uint64_t align = d.align ? d.align : d.element;
    uint64_t offset = (m->constant_bytes + align - 1) / align * align, bytes = d.element * d.elements;
    unsigned char *grown = realloc(m->constant, offset + bytes + 1);
    if (!grown)
        return fail(p, SAY("out of memory", "内存不足"));
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
    return read_initializer(p, initializer, &d, m->constant + offset);
}

/* .global .align 1 .b8 $str[N] = {v, ...}: a constant string (printf's
   format, a string literal), kept at STRINGS_WINDOW with a NUL after it.
   Global variables of the kernel's own (__device__) are not emulated. */
static int parse_global(struct parser *p, char *text)
{
    struct ptx_module *m = p->m;
    struct declaration d;
    char *initializer = strchr(text, '=');
    if (initializer)
        *initializer++ = 0;
    if (read_declaration(text, &d) || m->symbol_count == MAX_SYMBOLS)
        return fail(p, SAY("a global variable this emulator does not read", "模拟器读不懂的全局变量"));
    if (!initializer || d.element != 1)
        return fail(p, SAY("global variable '%s' (__device__) is not emulated yet: only string literals are",
                           "全局变量 '%s'（__device__）还不能模拟：只支持字符串字面量"), d.name);
    uint64_t offset = m->strings_bytes, bytes = d.elements + 1;
    unsigned char *grown = realloc(m->strings, offset + bytes);
    if (!grown)
        return fail(p, SAY("out of memory", "内存不足"));
    memset(grown + offset, 0, bytes);
    m->strings = grown;
    m->strings_bytes = offset + bytes;
    struct symbol *s = &m->symbols[m->symbol_count++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", d.name);
    s->space = SPACE_GLOBAL;
    s->offset = STRINGS_WINDOW + offset;
    s->bytes = d.elements;
    s->kernel = -1;
    return read_initializer(p, initializer, &d, m->strings + offset);
}

/* The functions a kernel may call, each run by the emulator itself: vprintf,
   which NVRTC and clang make of printf. */
static const struct callee {
    const char *name;       /* as the PTX declares it */
    const char *shown;      /* as the source called it, for messages */
    operation run;
    int arguments;
} callees[] = {
    { "vprintf", "printf", op_vprintf, 2 },
};

static const struct callee *find_callee(const char *name)
{
    for (size_t i = 0; i < sizeof callees / sizeof callees[0]; i++)
        if (strcmp(callees[i].name, name) == 0)
            return &callees[i];
    return NULL;
}

static int unknown_callee(struct parser *p, const char *name)
{
    return fail(p, SAY("the kernel calls function '%s', which is not emulated (of the functions outside a kernel, only printf is)",
                       "核函数调用了函数 '%s'，它不能模拟（核函数之外的函数只支持 printf）"), name);
}

/* A call's parameter, as an operand: [name] in the thread's local memory; "" for none. */
static int call_operand(struct parser *p, char *name, struct operand *o)
{
    memset(o, 0, sizeof *o);
    o->kind = OPERAND_ADDRESS;
    o->reg = o->symbol = o->predicate = -1;
    name = (char *)skip_space(name);
    for (size_t n = strlen(name); n && isspace((unsigned char)name[n - 1]); n--)
        name[n - 1] = 0;
    if (!*name)
        return 0;
    if (parse_address(p, name, o))
        return -1;
    return p->m->symbols[o->symbol].call_param ? 0 : fail(p, SAY("'%s' is not a call's parameter", "'%s' 不是调用参数"), name);
}

/* call[.uni] (result), function, (argument, ...): a call of a function the
   emulator runs itself (callees). Operand 0 is the result (symbol -1: none),
   then the arguments, each a call parameter in the thread's local memory. */
static int parse_call(struct parser *p, struct instruction *in, char *text)
{
    char *s = (char *)skip_space(text), *result = "", name[NAME_BYTES];
    if (*s == '(') {
        result = s + 1;
        if (!(s = strchr(s, ')')))
            return fail(p, SAY("a call this emulator does not read", "模拟器读不懂的调用"));
        *s++ = 0;
        s = (char *)skip_space(s);
        s += *s == ',';
    }
    s = (char *)word(skip_space(s), name, sizeof name);
    const struct callee *callee = find_callee(name);
    if (!callee)
        return unknown_callee(p, name);
    char *open = strchr(s, '('), *close = open ? strchr(open, ')') : NULL, *parts[MAX_OPERANDS];
    if (!close)
        return fail(p, SAY("a call this emulator does not read", "模拟器读不懂的调用"));
    *close = 0;
    int count = split_operands(open + 1, parts, MAX_OPERANDS - 1);
    if (count != callee->arguments)
        return fail(p, SAY("%s called with %d arguments, not %d", "调用 %s 时给了 %d 个参数，而不是 %d 个"), callee->name, count, callee->arguments);
    in->name = callee->shown;
    in->run = callee->run;
    in->issued = 1;
    in->operand_count = 1 + count;
    if (call_operand(p, result, &in->operands[0]))
        return -1;
    for (int i = 0; i < count; i++)
        if (call_operand(p, parts[i], &in->operands[1 + i]))
            return -1;
    return 0;
}

/* .extern .func (.param .b32 func_retval0) vprintf (.param .b64 ..., ...):
   a function outside the kernel, which must be one the emulator runs. */
static int parse_extern_function(struct parser *p, char *text)
{
    const char *s = skip_space(text + strlen(".extern .func"));
    if (*s == '(')   /* its result */
        s = strchr(s, ')') ? skip_space(strchr(s, ')') + 1) : "";
    char name[NAME_BYTES];
    word(s, name, sizeof name);
    return find_callee(name) ? 0 : unknown_callee(p, name);
}

/* .param .b64 param0; inside a call's braces: the call's argument or
   result, each thread's own, so kept in the thread's local memory (the
   st.param and ld.param that name it go there); one per name in a kernel. */
static int parse_call_param(struct parser *p, char *text)
{
    struct declaration d;
    if (read_declaration(text, &d))
        return fail(p, SAY("a call's parameter this emulator does not read", "模拟器读不懂的调用参数"));
    uint64_t bytes = d.element * d.elements;
    int known = find_symbol(p->m, d.name, p->kernel);
    if (known >= 0 && p->m->symbols[known].call_param && p->m->symbols[known].bytes >= bytes)
        return 0;
    if (known >= 0)
        return fail(p, SAY("a call's parameter '%s' declared again, larger", "调用参数 '%s' 被再次声明，而且更大"), d.name);
    int symbol = add_symbol(p, d.name, SPACE_LOCAL, bytes, d.align);
    if (symbol < 0)
        return -1;
    p->m->symbols[symbol].call_param = 1;
    return 0;
}

/* Labels name instructions of the kernel just read. */
static int resolve_labels(struct parser *p)
{
    for (int u = 0; u < p->use_count; u++) {
        const struct label_use *use = &p->uses[u];
        struct operand *o = &p->m->code[use->instruction].operands[use->operand];
        o->target = -1;
        for (int l = 0; l < p->label_count; l++)
            if (strcmp(p->labels[l], use->name) == 0)
                o->target = p->label_at[l];
        if (o->target < 0) {
            p->line = p->m->code[use->instruction].ptx_line;
            return fail(p, SAY("unknown name '%s'", "未知名字 '%s'"), use->name);
        }
    }
    p->use_count = 0;
    return 0;
}

/* Whether instruction i ends its basic block, and whether control can fall through to i + 1. */
static int ends_block(const struct instruction *in)
{
    return in->is_branch || in->is_exit;
}

static int falls_through(const struct instruction *in)
{
    return !ends_block(in) || in->guard >= 0;
}

/* Numbers a block's instructions, in sequence, from *next on. */
static void number_block(struct instruction *code, const int *first, int block, int *next)
{
    for (int i = first[block]; i < first[block + 1]; i++)
        code[i].order = (*next)++;
}

/* Whether register r is read by an instruction of k: as any operand but
   the destination of `writer`, or as a guard. */
static int register_read(const struct ptx_module *m, const struct kernel *k, int writer, int r)
{
    for (int i = k->first; i < k->end; i++) {
        const struct instruction *in = &m->code[i];
        if (in->guard == r)
            return 1;
        for (int o = i == writer; o < in->operand_count; o++) {
            const struct operand *op = &in->operands[o];
            if ((op->kind == OPERAND_REGISTER || op->kind == OPERAND_ADDRESS) && op->reg == r)
                return 1;
            for (int c = 0; op->kind == OPERAND_VECTOR && c < op->count; c++)
                if (op->regs[c] == r)
                    return 1;
        }
    }
    return 0;
}

/* Marks each atom of k whose result no instruction reads: ptxas issues
   those as reductions (REDG), which Nsight Compute counts under op_red, not
   op_atom, so the counting takes them as reductions (atomic_op). */
static void mark_unused_results(struct ptx_module *m, const struct kernel *k)
{
    for (int i = k->first; i < k->end; i++) {
        struct instruction *in = &m->code[i];
        if (in->run == op_atom && in->operand_count > 0 && in->operands[0].kind == OPERAND_REGISTER)
            in->result_unused = !register_read(m, k, i, in->operands[0].reg);
    }
}

/* Numbers the kernel's instructions in a reverse postorder of its basic
   blocks (unreachable ones last), instructions in sequence within a block.
   Running the lanes at the lowest number first then reconverges divergent
   paths where they join, whatever the layout: every path into a join comes
   before it in this order (as it need not in the PTX, where clang puts a
   loop's latch, barrier and all, above its header), and lanes that leave a
   loop wait after it until the last one does. */
static int order_kernel(struct parser *p, const struct kernel *k)
{
    struct instruction *code = p->m->code + k->first;
    int count = k->end - k->first, blocks = 0, done = 0, next = 0, depth = 0;
    int *block_of = malloc((size_t)(count + 1) * sizeof *block_of), *first = malloc((size_t)(count + 1) * sizeof *first);
    int *stack = malloc((size_t)(count + 1) * sizeof *stack), *state = calloc((size_t)count + 1, sizeof *state);
    int *postorder = malloc((size_t)(count + 1) * sizeof *postorder);
    if (!block_of || !first || !stack || !state || !postorder) {
        free(block_of), free(first), free(stack), free(state), free(postorder);
        return fail(p, SAY("out of memory", "内存不足"));
    }
    for (int i = 0; i < count; i++)   /* blocks start at branch targets, after branches and exits, and first */
        if (code[i].is_branch)
            state[code[i].operands[0].target - k->first] = 1;
    for (int i = 0; i < count; i++) {
        if (i == 0 || state[i] || ends_block(&code[i - 1]))
            first[blocks++] = i;
        block_of[i] = blocks - 1;
    }
    first[blocks] = count;
    memset(state, 0, (size_t)(count + 1) * sizeof *state);   /* now: 0 unseen, 1 on the walk's stack, 2 done */
    if (blocks > 0)
        stack[depth++] = 0, state[0] = 1;
    while (depth > 0) {   /* a depth-first walk from the first block */
        int b = stack[depth - 1], pushed = 0;
        const struct instruction *last = &code[first[b + 1] - 1];
        int successors[2] = { last->is_branch ? block_of[last->operands[0].target - k->first] : -1,
                              falls_through(last) && b + 1 < blocks ? b + 1 : -1 };
        for (int s = 0; s < 2 && !pushed; s++)
            if (successors[s] >= 0 && state[successors[s]] == 0) {
                state[successors[s]] = 1;
                stack[depth++] = successors[s];
                pushed = 1;
            }
        if (!pushed) {
            state[b] = 2;
            postorder[done++] = b;
            depth--;
        }
    }
    for (int r = done - 1; r >= 0; r--)
        number_block(code, first, postorder[r], &next);
    for (int b = 0; b < blocks; b++)
        if (state[b] != 2)
            number_block(code, first, b, &next);
    free(block_of), free(first), free(stack), free(state), free(postorder);
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

/* Whether a statement so far is a call or a function's declaration, whose
   parentheses and commas are its own (a kernel's .entry list splits there). */
static int keeps_parentheses(const char *text)
{
    const char *t = skip_space(text);
    if (*t == '@')   /* a guard */
        t = skip_space(t + strcspn(t, " \t"));
    return is_call(t) || strncmp(t, "call ", 5) == 0 || strncmp(t, ".extern .func", 13) == 0;
}

/* Directives that go on past their line's end, to their ';' or brace: a
   kernel's .entry with its parameters, and declarations. */
static const char *const multi_line_directives[] = { ".param", ".visible", ".entry", ".reg", ".shared", ".local",
                                                     ".const", ".global", ".extern" };

/* Whether a statement begun is one of multi_line_directives[]. */
static int spans_lines(const char *text)
{
    for (size_t i = 0; i < sizeof multi_line_directives / sizeof multi_line_directives[0]; i++)
        if (strncmp(text, multi_line_directives[i], strlen(multi_line_directives[i])) == 0)
            return 1;
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
                p->at_line += *s == '\n';
            s += *s ? 2 : 0;
            continue;
        }
        if (*s == '\n') {
            p->at_line++;
            s++;
            /* a directive or label without ';' ends at the line's end (.loc, .file, labels) */
            const char *t = skip_space(out->text);
            if (n && (t[0] == '.' || (n && out->text[n - 1] == ':')) && !spans_lines(t))
                break;
            if (n)
                append(out, &n, ' ');
            continue;
        }
        if (n == 0)
            out->line = p->at_line;
        /* { and } alone are scopes; inside an instruction they hold a vector operand */
        int scope = (*s == '{' || *s == '}') && *skip_space(out->text) == 0;
        int splits = !keeps_parentheses(out->text) &&
                     (*s == '(' || *s == ')' || (*s == ',' && (n == 0 || strncmp(skip_space(out->text), ".param", 6) == 0)));
        if (*s == ';' || scope || splits) {
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

/* {: a scope opens (a kernel's body, a call's parameters). */
static int open_scope(struct parser *p, char *text)
{
    p->depth++;
    return 0;
}

/* At a kernel's end: its extern shared memory placed, its labels resolved,
   its instructions ordered and its unused atom results marked. */
static int end_kernel(struct parser *p)
{
    struct ptx_module *m = p->m;
    struct kernel *k = &m->kernels[p->kernel];
    k->end = m->code_count;
    place_dynamic_shared(m, p->kernel);
    int failed = resolve_labels(p) || order_kernel(p, k);
    mark_unused_results(m, k);
    p->kernel = -1;
    p->label_count = 0;
    return failed;
}

/* }: a scope closes; the last one of a kernel ends it. */
static int close_scope(struct parser *p, char *text)
{
    return --p->depth == 0 && p->kernel >= 0 ? end_kernel(p) : 0;
}

/* .loc FILE LINE COLUMN [, function_name F, inlined_at FILE LINE COLUMN]:
   the source line of the instructions after it. File 1 is the kernel's
   source (its definition's line comes first); other files' lines are a
   header's (clang's line table names inlined ones), so the call's line
   stands. A function inlined into the kernel counts at its call: the line
   the kernel's author wrote the access on. */
static int read_loc(struct parser *p, char *text)
{
    int file, line;
    const char *inlined = strstr(text, "inlined_at ");
    if (inlined && sscanf(inlined, "inlined_at %d %d", &file, &line) == 2 && file == 1)
        p->source_line = line;
    else if (sscanf(text, ".loc %d %d", &file, &line) == 2 && file == 1)
        p->source_line = line;
    return 0;
}

/* [.visible] .entry name(: a kernel starts; its parameters and body follow. */
static int read_entry(struct parser *p, char *text)
{
    struct ptx_module *m = p->m;
    if (m->kernel_count == MAX_KERNELS)
        return fail(p, SAY("more than %d kernels", "超过 %d 个核函数"), MAX_KERNELS);
    struct kernel *k = &m->kernels[m->kernel_count];
    memset(k, 0, sizeof *k);
    word(skip_space(strstr(text, ".entry ") + 7), k->name, sizeof k->name);
    k->first = m->code_count;
    k->shared_bytes = m->module_shared_bytes;
    p->kernel = m->kernel_count++;
    return 0;
}

/* A directive that changes nothing a lane computes or moves: the PTX's
   version and target, registers' declarations (a register is known by the
   first instruction that names it), the source's files, the compiler's
   hints, functions the emulator does not run. */
static int skip_directive(struct parser *p, char *text)
{
    return 0;
}

/* How a directive is found in a statement: the whole statement; its start;
   its start, then a space (.loc, not .local); anywhere (.entry, after its linkage). */
enum match { MATCH_WHOLE, MATCH_START, MATCH_WORD, MATCH_INSIDE };

/* Where a directive is read: anywhere; outside every kernel; in a kernel
   (its parameter list or its body); in a kernel's parameter list. */
enum place { PLACE_ANY, PLACE_OUTSIDE_KERNEL, PLACE_KERNEL, PLACE_KERNEL_PARAMETERS };

/* One directive the parser reads: how it is spelled, where, and what reads it. */
struct directive_decl {
    const char *name;
    enum match match;
    enum place place;
    int (*read)(struct parser *p, char *text);
};

/* .section NAME: debug information (-lineinfo's inlined functions' names), its body skipped. */
static int begin_section(struct parser *p, char *text)
{
    p->section_begun = 1;
    return 0;
}

/* Whether a statement belongs to a skipped .section's body (its braces counted). */
static int in_skipped_section(struct parser *p, const char *t)
{
    if (p->section_begun && strcmp(t, "{") == 0) {
        p->section_begun = 0, p->in_section = 1;
        return 1;
    }
    if (!p->in_section)
        return 0;
    p->in_section += strcmp(t, "{") == 0;
    p->in_section -= strcmp(t, "}") == 0;
    return 1;
}

#define DIRECTIVE(name, match, place, read) { name, MATCH_##match, PLACE_##place, read }
#define SKIPPED(name) { name, MATCH_START, PLACE_ANY, skip_directive }
/* In the order they are tried: the first that fits a statement reads it. */
static const struct directive_decl directives[] = {
    DIRECTIVE("{", WHOLE, ANY, open_scope),
    DIRECTIVE("}", WHOLE, ANY, close_scope),
    DIRECTIVE(".loc", WORD, ANY, read_loc),
    DIRECTIVE(".entry ", INSIDE, ANY, read_entry),
    DIRECTIVE(".param", START, KERNEL_PARAMETERS, parse_param),
    DIRECTIVE(".param", START, KERNEL, parse_call_param),   /* in the body: a call's */
    DIRECTIVE(".extern .func", START, ANY, parse_extern_function),
    DIRECTIVE(".global", START, OUTSIDE_KERNEL, parse_global),
    DIRECTIVE(".const", START, OUTSIDE_KERNEL, parse_constant),
    DIRECTIVE(".shared", START, ANY, parse_shared),
    DIRECTIVE(".extern .shared", START, ANY, parse_shared),
    DIRECTIVE(".local", START, KERNEL, parse_local),
    SKIPPED(".version"), SKIPPED(".target"), SKIPPED(".address_size"), SKIPPED(".reg"), SKIPPED(".file"),
    SKIPPED(".pragma"), SKIPPED(".maxntid"), SKIPPED(".reqntid"), SKIPPED(".minnctapersm"), SKIPPED(".maxnreg"),
    DIRECTIVE(".section", START, OUTSIDE_KERNEL, begin_section), SKIPPED(".visible .func"), SKIPPED(".weak"),
};

/* Whether a statement is spelled as directive d. */
static int spells(const struct directive_decl *d, const char *text)
{
    size_t n = strlen(d->name);
    switch (d->match) {
    case MATCH_WHOLE: return strcmp(text, d->name) == 0;
    case MATCH_START: return strncmp(text, d->name, n) == 0;
    case MATCH_WORD: return strncmp(text, d->name, n) == 0 && isspace((unsigned char)text[n]);
    case MATCH_INSIDE: return strstr(text, d->name) != NULL;
    }
    return 0;
}

/* Whether reading stands at that place. */
static int stands_at(const struct parser *p, enum place place)
{
    switch (place) {
    case PLACE_ANY: return 1;
    case PLACE_OUTSIDE_KERNEL: return p->kernel < 0;
    case PLACE_KERNEL: return p->kernel >= 0;
    case PLACE_KERNEL_PARAMETERS: return p->kernel >= 0 && p->depth == 0;
    }
    return 0;
}

/* The directive a statement is, where it stands, or NULL. */
static const struct directive_decl *find_directive(const struct parser *p, const char *text)
{
    for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
        if (spells(&directives[i], text) && stands_at(p, directives[i].place))
            return &directives[i];
    return NULL;
}

/* NAME: a label, naming the kernel's next instruction. */
static int read_label(struct parser *p, char *text, size_t n)
{
    if (p->label_count == MAX_LABELS)
        return fail(p, SAY("more than %d labels in a kernel", "一个核函数中的标签超过 %d 个"), MAX_LABELS);
    text[n - 1] = 0;
    snprintf(p->labels[p->label_count], NAME_BYTES, "%s", text);
    p->label_at[p->label_count++] = p->m->code_count;
    return 0;
}

/* One statement, n characters: a directive (directives[]), a label or an instruction. */
static int read_statement(struct parser *p, char *t, size_t n)
{
    if ((strncmp(t, ".visible .", 10) == 0 || strncmp(t, ".weak .", 7) == 0) &&
        (strstr(t, " .const ") || strstr(t, " .shared ")))
        t = strchr(t, ' ') + 1;   /* clang's variables: linkage, nothing to run */
    if (in_skipped_section(p, t))
        return 0;
    const struct directive_decl *d = find_directive(p, t);
    if (d)
        return d->read(p, t);
    if (t[0] == '.')
        return fail(p, SAY("'%.40s' is not emulated yet", "'%.40s' 还没有模拟"), t);
    if (t[n - 1] == ':' && p->kernel >= 0)
        return read_label(p, t, n);
    if (p->kernel >= 0 && p->depth > 0)
        return parse_instruction(p, t);
    return fail(p, SAY("'%.40s' outside a kernel", "核函数之外的 '%.40s'"), t);
}

/* Whether a line of PTX starts a device function's definition or
   declaration: ".func", or ".visible .func" / ".weak .func" (not
   ".extern .func", which parse_extern_function reads). */
static int starts_function(const char *line)
{
    line = skip_space(line);
    for (const char *linkage = ".visible "; ; linkage = ".weak ") {
        if (strncmp(line, linkage, strlen(linkage)) == 0)
            return strncmp(skip_space(line + strlen(linkage)), ".func", 5) == 0;
        if (linkage[1] == 'w')
            break;
    }
    return strncmp(line, ".func", 5) == 0 && isspace((unsigned char)line[5]);
}

/* The PTX with each device function blanked out, its lines kept (so that
   line numbers stay): NVRTC leaves a libdevice helper's body (__nv_popc)
   beside the kernels that inlined it. A call to one is refused where it
   stands; the functions themselves are not run. NULL: out of memory. */
static char *without_functions(const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        return NULL;
    for (char *line = copy; *line;) {
        char *end = line + strcspn(line, "\n");
        if (starts_function(line)) {
            char *s = line;
            int depth = 0, opened = 0;
            for (; *s && !(opened && depth == 0) && !(!opened && *s == ';'); s++) {
                depth += *s == '{', depth -= *s == '}';
                opened |= *s == '{';
            }
            for (char *c = line; c < s; c++)
                if (*c != '\n')
                    *c = ' ';
            if (*s == ';')
                *s++ = ' ';
            end = s + strcspn(s, "\n");
        }
        line = *end ? end + 1 : end;
    }
    return copy;
}

struct ptx_module *ptx_parse(const char *source, char *why, size_t why_size)
{
    char *text = without_functions(source);
    if (!text) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    struct ptx_module *m = calloc(1, sizeof *m);
    struct parser p = { .m = m, .text = text, .line = 1, .at_line = 1, .kernel = -1, .why = why, .why_size = why_size };
    int failed = !m;
    struct statement st = { NULL, 0, 0 };
    if (!m)
        snprintf(why, why_size, "out of memory");
    for (const char *s = text; !failed && *s;) {
        st.line = 0;
        s = next_statement(&p, s, &st);
        if (!st.text) {
            failed = fail(&p, SAY("out of memory", "内存不足"));
            break;
        }
        char *t = (char *)skip_space(st.text);
        size_t n = strlen(t);
        while (n && isspace((unsigned char)t[n - 1]))
            t[--n] = 0;
        if (n == 0 || strcmp(t, "(") == 0 || strcmp(t, ")") == 0 || strcmp(t, ",") == 0)
            continue;
        p.line = st.line ? st.line : p.line;
        failed = read_statement(&p, t, n);
    }
    free(st.text);
    free(p.uses);
    free(text);
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
    free(m->strings);
    free(m);
}

int ptx_kernel_count(const struct ptx_module *m)
{
    return m->kernel_count;
}

const char *ptx_kernel_name(const struct ptx_module *m, int index)
{
    return index >= 0 && index < m->kernel_count ? m->kernels[index].name : NULL;
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

/* The module's __constant__ variable of that name: its symbol, or NULL. */
static const struct symbol *find_constant(const struct ptx_module *m, const char *name)
{
    for (int i = 0; i < m->symbol_count; i++)
        if (m->symbols[i].space == SPACE_CONST && m->symbols[i].kernel < 0 && strcmp(m->symbols[i].name, name) == 0)
            return &m->symbols[i];
    return NULL;
}

long long ptx_constant_size(const struct ptx_module *m, const char *name)
{
    const struct symbol *s = find_constant(m, name);
    return s ? (long long)s->bytes : -1;
}

int ptx_write_constant(struct ptx_module *m, const char *name, const void *data, size_t bytes)
{
    const struct symbol *s = find_constant(m, name);
    if (!s || bytes > s->bytes)
        return -1;
    memcpy(m->constant + s->offset, data, bytes);
    return 0;
}
