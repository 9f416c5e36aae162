/*
** output.c — stdout and stderr writers.
*/
#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output.h"
#include "session.h"
#include "progress.h"
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

/* Writes text to stdout with the symbols of ascii_for spelt in ASCII. */
static size_t write_ascii(const char *text, size_t length)
{
    size_t written = 0, from = 0;
    for (size_t i = 0; i < length; i++) {
        if ((unsigned char)text[i] < 0x80)
            continue;
        for (size_t k = 0; k < sizeof ascii_for / sizeof ascii_for[0]; k++) {
            size_t size = strlen(ascii_for[k].symbol);
            if (size <= length - i && memcmp(text + i, ascii_for[k].symbol, size) == 0) {
                written += fwrite(text + from, 1, i - from, stdout) + size;
                fputs(ascii_for[k].ascii, stdout);
                from = i + size;
                i += size - 1;
                break;
            }
        }
    }
    return written + fwrite(text + from, 1, length - from, stdout);
}

/* Whether stdout gets the symbols as they are: on a terminal whose locale's
   character set is UTF-8, or for the data formats (CSV, JSON), always. */
static int symbols_as_they_are(void)
{
    return out_is_fancy() || strcmp(session.format, "csv") == 0 || strcmp(session.format, "json") == 0;
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
    size_t written = symbols_as_they_are() ? fwrite(text, 1, length, stdout) : write_ascii(text, length);
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
    fputs("warplab: ", stderr);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
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
    if (session.lang[0] == 'z')
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

const char *format_bytes(double bytes, char *buffer, size_t size)
{
    static const char *const units[] = { "B", "kB", "MB", "GB", "TB" };
    int unit = 0;
    while (bytes >= 1000 && unit < 4) {
        bytes /= 1000;
        unit++;
    }
    snprintf(buffer, size, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
    return buffer;
}

const char *join_names(char *out, size_t size, int count, const char *(*name_at)(const void *list, int i),
                       const void *list)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < count && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", name_at(list, i));
    return out;
}
