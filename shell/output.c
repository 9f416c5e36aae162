/*
** output.c — stdout and stderr writers.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output.h"

void out_write(const char *text, size_t length)
{
    fwrite(text, 1, length, stdout);
    fflush(stdout);
}

void out_printf(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vfprintf(stdout, format, args);
    va_end(args);
    fflush(stdout);
}

void notice(const char *format, ...)
{
    va_list args;
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
