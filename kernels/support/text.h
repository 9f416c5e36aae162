/*
** text.h — the language every message is written in, and the small text
** helpers kernels/ and shell/ share. The lowest room: it includes nothing of
** warplab's (docs/internals.md).
*/
#ifndef WARPLAB_TEXT_H
#define WARPLAB_TEXT_H

#include <stddef.h>

/* "en" or "zh": the language of descriptions, messages and labs (--lang,
   else LANG), set once at the start. */
extern char text_language[8];

/* The text in that language. Pass literals: the English and Chinese stay
   side by side at the call. */
#define SAY(en, zh) (text_language[0] == 'z' ? (zh) : (en))

/* "a, b, c": count names, name_at(list, i) each, into out (cut at size). */
const char *join_names(char *out, size_t size, int count, const char *(*name_at)(const void *list, int i),
                       const void *list);

/* "512 B", "4.2 MB", "1.1 GB": decimal units, as memory sizes are quoted to
   students; the Lua side uses it too (core.format_bytes). */
const char *format_bytes(double bytes, char *buffer, size_t size);

/* A copy of size bytes and a NUL after them, so that it reads as text (PTX,
   a disassembler's listing) and holds a CUBIN's NULs too; NULL when out of memory. */
char *copy_as_text(const char *data, size_t size);

/* Edit distance between two short names; used for "did you mean". */
int edit_distance(const char *a, const char *b);

#endif
