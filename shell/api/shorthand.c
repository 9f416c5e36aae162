/*
** shorthand.c — finds `<name=...>` right after `(` or `,` outside strings and
** comments. In Lua a `<` there is always a syntax error, so the rewrite can
** never change the meaning of valid code.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "api/shorthand.h"

/* Length of a long bracket opener `[==[` at s (0 when none); its level in *level. */
static size_t long_bracket(const char *s, int *level)
{
    size_t i = 1;
    if (s[0] != '[')
        return 0;
    while (s[i] == '=')
        i++;
    if (s[i] != '[')
        return 0;
    *level = (int)(i - 1);
    return i + 1;
}

/* Index just past the string, long string or comment starting at i, or i itself when none starts there. */
/* Past one character of a short string at i: an escape as Lua reads it, so
   that \z and a backslash before a line break go on over the line break. */
static size_t skip_string_character(const char *s, size_t i)
{
    if (s[i] != '\\' || !s[i + 1])
        return i + 1;
    if (s[i + 1] == 'z') {
        for (i += 2; s[i] && isspace((unsigned char)s[i]); i++)
            ;
        return i;
    }
    if ((s[i + 1] == '\r' && s[i + 2] == '\n') || (s[i + 1] == '\n' && s[i + 2] == '\r'))
        return i + 3;
    return i + 2;
}

static size_t skip_literal(const char *s, size_t i)
{
    int level;
    size_t open;
    if (s[i] == '"' || s[i] == '\'') {
        char quote = s[i++];
        while (s[i] && s[i] != quote && s[i] != '\n')
            i = skip_string_character(s, i);
        return s[i] ? i + 1 : i;
    }
    int comment = s[i] == '-' && s[i + 1] == '-';
    size_t start = comment ? i + 2 : i;
    if ((open = long_bracket(s + start, &level)) > 0) {
        size_t j = start + open;
        for (; s[j]; j++) {
            if (s[j] == ']' && strncmp(s + j + 1, "==========" , (size_t)level) == 0 &&
                s[j + 1 + level] == ']')
                return j + 2 + (size_t)level;
        }
        return j;
    }
    if (comment) {
        while (s[i] && s[i] != '\n')
            i++;
        return i;
    }
    return i;
}

/* Whether `<` at i starts `name =` (and not `name ==`). */
static int starts_named_field(const char *s, size_t i)
{
    i++;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    if (!(isalpha((unsigned char)s[i]) || s[i] == '_'))
        return 0;
    while (isalnum((unsigned char)s[i]) || s[i] == '_')
        i++;
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    return s[i] == '=' && s[i + 1] != '=';
}

/* Index of the `>` closing the group opened at i, or 0 when there is none. */
static size_t closing_bracket(const char *s, size_t i)
{
    int depth = 0;
    for (i++; s[i];) {
        size_t next = skip_literal(s, i);
        if (next != i) {
            i = next;
            continue;
        }
        if (strchr("([{", s[i]))
            depth++;
        else if (strchr(")]}", s[i]) && --depth < 0)
            return 0;
        else if (s[i] == '>' && depth == 0 && s[i + 1] != '=')
            return i;
        i++;
    }
    return 0;
}

char *shorthand_expand(const char *code)
{
    char *out = strdup(code);
    char previous = 0;   /* last character outside literals and blanks */
    if (!out)
        return NULL;
    for (size_t i = 0; out[i];) {
        size_t next = skip_literal(out, i);
        if (next != i) {
            i = next;
            continue;
        }
        if (out[i] == '<' && (previous == '(' || previous == ',') && starts_named_field(out, i)) {
            size_t close = closing_bracket(out, i);
            if (close) {
                out[i] = '{';
                out[close] = '}';
            }
        }
        if (!isspace((unsigned char)out[i]))
            previous = out[i];
        i++;
    }
    return out;
}
