/*
** output.h — the one writer everything shown goes through, so tests can
** capture it and the REPL can keep its prompt tidy.
*/
#ifndef WARPLAB_OUTPUT_H
#define WARPLAB_OUTPUT_H

#include <stddef.h>

void out_write(const char *text, size_t length);
void out_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Notices and errors: to stderr, one line each, "warplab: " first. */
void notice(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Whether stdout can show Unicode blocks and colour (a terminal, TERM not dumb, no NO_COLOR). */
int out_is_fancy(void);

#endif
