/*
** sass_parse.c — nvdisasm's listing (`-c -g`) read into instructions. A
** listing is sections (`.section .text._Z4copyPKfPfx,...`), and in a
** kernel's, lines of five kinds: its section label (`.text._Z4copyPKfPfx:`),
** a source position (`//## File "k.cu", line 8`, which holds until the
** next), a label (`.L_x_3:`, a called function's `$__internal_0_...:`,
** naming the next instruction), an instruction (its offset as a comment,
** then `@!P1 LDS.128 R12, [R16] ;`) and everything else (directives),
** skipped. In the section of constant bank 3 (`.nv.constant3`), the data
** lines (`.word 0x3f800000` after the offset comment) give the bank's bytes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emulator/sass.h"
#include "support/text.h"

/* The opcodes that touch memory: where, and how. */
static const struct {
    const char *opcode;
    enum sass_space space;
    enum sass_access access;
} memory_opcodes[] = {
    { "LDG", SASS_GLOBAL, SASS_LOAD },        { "STG", SASS_GLOBAL, SASS_STORE },
    { "ATOMG", SASS_GLOBAL, SASS_ATOMIC },    { "REDG", SASS_GLOBAL, SASS_REDUCTION },
    { "LDGSTS", SASS_GLOBAL, SASS_ASYNC_COPY },
    { "LDS", SASS_SHARED, SASS_LOAD },        { "STS", SASS_SHARED, SASS_STORE },
    { "LDSM", SASS_SHARED, SASS_LOAD },       { "STSM", SASS_SHARED, SASS_STORE },
    { "ATOMS", SASS_SHARED, SASS_ATOMIC },
    { "LDL", SASS_LOCAL, SASS_LOAD },         { "STL", SASS_LOCAL, SASS_STORE },
    { "LDC", SASS_CONSTANT, SASS_LOAD },      { "ULDC", SASS_CONSTANT, SASS_LOAD },
    { "LD", SASS_GENERIC, SASS_LOAD },        { "ST", SASS_GENERIC, SASS_STORE },
    { "ATOM", SASS_GENERIC, SASS_ATOMIC },    { "RED", SASS_GENERIC, SASS_REDUCTION },
};

/* Modifiers that give the bytes a lane moves; any other leaves 4. */
static const struct {
    const char *modifier;
    int bytes;
} width_modifiers[] = {
    { "U8", 1 },  { "S8", 1 },  { "U16", 2 }, { "S16", 2 }, { "64", 8 },
    { "F64", 8 }, { "U64", 8 }, { "S64", 8 }, { "128", 16 },
};

static const char *const space_names[] = { "", "global", "shared", "local", "constant", "generic" };
static const char *const access_names[] = { "", "load", "store", "atomic", "reduction", "async copy" };

const char *sass_space_name(enum sass_space space) { return space_names[space]; }
const char *sass_access_name(enum sass_access access) { return access_names[access]; }

/* The bytes a lane moves, from the modifiers (".E.64", ".U8"); LDSM's are its matrices' (".16.M88.4": 4 × 4 bytes). */
static int width_of(const char *opcode, const char *modifiers)
{
    if (strcmp(opcode, "LDSM") == 0 || strcmp(opcode, "STSM") == 0) {
        const char *count = strrchr(modifiers, '.');
        return count ? 4 * atoi(count + 1) : 4;
    }
    char words[sizeof ((struct sass_instruction *)0)->modifiers];
    snprintf(words, sizeof words, "%s", modifiers);
    int bytes = 4;
    for (char *saved, *word = strtok_r(words, ".", &saved); word; word = strtok_r(NULL, ".", &saved))
        for (size_t i = 0; i < sizeof width_modifiers / sizeof width_modifiers[0]; i++)
            if (strcmp(word, width_modifiers[i].modifier) == 0)
                bytes = width_modifiers[i].bytes;
    return bytes;
}

static void classify(struct sass_instruction *in)
{
    for (size_t i = 0; i < sizeof memory_opcodes / sizeof memory_opcodes[0]; i++)
        if (strcmp(in->opcode, memory_opcodes[i].opcode) == 0) {
            in->space = memory_opcodes[i].space, in->access = memory_opcodes[i].access;
            in->bytes = width_of(in->opcode, in->modifiers);
        }
}

static const char *skip_spaces(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Copies the word at s (up to a space, or ';') into word; returns what follows it. */
static const char *take_word(const char *s, char *word, size_t size)
{
    size_t n = strcspn(s, " \t;");
    snprintf(word, size, "%.*s", (int)n, s);
    return skip_spaces(s + n);
}

/* An instruction line, after its offset comment: "@P0 OPCODE.MODS operands ;". */
static int read_instruction(const char *s, unsigned offset, struct sass_instruction *in)
{
    char word[sizeof in->opcode + sizeof in->modifiers];
    memset(in, 0, sizeof *in);
    in->offset = offset;
    s = skip_spaces(s);
    if (*s == '{')   /* a dual-issue pair's opening brace (older architectures) */
        s = skip_spaces(s + 1);
    if (*s == '@')
        s = take_word(s, in->predicate, sizeof in->predicate);
    s = take_word(s, word, sizeof word);
    if (!word[0])
        return -1;
    size_t base = strcspn(word, ".");
    snprintf(in->opcode, sizeof in->opcode, "%.*s", (int)base, word);
    snprintf(in->modifiers, sizeof in->modifiers, "%s", word + base);
    size_t n = strcspn(s, ";");
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    snprintf(in->operands, sizeof in->operands, "%.*s", (int)n, s);
    classify(in);
    return 0;
}

static int file_index(struct sass_listing *l, const char *name, size_t length)
{
    for (int i = 0; i < l->file_count; i++)
        if (strlen(l->files[i]) == length && strncmp(l->files[i], name, length) == 0)
            return i;
    if (l->file_count == SASS_MAX_FILES)
        return -1;
    snprintf(l->files[l->file_count], SASS_NAME_BYTES, "%.*s", (int)length, name);
    return l->file_count++;
}

/* "//## File "k.cu", line 8" (perhaps ", column 3" or "inlined at" after): the position. */
static void read_position(struct sass_listing *l, const char *s, int *file, int *line)
{
    const char *name = strchr(s, '"'), *end = name ? strchr(name + 1, '"') : NULL;
    const char *at = end ? strstr(end, "line ") : NULL;
    if (!at || strstr(s, "inlined at"))
        return;
    *file = file_index(l, name + 1, (size_t)(end - name - 1));
    *line = *file < 0 ? 0 : atoi(at + 5);
}

static int append(struct sass_listing *l, const struct sass_instruction *in)
{
    if (l->count == l->capacity) {
        int capacity = l->capacity ? 2 * l->capacity : 256;
        struct sass_instruction *more = realloc(l->instructions, (size_t)capacity * sizeof *more);
        if (!more)
            return -1;
        l->instructions = more, l->capacity = capacity;
    }
    l->instructions[l->count++] = *in;
    return 0;
}

/* A label line of a kernel's section: one word ending in ':' (".L_x_3:", "$__internal_0_$__cuda_sm20_rem_s64:"). */
static int is_label(const char *s, size_t n)
{
    return n > 1 && s[n - 1] == ':' && strcspn(s, " \t,") == n && strncmp(s, ".text.", 6) != 0;
}

/* A label names the next instruction (-2 until it comes). */
static int add_label(struct sass_listing *l, const char *s, size_t length)
{
    if (length - 1 >= sizeof l->labels[0].name)
        return 0;   /* a name no branch of nvdisasm's spells */
    if (l->label_count == l->label_capacity) {
        int capacity = l->label_capacity ? 2 * l->label_capacity : 64;
        struct sass_label *more = realloc(l->labels, (size_t)capacity * sizeof *more);
        if (!more)
            return -1;
        l->labels = more, l->label_capacity = capacity;
    }
    struct sass_label *label = &l->labels[l->label_count++];
    snprintf(label->name, sizeof label->name, "%.*s", (int)(length - 1), s);
    label->instruction = -2;
    return 0;
}

/* The labels still waiting for an instruction name it (at, its index), or none (-1, at a kernel's end). */
static void place_labels(struct sass_listing *l, int at)
{
    for (int i = l->label_count - 1; i >= 0 && l->labels[i].instruction == -2; i--)
        l->labels[i].instruction = at;
}

/* The labels left after the last kernel's last instruction name none; but
   the kernel's own name, just before its ".text.NAME:", names its first. */
static void close_kernel(struct sass_listing *l, const char *name, size_t length)
{
    struct sass_label *last = l->label_count ? &l->labels[l->label_count - 1] : NULL;
    int own = last && last->instruction == -2 && strlen(last->name) == length && strncmp(last->name, name, length) == 0;
    l->label_count -= own;
    place_labels(l, -1);
    l->label_count += own;
}

/* ".text.NAME:" begins kernel NAME. */
static void begin_kernel(struct sass_listing *l, const char *s, size_t length)
{
    if (l->kernel_count == SASS_MAX_KERNELS)
        return;
    struct sass_kernel *k = &l->kernels[l->kernel_count++];
    snprintf(k->name, sizeof k->name, "%.*s", (int)(length - strlen(".text.") - 1), s + strlen(".text."));
    k->first = l->count, k->count = 0;
}

/* Bank 3's bytes at least to end (new ones zero). 0, or -1 when memory is short. */
static int reach_constants(struct sass_listing *l, size_t end)
{
    if (end <= l->constant_bytes)
        return 0;
    unsigned char *more = realloc(l->constants, end);
    if (!more)
        return -1;
    memset(more + l->constant_bytes, 0, end - l->constant_bytes);
    l->constants = more, l->constant_bytes = end;
    return 0;
}

/* The values of a data directive (".word 0x3f800000, 0x0"), each `bytes` wide, from offset on; where they end. */
static long read_values(struct sass_listing *l, const char *s, size_t bytes, size_t offset)
{
    for (char *end;; s = end + 1, offset += bytes) {
        unsigned long long v = strtoull(s, &end, 0);
        if (end == s)
            return (long)offset;
        if (reach_constants(l, offset + bytes) != 0)
            return -1;
        memcpy(l->constants + offset, &v, bytes);   /* little-endian, as the device's */
        if (*end != ',')
            return (long)(offset + bytes);
    }
}

static int add_symbol(struct sass_listing *l, const char *s, size_t length, size_t offset)
{
    struct sass_symbol *more = realloc(l->symbols, (size_t)(l->symbol_count + 1) * sizeof *more);
    if (!more)
        return -1;
    l->symbols = more;
    struct sass_symbol *symbol = &l->symbols[l->symbol_count++];
    snprintf(symbol->name, sizeof symbol->name, "%.*s", (int)(length - 1), s);
    symbol->offset = offset;
    return 0;
}

/* A line of bank 3's section: a variable's label ("table:"), a data line
   (its offset as a comment, then ".word 0x3f800000, 0x0"), ".zero 1200" or
   ".align 8"; *at is where the next byte goes. 0, or -1 when memory is short. */
static int read_constants(struct sass_listing *l, const char *s, size_t n, size_t *at)
{
    static const struct { const char *directive; size_t bytes; } widths[] = {
        { ".byte", 1 }, { ".short", 2 }, { ".word", 4 }, { ".dword", 8 },
    };
    unsigned offset;
    int used = 0;
    if (is_label(s, n) && *s != '.')
        return add_symbol(l, s, n, *at);
    if (strncmp(s, ".zero", 5) == 0 || strncmp(s, ".align", 6) == 0) {
        size_t amount = strtoull(skip_spaces(s + (s[1] == 'z' ? 5 : 6)), NULL, 0);
        *at = s[1] == 'z' ? *at + amount : amount ? (*at + amount - 1) / amount * amount : *at;
        return reach_constants(l, *at);
    }
    if (sscanf(s, "/*%x*/%n", &offset, &used) != 1 || used == 0)
        return 0;
    s = skip_spaces(s + used);
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        size_t length = strlen(widths[i].directive);
        if (strncmp(s, widths[i].directive, length) == 0 && (s[length] == ' ' || s[length] == '\t')) {
            long end = read_values(l, s + length, widths[i].bytes, offset);
            if (end < 0)
                return -1;
            *at = (size_t)end;
        }
    }
    return 0;
}

const struct sass_symbol *sass_symbol_named(const struct sass_listing *l, const char *name)
{
    for (int i = 0; i < l->symbol_count; i++)
        if (strcmp(l->symbols[i].name, name) == 0)
            return &l->symbols[i];
    return NULL;
}

enum section { OTHER_SECTION, KERNEL_SECTION, CONSTANT_BANK_3 };

static enum section section_of(const char *s)
{
    s = skip_spaces(s + strlen(".section"));
    return strncmp(s, ".text.", 6) == 0 ? KERNEL_SECTION : strncmp(s, ".nv.constant3,", 14) == 0 ? CONSTANT_BANK_3 : OTHER_SECTION;
}

int sass_parse(const char *text, struct sass_listing *l, char *why, size_t why_size)
{
    memset(l, 0, sizeof *l);
    int file = 0, line = 0;
    enum section section = KERNEL_SECTION;   /* a listing of -c has no section lines */
    size_t constant_at = 0;                  /* where bank 3's next byte goes */
    for (const char *at = text; at && *at;) {
        const char *end = strchr(at, '\n');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        char row[1024];
        snprintf(row, sizeof row, "%.*s", (int)(length < sizeof row ? length : sizeof row - 1), at);
        const char *s = skip_spaces(row);
        unsigned offset;
        int used = 0;
        size_t n = strlen(s);
        int failed = 0;
        if (strncmp(s, ".section", 8) == 0 && (s[8] == ' ' || s[8] == '\t')) {
            place_labels(l, -1);   /* the labels after the last section's last instruction */
            section = section_of(s);
        } else if (section == CONSTANT_BANK_3)
            failed = read_constants(l, s, n, &constant_at);
        else if (section != KERNEL_SECTION)
            ;
        else if (strncmp(s, ".text.", 6) == 0 && n > 7 && s[n - 1] == ':') {
            close_kernel(l, s + 6, n - 7);
            begin_kernel(l, s, n);
            file = line = 0;
        } else if (is_label(s, n))
            failed = add_label(l, s, n);
        else if (strncmp(s, "//## File ", 10) == 0)
            read_position(l, s, &file, &line);
        else if (l->kernel_count && sscanf(s, "/*%x*/%n", &offset, &used) == 1 && used > 0) {
            struct sass_instruction in;
            if (read_instruction(s + used, offset, &in) == 0) {
                in.file = file, in.line = line;
                place_labels(l, l->count);
                failed = append(l, &in);
                l->kernels[l->kernel_count - 1].count += !failed;
            }
        }
        if (failed) {
            snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
            sass_free(l);
            return -1;
        }
        at = end ? end + 1 : NULL;
    }
    place_labels(l, -1);
    if (l->count == 0) {
        snprintf(why, why_size, "%s", SAY("the disassembler's listing holds no instruction", "反汇编器的列表中没有任何指令"));
        return -1;
    }
    return 0;
}

void sass_free(struct sass_listing *l)
{
    free(l->instructions);
    free(l->labels);
    free(l->constants);
    free(l->symbols);
    memset(l, 0, sizeof *l);
}

const struct sass_kernel *sass_kernel_named(const struct sass_listing *l, const char *name)
{
    for (int i = 0; i < l->kernel_count; i++)
        if (strcmp(l->kernels[i].name, name) == 0)
            return &l->kernels[i];
    return NULL;
}

const struct sass_label *sass_label_named(const struct sass_listing *l, const char *name, size_t length)
{
    for (int i = 0; i < l->label_count; i++)
        if (strlen(l->labels[i].name) == length && strncmp(l->labels[i].name, name, length) == 0)
            return &l->labels[i];
    return NULL;
}
