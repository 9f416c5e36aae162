/*
** compile_check.h — what a kernel's source may ask of its compiler, read
** before the compile, and what the compiler's messages may show after it.
*/
#ifndef WARPLAB_COMPILE_CHECK_H
#define WARPLAB_COMPILE_CHECK_H

#include <stddef.h>

/* The files a source may include: the caller's in-memory headers by name,
   the compiler's own freestanding headers, and the CUDA toolkit's headers. */
struct include_rule {
    const char *const *header_names;
    int header_count;
};

#ifdef CUDA_DIR
/* The CUDA toolkit's include folders (-I for NVRTC, and where an #include
   may name a file): its own, and CUDA 13's cccl/, where libcu++'s
   <cuda/std/...> is (NVRTC's <cstdint> stand-in includes it). NULL-ended. */
extern const char *const toolkit_include_folders[];
#endif

/* The source as the compiler is given it: CR LF and a lone CR become LF,
   and blanks between a backslash and the end of its line are dropped, so
   that where a line ends reads the same to this check and to every
   compiler. malloc'd, or NULL without memory. */
char *canonical_source(const char *text);

/* 0 when text (called file in messages) names no file beyond what rule
   allows, in an #include or __has_include or anything like them; else -1
   with one line in why: where, what it names, and what is allowed. */
int check_includes(const char *text, const char *file, const struct include_rule *rule, char *why, size_t why_size);

/* The compiler's messages cut to those about the files in names (the
   source's and its headers'): a message about any other file is one line
   saying it was left out, never its text; control characters are made
   visible and the whole is at most max_bytes. malloc'd, or NULL without memory. */
char *clean_compiler_log(const char *log, const char *const *names, int name_count, size_t max_bytes);

/* text with control characters, C1 controls and bytes that are not UTF-8
   written as \xNN (a tab and a newline stay): malloc'd, or NULL. */
char *visible_text(const char *text, size_t length);

#endif
