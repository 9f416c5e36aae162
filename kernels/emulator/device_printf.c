/*
** device_printf.c — one call of printf in a kernel, formatted as CUDA does
** (device_printf.h): each conversion's argument is read at the next offset
** aligned to its size, and formatted by this C library, as CUDA's host side
** formats it with its own.
*/
#include <stdio.h>
#include <string.h>
#include "emulator/device_printf.h"
#include "support/text.h"

/* One conversion, %[flags][width][.precision][length]type, as read from the format. */
struct conversion {
    char flags[8];
    int width, precision;          /* -1: not given */
    int width_star, precision_star;
    char length[3];                /* "", "h", "hh", "l", "ll", "j", "z", "t", "L" */
    char type;
    size_t end;                    /* the format's index just after it */
};

/* What a conversion's argument is: its bytes in the buffer, and how it is passed to snprintf. */
enum argument_kind { ARGUMENT_NONE, ARGUMENT_SIGNED, ARGUMENT_UNSIGNED, ARGUMENT_CHARACTER, ARGUMENT_DOUBLE,
                     ARGUMENT_STRING, ARGUMENT_POINTER };

static const struct {
    const char *types;
    enum argument_kind kind;
} argument_kinds[] = {
    { "di", ARGUMENT_SIGNED }, { "uoxX", ARGUMENT_UNSIGNED }, { "c", ARGUMENT_CHARACTER },
    { "fFeEgGaA", ARGUMENT_DOUBLE }, { "s", ARGUMENT_STRING }, { "p", ARGUMENT_POINTER },
};

static enum argument_kind kind_of(char type)
{
    for (size_t i = 0; i < sizeof argument_kinds / sizeof argument_kinds[0]; i++)
        if (type && strchr(argument_kinds[i].types, type))
            return argument_kinds[i].kind;
    return ARGUMENT_NONE;
}

/* Integers long enough for the buffer's 8-byte slot: the l, ll, j, z and t lengths. */
static int wide_length(const char *length)
{
    return strchr("ljzt", length[0]) != NULL && length[0];
}

static int argument_bytes(enum argument_kind kind, const char *length)
{
    return kind == ARGUMENT_SIGNED || kind == ARGUMENT_UNSIGNED ? (wide_length(length) ? 8 : 4)
         : kind == ARGUMENT_CHARACTER ? 4 : 8;
}

static int read_number(const char *format, size_t *at)
{
    int n = 0;
    while (format[*at] >= '0' && format[*at] <= '9') {
        n = n < 100000 ? n * 10 + (format[*at] - '0') : n;
        (*at)++;
    }
    return n;
}

/* Reads the conversion that starts after the '%' at `at`. */
static void read_conversion(const char *format, size_t at, struct conversion *c)
{
    size_t n = 0;
    memset(c, 0, sizeof *c);
    c->width = c->precision = -1;
    while (format[at] && strchr("-+ #0", format[at]) && n + 1 < sizeof c->flags)
        c->flags[n++] = format[at++];
    if (format[at] == '*')
        c->width_star = 1, at++;
    else if (format[at] >= '0' && format[at] <= '9')
        c->width = read_number(format, &at);
    if (format[at] == '.') {
        at++;
        if (format[at] == '*')
            c->precision_star = 1, at++;
        else
            c->precision = read_number(format, &at);
    }
    for (n = 0; format[at] && strchr("hljztL", format[at]) && n + 1 < sizeof c->length; )
        c->length[n++] = format[at++];
    c->type = format[at];
    c->end = format[at] ? at + 1 : at;
}

/* The state of one call's formatting. */
struct formatting {
    const struct printf_reader *reader;
    uint64_t offset;       /* where the next argument is looked for */
    int arguments;         /* read so far */
    char *out;
    size_t used, size;
    char *why;
    size_t why_size;
};

static void emit(struct formatting *f, const char *text, size_t length)
{
    size_t room = f->size - 1 - f->used;
    length = length < room ? length : room;
    memcpy(f->out + f->used, text, length);
    f->used += length;
    f->out[f->used] = 0;
}

static int refuse(struct formatting *f, const char *text)
{
    snprintf(f->why, f->why_size, "%s", text);
    return -1;
}

/* The next argument of `bytes` bytes, at the next offset aligned to its size. */
static int next_argument(struct formatting *f, int bytes, uint64_t *bits)
{
    uint64_t at = (f->offset + (uint64_t)bytes - 1) / (uint64_t)bytes * (uint64_t)bytes;
    if (f->reader->argument(f->reader->context, at, bytes, bits))
        return refuse(f, SAY("it reads an argument outside the thread's memory (fewer arguments than conversions?)",
                             "它读取的参数在线程的内存之外（参数比转换说明少？）"));
    f->offset = at + (uint64_t)bytes;
    f->arguments++;
    return 0;
}

/* Why a conversion cannot be emulated, or NULL when it can. */
static const char *unsupported(const struct conversion *c)
{
    if (c->type == 'n')
        return SAY("%n writes to memory, which CUDA's printf does not do", "%n 会写内存，CUDA 的 printf 不支持");
    if (kind_of(c->type) == ARGUMENT_NONE)
        return SAY("it has a conversion CUDA's printf does not know", "其中有 CUDA 的 printf 不认识的转换说明");
    if (strcmp(c->length, "L") == 0 || ((c->type == 's' || c->type == 'c') && c->length[0]))
        return SAY("wide characters and long double are not supported", "不支持宽字符和 long double");
    return NULL;
}

/* A '*' width or precision: its int argument, or -1 when the buffer has none (why set). */
static int star_argument(struct formatting *f, int *value)
{
    uint64_t bits;
    if (next_argument(f, 4, &bits))
        return -1;
    *value = (int)(int32_t)(uint32_t)bits;
    return 0;
}

/* The C format for one conversion, with its width and precision as numbers and a length snprintf reads as asked. */
static void c_format(const struct conversion *c, int width, int precision, const char *length, char *spec, size_t size)
{
    int used = snprintf(spec, size, "%%%s", c->flags);
    if (width >= 0)
        used += snprintf(spec + used, size - (size_t)used, "%d", width);
    if (precision >= 0)
        used += snprintf(spec + used, size - (size_t)used, ".%d", precision);
    snprintf(spec + used, size - (size_t)used, "%s%c", length, c->type);
}

/* An integer's bits as the conversion's length takes them: hh and h cut the promoted int. */
static long long signed_value(uint64_t bits, const struct conversion *c)
{
    if (wide_length(c->length))
        return (long long)bits;
    if (strcmp(c->length, "hh") == 0)
        return (signed char)bits;
    return strcmp(c->length, "h") == 0 ? (short)bits : (int)(int32_t)(uint32_t)bits;
}

static unsigned long long unsigned_value(uint64_t bits, const struct conversion *c)
{
    if (wide_length(c->length))
        return bits;
    if (strcmp(c->length, "hh") == 0)
        return (unsigned char)bits;
    return strcmp(c->length, "h") == 0 ? (unsigned short)bits : (uint32_t)bits;
}

/* Formats one conversion's argument; width and precision are resolved (-1: none). */
static int format_value(struct formatting *f, const struct conversion *c, int width, int precision)
{
    enum argument_kind kind = kind_of(c->type);
    char spec[48], text[4096];
    uint64_t bits;
    int most = (int)sizeof text - 1;   /* the text is cut there anyway: a huge width costs no time */
    width = width > most ? most : width;
    precision = precision > most ? most : precision;
    if (next_argument(f, argument_bytes(kind, c->length), &bits))
        return -1;
    c_format(c, width, precision, kind == ARGUMENT_SIGNED || kind == ARGUMENT_UNSIGNED ? "ll" : "", spec, sizeof spec);
    const char *string = kind == ARGUMENT_STRING ? f->reader->string(f->reader->context, bits) : NULL;
    if (kind == ARGUMENT_STRING && !string)
        return refuse(f, SAY("its %s argument is not one of the kernel's constant strings (a string literal)",
                             "它的 %s 参数不是核函数的常量字符串（字符串字面量）"));
    switch (kind) {
    case ARGUMENT_SIGNED: snprintf(text, sizeof text, spec, signed_value(bits, c)); break;
    case ARGUMENT_UNSIGNED: snprintf(text, sizeof text, spec, unsigned_value(bits, c)); break;
    case ARGUMENT_CHARACTER: snprintf(text, sizeof text, spec, (int)(unsigned char)bits); break;
    case ARGUMENT_DOUBLE: {
        double d;
        memcpy(&d, &bits, sizeof d);
        snprintf(text, sizeof text, spec, d);
        break;
    }
    case ARGUMENT_STRING: snprintf(text, sizeof text, spec, string); break;
    default: snprintf(text, sizeof text, spec, (void *)(uintptr_t)bits); break;
    }
    emit(f, text, strlen(text));
    return 0;
}

/* One conversion, from its '%' at `at`: its text appended; its end in *end. 0, or -1 with why. */
static int convert(struct formatting *f, const char *format, size_t at, size_t *end)
{
    struct conversion c;
    read_conversion(format, at + 1, &c);
    *end = c.end;
    if (c.type == '%') {
        emit(f, "%", 1);
        return 0;
    }
    if (f->arguments >= DEVICE_PRINTF_MOST_ARGUMENTS) {   /* past CUDA's 32: shown as written */
        emit(f, format + at, c.end - at);
        return 0;
    }
    const char *why = unsupported(&c);
    if (why)
        return refuse(f, why);
    int width = c.width, precision = c.precision;
    if ((c.width_star && star_argument(f, &width)) || (c.precision_star && star_argument(f, &precision)))
        return -1;
    size_t flags = strlen(c.flags);
    if (width < 0 && c.width_star) {   /* C: a negative * width is the '-' flag and its magnitude */
        if (flags + 1 < sizeof c.flags)
            c.flags[flags] = '-';
        width = -width;
    }
    return format_value(f, &c, width, precision);   /* a negative precision: none, as C has it */
}

int device_printf(const char *format, const struct printf_reader *reader, char *out, size_t out_size, char *why,
                  size_t why_size)
{
    struct formatting f = { .reader = reader, .out = out, .size = out_size, .why = why, .why_size = why_size };
    out[0] = 0;
    for (size_t at = 0; format[at];) {
        size_t plain = strcspn(format + at, "%");
        emit(&f, format + at, plain);
        at += plain;
        if (format[at] == '%' && convert(&f, format, at, &at))
            return -1;
    }
    return f.arguments;
}

/* A character as C source writes it inside a string: its escape, or NULL for itself. */
static const char *escape_of(char c)
{
    static const struct {
        char c;
        const char *escape;
    } escapes[] = { { '\n', "\\n" }, { '\t', "\\t" }, { '\r', "\\r" }, { '"', "\\\"" }, { '\\', "\\\\" } };
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++)
        if (escapes[i].c == c)
            return escapes[i].escape;
    return NULL;
}

const char *device_printf_quoted(const char *format, char *out, size_t size)
{
    size_t used = 0;
    const char *c = format;
    for (; *c && used + 8 < size; c++) {
        const char *escape = escape_of(*c);
        if (escape)
            used += (size_t)snprintf(out + used, size - used, "%s", escape);
        else if ((unsigned char)*c < ' ')
            used += (size_t)snprintf(out + used, size - used, "\\x%02x", (unsigned char)*c);
        else
            out[used++] = *c;
    }
    if (*c && used + 4 <= size)
        memcpy(out + used, "...", 3), used += 3;
    out[used] = 0;
    return out;
}
