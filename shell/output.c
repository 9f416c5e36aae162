/*
** output.c — stdout and stderr writers.
*/
#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "output.h"
#include "sandbox.h"

/* Text kept as it is written. */
struct kept {
    int on;
    char *text;
    size_t length, capacity;
};

static struct {
    struct kept capture;      /* out_capture_start: kept instead of shown */
    struct kept tee;          /* out_tee_start: kept as well as shown */
    int write_error;          /* errno of the first write to stdout that failed, else 0 */
    int finished;             /* out_finish closed stdout */
} output;

/* Adds text to a buffer; what does not fit in memory is dropped. */
static void keep(struct kept *k, const char *text, size_t length)
{
    if (k->length + length + 1 > k->capacity) {
        size_t capacity = (k->length + length + 1) * 2;
        char *bigger = realloc(k->text, capacity);
        if (!bigger)
            return;
        k->text = bigger;
        k->capacity = capacity;
    }
    memcpy(k->text + k->length, text, length);
    k->length += length;
    k->text[k->length] = 0;
}

static void output_raw(const char *text, size_t length);

/* What ASCII output writes for the symbols warplab's English text uses
   (Chinese text stays as it is: it needs a terminal that shows it). */
static const struct {
    const char *symbol, *ascii;
} ascii_for[] = {
    { "·", "-" }, { "—", "-" }, { "–", "-" }, { "−", "-" }, { "×", "x" }, { "÷", "/" }, { "…", "..." }, { "≈", "~" },
    { "≤", "<=" }, { "↑", "^" }, { "±", "+/-" }, { "µ", "u" }, { "σ", "s" }, { "─", "-" }, { "│", "|" }, { "└", "+" },
    { "┆", ":" }, { "█", "#" }, { "░", "." }, { "▏", "#" }, { "▎", "#" }, { "▍", "#" }, { "▌", "#" }, { "▋", "#" },
    { "▊", "#" }, { "▉", "#" },
};

/* --format: how results print, "table", "csv" or "json". */
static char format[8] = "table";

void out_set_format(const char *name)
{
    snprintf(format, sizeof format, "%s", name);
}

const char *out_format(void)
{
    return format;
}

/* Whether results print as data (CSV, JSON), not for people to read. */
static int out_format_is_data(void)
{
    return strcmp(format, "csv") == 0 || strcmp(format, "json") == 0;
}

/* Whether stdout gets the symbols as they are: on a terminal whose locale's
   character set is UTF-8, or for the data formats (CSV, JSON), always. */
static int symbols_as_they_are(void)
{
    return out_is_fancy() || out_format_is_data();
}

/* The bytes stdout gets for the character at text[i] (its UTF-8, or its
   ASCII spelling where ascii is set), their count in *size and the bytes of
   the character read in *read. */
static const char *char_out(const char *text, size_t i, size_t length, int ascii, size_t *size, size_t *read)
{
    unsigned char c = (unsigned char)text[i];
    size_t bytes = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    *read = *size = bytes <= length - i ? bytes : 1;
    for (size_t k = 0; ascii && c >= 0x80 && k < sizeof ascii_for / sizeof ascii_for[0]; k++) {
        if (strlen(ascii_for[k].symbol) == *read && memcmp(text + i, ascii_for[k].symbol, *read) == 0) {
            *size = strlen(ascii_for[k].ascii);
            return ascii_for[k].ascii;
        }
    }
    return text + i;
}

/* Columns a character takes: 2 for East Asian wide ones (CJK, full-width
   forms), 0 for a UTF-8 continuation byte, else 1. The same ranges as the
   prelude's wide(). */
static int char_columns(const char *text, size_t size)
{
    const unsigned char *u = (const unsigned char *)text;
    if (size == 1)
        return (u[0] & 0xc0) == 0x80 ? 0 : 1;
    unsigned cp = size == 2 ? (u[0] & 0x1fu) << 6 | (u[1] & 0x3fu)
                : size == 3 ? (u[0] & 0x0fu) << 12 | (u[1] & 0x3fu) << 6 | (u[2] & 0x3fu)
                            : (u[0] & 0x07u) << 18 | (u[1] & 0x3fu) << 12 | (u[2] & 0x3fu) << 6 | (u[3] & 0x3fu);
    static const unsigned wide[][2] = { { 0x1100, 0x115F }, { 0x2E80, 0xA4CF }, { 0xAC00, 0xD7A3 }, { 0xF900, 0xFAFF },
                                        { 0xFE30, 0xFE4F }, { 0xFF00, 0xFF60 }, { 0xFFE0, 0xFFE6 } };
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++) {
        if (cp >= wide[k][0] && cp <= wide[k][1])
            return 2;
    }
    return 1;
}

int out_text_columns(const char *text)
{
    int columns = 0;
    size_t length = strlen(text), size, read;
    for (size_t i = 0; i < length; i += read) {
        char_out(text, i, length, 0, &size, &read);
        columns += char_columns(text + i, size);
    }
    return columns;
}

int out_columns(int fd)
{
    const char *columns = getenv("COLUMNS");
    struct winsize size;
    if (columns && atoi(columns) > 0)
        return atoi(columns);
    return isatty(fd) && ioctl(fd, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
}

/* The width a stream's lines are wrapped at: 0 (no wrapping) for a file or a
   pipe without COLUMNS, and for CSV and JSON. */
static int wrap_width(int fd)
{
    if (out_format_is_data())
        return 0;
    return out_columns(fd);
}

/* Text on its way to a stream, wrapped at word boundaries (between any two
   wide characters) where a line would pass the width: the terminal would
   break it inside a word. Written as it comes, without holding a partial
   line back, so the state of the line being written stays between calls. */
struct line {
    int column;        /* columns written on the line */
    int blanks;        /* its leading blanks: a continuation is indented two more */
    int in_blanks;     /* still in those */
    struct kept out;   /* what one call writes */
};
static struct line stdout_line = { .in_blanks = 1 }, stderr_line = { .in_blanks = 1 };

static void line_add(struct line *line, const char *bytes, size_t size)
{
    keep(&line->out, bytes, size);
}

/* Whether the character at text[at] is one of marks. */
static int is_one_of(const char *const *marks, size_t count, const char *text, size_t at, size_t length)
{
    for (size_t k = 0; k < count; k++) {
        size_t size = strlen(marks[k]);
        if (size <= length - at && memcmp(text + at, marks[k], size) == 0)
            return 1;
    }
    return 0;
}

/* Chinese punctuation (wide characters) a line never starts with, and that
   a line never ends with. */
static int closes(const char *text, size_t at, size_t length)
{
    static const char *const closing[] = { "）", "，", "。", "、", "；", "：", "！", "？", "】", "」", "』", "》", "％" };
    return is_one_of(closing, sizeof closing / sizeof closing[0], text, at, length);
}

static int opens(const char *text, size_t at, size_t length)
{
    static const char *const opening[] = { "（", "【", "「", "『", "《", "“", "‘" };
    return is_one_of(opening, sizeof opening / sizeof opening[0], text, at, length);
}

/* The columns and bytes of the word at text[i]: a run of characters up to a
   blank, a line's end or a wide character (which is a word of its own), with
   the closing punctuation after it. A colour sequence takes no column. */
static int word_columns(const char *text, size_t i, size_t length, int ascii, size_t *word_bytes)
{
    int columns = 0, after_opening = 0;
    size_t at = i;
    while (at < length && text[at] != ' ' && text[at] != '\t' && text[at] != '\n' && text[at] != '\r') {
        if (text[at] == 0x1b && at + 1 < length && text[at + 1] == '[') {
            at += 2 + strspn(text + at + 2, "0123456789;") + 1;
            continue;
        }
        size_t size, read;
        const char *bytes = char_out(text, at, length, ascii, &size, &read);
        int w = bytes == text + at ? char_columns(bytes, size) : (int)size;   /* an ASCII spelling: a column a byte */
        if (w == 2 && at > i && !closes(text, at, length) && !after_opening)
            break;
        after_opening = opens(text, at, length);
        columns += w;
        at += read;
        if (w == 2 && !after_opening && !(at < length && closes(text, at, length)))
            break;
    }
    *word_bytes = (at < length ? at : length) - i;
    return columns;
}

static void write_word(struct line *line, const char *text, size_t bytes, int ascii)
{
    for (size_t at = 0; at < bytes;) {
        size_t size, read;
        const char *out = char_out(text, at, bytes, ascii, &size, &read);
        line_add(line, out, size);
        at += read;
    }
}

/* Writes text to a stream: symbols in ASCII where the terminal lacks them,
   lines wrapped at the stream's width. Returns the bytes of text taken. */
static size_t write_terminal(FILE *stream, struct line *line, const char *text, size_t length, int ascii)
{
    int width = wrap_width(fileno(stream));
    line->out.length = 0;
    for (size_t i = 0; i < length;) {
        char c = text[i];
        if (c == '\n' || c == '\r') {
            line_add(line, &c, 1);
            line->column = 0;
            line->blanks = c == '\n' ? 0 : line->blanks;
            line->in_blanks = c == '\n' ? 1 : line->in_blanks;
            i++;
        } else if (c == ' ' || c == '\t') {
            int columns = c == '\t' ? 8 - line->column % 8 : 1;
            if (line->in_blanks)
                line->blanks += columns;
            if (line->in_blanks || !width || line->column + columns <= width)
                line_add(line, &c, 1);   /* blanks past the width are dropped: the next word starts a new line */
            line->column += columns;
            i++;
        } else {
            size_t bytes;
            int columns = word_columns(text, i, length, ascii, &bytes);
            int continuation = line->blanks > 0 ? line->blanks + 2 : 0;
            if (width && !line->in_blanks && line->column + columns > width && line->column > continuation) {
                line_add(line, "\n", 1);
                for (int k = 0; k < continuation; k++)
                    line_add(line, " ", 1);
                line->column = continuation;
            }
            write_word(line, text + i, bytes, ascii);
            line->in_blanks = 0;
            line->column += columns;
            i += bytes;
        }
    }
    return fwrite(line->out.text, 1, line->out.length, stream) == line->out.length ? length : 0;
}

/* Drops what a terminal would act on rather than show: C0 controls but tab
   and newline, DEL, and C1 controls (U+0080 to U+009F). Returns the new length. */
static size_t strip_controls(char *text, size_t length)
{
    size_t kept = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        size_t colour = c == 0x1b && i + 1 < length && text[i + 1] == '[' ? strspn(text + i + 2, "0123456789;") : 0;
        if (colour && i + 2 + colour < length && text[i + 2 + colour] == 'm') {   /* a colour (SGR) moves nothing: kept */
            memmove(text + kept, text + i, colour + 3);
            kept += colour + 3;
            i += colour + 2;
            continue;
        }
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
            continue;
        if (c == 0xc2 && i + 1 < length && (unsigned char)text[i + 1] >= 0x80 && (unsigned char)text[i + 1] <= 0x9f) {
            i++;
            continue;
        }
        text[kept++] = (char)c;
    }
    return kept;
}

void out_write(const char *text, size_t length)
{
    if (sandbox_active()) {   /* whatever lab code prints, through any function, cannot drive the terminal */
        char *copy = malloc(length ? length : 1);
        if (!copy)
            return;
        memcpy(copy, text, length);
        size_t kept = strip_controls(copy, length);
        double started = sandbox_clock_ms();
        output_raw(copy, kept);
        sandbox_exclude(sandbox_clock_ms() - started);   /* writing to a terminal is not the lab's work */
        free(copy);
        return;
    }
    output_raw(text, length);
}

static void output_raw(const char *text, size_t length)
{
    if (output.tee.on)
        keep(&output.tee, text, length);
    if (output.capture.on) {
        keep(&output.capture, text, length);
        return;
    }
    errno = 0;
    size_t written = write_terminal(stdout, &stdout_line, text, length, !symbols_as_they_are());
    if ((written != length || fflush(stdout) != 0) && !output.write_error)
        output.write_error = errno ? errno : EIO;
}

void out_printf(const char *format, ...)
{
    char small[1024], *text = small;
    va_list args;
    va_start(args, format);
    int length = vsnprintf(small, sizeof small, format, args);
    va_end(args);
    if (length < 0)
        return;
    if ((size_t)length >= sizeof small && (text = malloc((size_t)length + 1)) != NULL) {
        va_start(args, format);
        vsnprintf(text, (size_t)length + 1, format, args);
        va_end(args);
    }
    out_write(text ? text : small, text ? (size_t)length : sizeof small - 1);
    if (text != small)
        free(text);
}

static void start_keeping(struct kept *k)
{
    k->on = 1;
    k->length = 0;
    if (k->text)
        k->text[0] = 0;
}

static const char *stop_keeping(struct kept *k, size_t *length)
{
    k->on = 0;
    *length = k->length;
    return k->text ? k->text : "";
}

void out_capture_start(void) { start_keeping(&output.capture); }
const char *out_capture_stop(size_t *length) { return stop_keeping(&output.capture, length); }
void out_tee_start(void) { start_keeping(&output.tee); }
const char *out_tee_stop(size_t *length) { return stop_keeping(&output.tee, length); }

int out_finish(void)
{
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && !output.write_error)
        output.write_error = errno ? errno : EIO;
    if (fclose(stdout) != 0 && !output.write_error)
        output.write_error = errno ? errno : EIO;
    output.finished = 1;
    return output.write_error;
}

void notice(const char *format, ...)
{
    va_list args;
    if (!output.finished)
        fflush(stdout);
    va_start(args, format);
    int length = vsnprintf(NULL, 0, format, args);
    va_end(args);
    char *text = length >= 0 ? malloc((size_t)length + 11) : NULL;
    if (!text)
        return;
    memcpy(text, "warplab: ", 9);
    va_start(args, format);
    vsnprintf(text + 9, (size_t)length + 1, format, args);
    va_end(args);
    text[9 + length] = '\n';
    write_terminal(stderr, &stderr_line, text, (size_t)length + 10, 0);
    free(text);
}

const char *error_text(int error)
{
    static const struct {
        int error;
        const char *zh;
    } errors_zh[] = {
        { ENOENT, "没有那个文件或目录" },      { EACCES, "权限不够" },
        { EPERM, "操作不允许" },               { EISDIR, "是一个目录" },
        { ENOTDIR, "不是一个目录" },           { ENOSPC, "设备上没有空间" },
        { EROFS, "只读文件系统" },             { EEXIST, "文件已存在" },
        { EIO, "输入/输出错误" },              { ENOMEM, "内存不足" },
        { EINTR, "被中断" },                   { ENAMETOOLONG, "文件名太长" },
        { EMFILE, "打开的文件过多" },          { EDQUOT, "超出磁盘配额" },
        { EPIPE, "管道已断开" },               { EAGAIN, "资源暂时不可用" },
    };
    if (text_language[0] == 'z')
        for (size_t i = 0; i < sizeof errors_zh / sizeof errors_zh[0]; i++)
            if (errors_zh[i].error == error)
                return errors_zh[i].zh;
    return strerror(error);
}

/* Colour on a terminal, unless NO_COLOR is set (to anything but "") or TERM
   is dumb (no-color.org). Worked out once. */
int out_use_colour(void)
{
    static int known, colour;
    if (!known) {
        const char *term = getenv("TERM"), *no_colour = getenv("NO_COLOR");
        colour = !(no_colour && *no_colour) && !(term && strcmp(term, "dumb") == 0) && isatty(STDOUT_FILENO);
        known = 1;
    }
    return colour;
}

/* Unicode symbols and blocks on a terminal whose locale's character set is
   UTF-8 (LANG=C is ASCII); WARPLAB_UNICODE=1 or 0 says either way. NO_COLOR
   is about colour, not these. Worked out once: the answer does not change. */
int out_is_fancy(void)
{
    static int known, fancy;
    if (!known) {
        const char *term = getenv("TERM"), *unicode = getenv("WARPLAB_UNICODE");
        if (unicode && *unicode)
            fancy = strcmp(unicode, "1") == 0;   /* tests and UTF-8 pipes can ask either way */
        else
            fancy = !(term && strcmp(term, "dumb") == 0) && isatty(STDOUT_FILENO) && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
        known = 1;
    }
    return fancy;
}

