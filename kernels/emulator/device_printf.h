/*
** device_printf.h — one call of printf in a kernel, formatted as CUDA
** formats it. The compiler turns printf(format, ...) into vprintf(format,
** args): the arguments packed into a buffer of the thread's, each at an
** offset aligned to its size (an int 4 bytes; a long long, a double — a
** float is promoted — and a pointer 8), and the host's C library formats
** the call with the format (the CUDA C++ Programming Guide, "Formatted
** Output"). The emulator's run (ptx_run.c) reads the buffer; this does
** the rest.
*/
#ifndef WARPLAB_DEVICE_PRINTF_H
#define WARPLAB_DEVICE_PRINTF_H

#include <stddef.h>
#include <stdint.h>

/* How the formatter reaches the calling thread's memory. */
struct printf_reader {
    /* The argument buffer's `bytes` bytes at `offset` into *bits: 0, or -1 when they are outside the thread's memory. */
    int (*argument)(void *context, uint64_t offset, int bytes, uint64_t *bits);
    /* The kernel's constant string at a generic address (NUL-ended), or NULL when none is there. */
    const char *(*string)(void *context, uint64_t address);
    void *context;
};

/* CUDA's printf takes at most this many arguments after the format; a
   conversion past them is printed as it is written (the Programming Guide). */
enum { DEVICE_PRINTF_MOST_ARGUMENTS = 32 };

/* Formats one call into out (NUL-ended, cut at out_size). Returns what
   CUDA's printf returns, the number of arguments it read; or -1 with why
   (one clause, in the session's language) for what cannot be emulated:
   %n, a %s whose pointer is not one of the kernel's strings, a wide or long
   double conversion, an argument outside the thread's memory. */
int device_printf(const char *format, const struct printf_reader *reader, char *out, size_t out_size, char *why,
                  size_t why_size);

/* The format as C source shows it, for messages: "x=%d\n" with its escapes, cut at size. */
const char *device_printf_quoted(const char *format, char *out, size_t size);

#endif
