/*
** output.c — stdout and stderr writers.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output.h"
#include "progress.h"
#include "sandbox.h"

static struct {
    int capturing;            /* out_capture_start: kept in text instead of shown */
    char *text;
    size_t length, capacity;
    int write_error;          /* errno of the first write to stdout that failed, else 0 */
    int finished;             /* out_finish closed stdout */
} output;

/* Keeps text in the capture buffer; what does not fit in memory is dropped. */
static void capture(const char *text, size_t length)
{
    if (output.length + length + 1 > output.capacity) {
        size_t capacity = (output.length + length + 1) * 2;
        char *bigger = realloc(output.text, capacity);
        if (!bigger)
            return;
        output.text = bigger;
        output.capacity = capacity;
    }
    memcpy(output.text + output.length, text, length);
    output.length += length;
    output.text[output.length] = 0;
}

static void output_raw(const char *text, size_t length);

/* Drops what a terminal would act on rather than show: C0 controls but tab
   and newline, DEL, and C1 controls (U+0080 to U+009F). Returns the new length. */
static size_t strip_controls(char *text, size_t length)
{
    size_t kept = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
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
        double started = monotonic_ms();
        output_raw(copy, kept);
        sandbox_exclude(monotonic_ms() - started);   /* a slow terminal is not the lab's work */
        free(copy);
        return;
    }
    output_raw(text, length);
}

static void output_raw(const char *text, size_t length)
{
    if (output.capturing) {
        capture(text, length);
        return;
    }
    errno = 0;
    if ((fwrite(text, 1, length, stdout) != length || fflush(stdout) != 0) && !output.write_error)
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

void out_capture_start(void)
{
    output.capturing = 1;
    output.length = 0;
    if (output.text)
        output.text[0] = 0;
}

const char *out_capture_stop(size_t *length)
{
    output.capturing = 0;
    *length = output.length;
    return output.text ? output.text : "";
}

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

int out_is_fancy(void)
{
    const char *term = getenv("TERM"), *unicode = getenv("WARPLAB_UNICODE");
    if (unicode && *unicode)
        return strcmp(unicode, "1") == 0;   /* tests and UTF-8 pipes can ask either way */
    if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
        return 0;
    if (term && strcmp(term, "dumb") == 0)
        return 0;
    return isatty(STDOUT_FILENO);
}

const char *format_bytes(double bytes, char *buffer, size_t size)
{
    static const char *const units[] = { "B", "kB", "MB", "GB", "TB" };
    int unit = 0;
    while (bytes >= 1000 && unit < 4) {
        bytes /= 1000;
        unit++;
    }
    snprintf(buffer, size, unit == 0 ? "%.0f %s" : bytes < 10 ? "%.2f %s" : "%.1f %s", bytes, units[unit]);
    return buffer;
}
