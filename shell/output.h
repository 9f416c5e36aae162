/*
** output.h — the one writer everything shown goes through, so tests can
** capture it and the REPL can keep its prompt tidy.
*/
#ifndef WARPLAB_OUTPUT_H
#define WARPLAB_OUTPUT_H

#include <stddef.h>
#include "support/text.h"   /* join_names, SAY */

void out_write(const char *text, size_t length);
void out_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Tests: from out_capture_start on, what the writer gets is kept instead of
   shown; out_capture_stop returns it (valid until the next start). */
void out_capture_start(void);
const char *out_capture_stop(size_t *length);
/* The session record: from out_tee_start on, what the writer gets is kept as
   well as shown; out_tee_stop returns it (valid until the next start). */
void out_tee_start(void);
const char *out_tee_stop(size_t *length);
/* Flushes and closes stdout at exit: 0, or the errno of the first write that
   failed (a full disk, /dev/full), so the exit status can say so. */
int out_finish(void);
/* Notices and errors: to stderr, one line each, "warplab: " first. */
void notice(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* strerror(error) in the session's language: the errors a student meets
   with files and processes in Chinese under zh, the others as libc says them. */
const char *error_text(int error);
/* Whether stdout can show Unicode symbols and blocks (a terminal whose locale is UTF-8, TERM not dumb). */
int out_is_fancy(void);
/* --format: how results print, "table" (the default), "csv" or "json". */
void out_set_format(const char *name);
const char *out_format(void);
/* The columns text takes on a terminal, as the line writer counts them (two
   for a wide character, such as a Chinese one). */
int out_text_columns(const char *text);
/* The columns of the terminal on fd: $COLUMNS where it is set (as POSIX has
   it override the terminal's), else the terminal's; 0 for a file or a pipe. */
int out_columns(int fd);
/* Whether output may be coloured: a terminal, without NO_COLOR or TERM=dumb. */
int out_use_colour(void);

#endif
