/*
** compile_check.c — a kernel's source read as its preprocessor will read
** it, before any compiler sees it: every #include (and #include_next,
** #import, #embed, __has_include, _Pragma and #pragma dependency) must name
** a header in <...> or "..." that the caller gave in memory, a freestanding
** header of the compiler's own, or a header of the CUDA toolkit. A name
** that a macro makes is refused, as is whatever could make this reading
** differ from a compiler's (raw strings, trigraphs, characters outside ASCII
** in code): the check errs on the side of refusing. Then what the compiler
** says is cut to messages about the kernel's own files. The compile itself
** runs in a child without access to other files (compile_child.c), so this
** check is the first of two walls, not the only one.
*/
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compile/compile_check.h"
#include "support/text.h"

char *canonical_source(const char *text)
{
    size_t length = strlen(text);
    char *out = malloc(length + 1), *o = out;
    if (!out)
        return NULL;
    const char *p = text;
    if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)   /* a byte order mark: compilers skip it */
        p += 3;
    for (; *p; p++) {
        if (*p == '\r') {
            *o++ = '\n';
            p += p[1] == '\n';
        } else if (*p == '\\') {
            size_t blanks = strspn(p + 1, " \t\f\v");   /* "\   \n" splices lines for some compilers, not others: made one */
            *o++ = '\\';
            if (blanks && (p[1 + blanks] == '\n' || p[1 + blanks] == '\r'))
                p += blanks;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
    return out;
}

/* ---- the source without its line splices, and where each character came from ---- */

struct spliced {
    char *text;      /* the source with every backslash-newline removed (one pass, as the standard's phase 2) */
    int *line_of;    /* the source line of each character of text */
};

static int splice(const char *source, struct spliced *s)
{
    size_t length = strlen(source);
    s->text = malloc(length + 1);
    s->line_of = malloc((length + 1) * sizeof *s->line_of);
    if (!s->text || !s->line_of)
        return -1;
    size_t n = 0;
    int line = 1;
    for (const char *p = source; *p; p++) {
        if (p[0] == '\\' && p[1] == '\n') {
            p++, line++;
            continue;
        }
        s->text[n] = *p;
        s->line_of[n++] = line;
        line += *p == '\n';
    }
    s->text[n] = 0;
    s->line_of[n] = line;
    return 0;
}

/* ---- a tokenizer just fine enough to know what is code, comment and literal ---- */

enum token_kind { TOKEN_END, TOKEN_IDENTIFIER, TOKEN_NUMBER, TOKEN_LITERAL, TOKEN_HASH, TOKEN_PASTE, TOKEN_OTHER, TOKEN_REFUSED };

struct token {
    enum token_kind kind;
    size_t start, end;
    int first_on_line;   /* only blanks and comments before it on its line (or a newline inside a comment: erring wide) */
};

struct scanner {
    const struct spliced *s;
    size_t at;
    int line_start;
    const char *refusal;   /* why the last TOKEN_REFUSED was */
};

static int identifier_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Blanks and comments; every control character counts as a blank, which can
   only make more lines look like directives. Stops before a newline when
   asked to (inside a directive), else passes it and marks a line's start. */
static void skip_blanks(struct scanner *sc, int stop_at_newline)
{
    const char *t = sc->s->text;
    for (;;) {
        char c = t[sc->at];
        if (c == '\n' && stop_at_newline)
            return;
        if (c == '\n')
            sc->line_start = 1, sc->at++;
        else if (c > 0 && (c < ' ' || c == 0x7f))
            sc->at++;
        else if (c == ' ')
            sc->at++;
        else if (c == '/' && t[sc->at + 1] == '/')
            sc->at += strcspn(t + sc->at, "\n");
        else if (c == '/' && t[sc->at + 1] == '*') {
            const char *end = strstr(t + sc->at + 2, "*/");
            size_t stop = end ? (size_t)(end - t) + 2 : strlen(t);
            if (memchr(t + sc->at, '\n', stop - sc->at) && !stop_at_newline)
                sc->line_start = 1;
            sc->at = stop;
        } else
            return;
    }
}

/* A string or character literal from its quote: to the closing quote, or to the line's end. */
static size_t literal_end(const char *t, size_t at)
{
    char quote = t[at++];
    while (t[at] && t[at] != quote && t[at] != '\n')
        at += t[at] == '\\' && t[at + 1] && t[at + 1] != '\n' ? 2 : 1;
    return t[at] == quote ? at + 1 : at;
}

/* A preprocessing number: digits, letters, dots, e+ p- and 1'000's separators. */
static size_t number_end(const char *t, size_t at)
{
    for (;;) {
        char c = t[at];
        if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (t[at + 1] == '+' || t[at + 1] == '-'))
            at += 2;
        else if (identifier_char(c) || c == '.')
            at++;
        else if (c == '\'' && identifier_char(t[at + 1]))
            at += 2;
        else
            return at;
    }
}

static int is_raw_prefix(const char *t, size_t start, size_t end)
{
    static const char *const prefixes[] = { "R", "LR", "uR", "UR", "u8R" };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strlen(prefixes[i]) == end - start && memcmp(t + start, prefixes[i], end - start) == 0)
            return 1;
    return 0;
}

static struct token refused(struct scanner *sc, struct token token, const char *why)
{
    sc->refusal = why;
    token.kind = TOKEN_REFUSED;
    return token;
}

static struct token next_token(struct scanner *sc, int stop_at_newline)
{
    const char *t = sc->s->text;
    skip_blanks(sc, stop_at_newline);
    struct token token = { TOKEN_OTHER, sc->at, sc->at + 1, sc->line_start };
    char c = t[sc->at];
    sc->line_start = 0;
    if (c == 0 || c == '\n')
        token.kind = TOKEN_END, token.end = sc->at;
    else if ((unsigned char)c >= 0x80 || c == '$' || c == '@' || c == '`')
        return refused(sc, token, SAY("a character outside ASCII (or $, @, `) outside comments and strings",
                                      "注释和字符串以外有 ASCII 以外的字符（或 $、@、`）"));
    else if (identifier_char(c) && !digit(c)) {
        while (identifier_char(t[token.end]))
            token.end++;
        token.kind = TOKEN_IDENTIFIER;
        if (t[token.end] == '"' && is_raw_prefix(t, token.start, token.end))
            return refused(sc, token, SAY("a raw string literal (R\"...\")", "原始字符串字面量（R\"...\"）"));
    } else if (digit(c) || (c == '.' && digit(t[sc->at + 1])))
        token.kind = TOKEN_NUMBER, token.end = number_end(t, sc->at);
    else if (c == '"' || c == '\'')
        token.kind = TOKEN_LITERAL, token.end = literal_end(t, sc->at);
    else if ((c == '#' && t[sc->at + 1] == '#') || strncmp(t + sc->at, "%:%:", 4) == 0)
        token.kind = TOKEN_PASTE, token.end = sc->at + (c == '#' ? 2 : 4);
    else if (c == '#' || (c == '%' && t[sc->at + 1] == ':'))
        token.kind = TOKEN_HASH, token.end = sc->at + (c == '#' ? 1 : 2);
    sc->at = token.end;
    return token;
}

static int token_is(const struct scanner *sc, struct token token, const char *word)
{
    return token.end - token.start == strlen(word) && memcmp(sc->s->text + token.start, word, token.end - token.start) == 0;
}

/* ---- what may be included ---- */

/* Headers every C++ compiler brings along and that read no other file here. */
static const char *const freestanding_headers[] = { "stddef.h", "stdint.h", "stdbool.h", "stdarg.h", "limits.h", "float.h",
                                                    "cstddef", "cstdint", "climits", "cfloat" };

#ifdef CUDA_DIR
const char *const toolkit_include_folders[] = { CUDA_DIR "/include", CUDA_DIR "/include/cccl", NULL };

/* A path inside a folder that cannot leave it by its spelling: no leading /, no .., plain characters. */
static int plain_relative_path(const char *name)
{
    if (!*name || *name == '/' || strlen(name) > 255 || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-/") != strlen(name))
        return 0;
    for (const char *p = name; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
        if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == 0))
            return 0;
    return 1;
}

/* name is a regular file inside the include folder `folder`, links resolved (no file is opened). */
static int header_in(const char *folder, const char *name)
{
    char path[PATH_MAX], real[PATH_MAX], root[PATH_MAX];
    struct stat st;
    if (!plain_relative_path(name) || !realpath(folder, root))
        return 0;
    size_t n = strlen(root);
    if (n + 1 + strlen(name) >= sizeof path)
        return 0;
    memcpy(path, root, n);
    path[n] = '/';
    strcpy(path + n + 1, name);
    return realpath(path, real) && strncmp(real, root, n) == 0 && real[n] == '/' && stat(real, &st) == 0 && S_ISREG(st.st_mode);
}

/* name is a header in one of the toolkit's include folders. */
static int toolkit_header(const char *name)
{
    for (int i = 0; toolkit_include_folders[i]; i++)
        if (header_in(toolkit_include_folders[i], name))
            return 1;
    return 0;
}
#else
static int toolkit_header(const char *name)
{
    (void)name;
    return 0;   /* no toolkit: only the caller's headers and the freestanding ones */
}
#endif

static int allowed_header(const char *name, const struct include_rule *rule)
{
    for (int i = 0; i < rule->header_count; i++)
        if (strcmp(name, rule->header_names[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof freestanding_headers / sizeof freestanding_headers[0]; i++)
        if (strcmp(name, freestanding_headers[i]) == 0)
            return 1;
    return toolkit_header(name);
}

/* ---- the check ---- */

struct check {
    struct scanner sc;
    const char *file;
    const struct include_rule *rule;
    char *why;
    size_t why_size;
};

static const char *allowed_text(void)
{
    return SAY("a kernel may include only the CUDA toolkit's headers (such as <cuda_pipeline.h>), <stdint.h> and the like, "
               "and the headers given to it (headers=)",
               "核函数只能包含 CUDA 工具包的头文件（如 <cuda_pipeline.h>）、<stdint.h> 之类，以及给它的头文件（headers=）");
}

/* Writes the refusal of what starts at `at` into why; -1. */
static int refuse(struct check *c, size_t at, const char *format, ...)
{
    char what[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(what, sizeof what, format, arguments);
    va_end(arguments);
    snprintf(c->why, c->why_size, "%s:%d: %s", c->file, c->sc.s->line_of[at], what);
    return -1;
}

/* The header named at the scanner's place, "<name>" or "\"name\"" on this line: checked. 0, or -1 with why. */
static int check_header_name(struct check *c, size_t directive_at, const char *directive)
{
    const char *t = c->sc.s->text;
    skip_blanks(&c->sc, 1);
    char open = t[c->sc.at], close = open == '<' ? '>' : '"';
    size_t start = c->sc.at + 1, length = open ? strcspn(t + start, close == '>' ? ">\n" : "\"\n") : 0;
    if ((open != '<' && open != '"') || t[start + length] != close) {
        size_t rest = strcspn(t + c->sc.at, "\n");
        return refuse(c, directive_at, SAY("%s %.*s: the header must be named in <...> or \"...\", not by a macro; %s",
                                           "%s %.*s：头文件必须写在 <...> 或 \"...\" 中，不能由宏给出；%s"),
                      directive, (int)(rest > 60 ? 60 : rest), t + c->sc.at, allowed_text());
    }
    char name[300];
    snprintf(name, sizeof name, "%.*s", (int)(length < sizeof name - 1 ? length : sizeof name - 1), t + start);
    c->sc.at = start + length + 1;
    if (length >= sizeof name - 1 || !allowed_header(name, c->rule))
        return refuse(c, directive_at, SAY("cannot %s %c%s%c: %s", "不能 %s %c%s%c：%s"), directive, open, name, close, allowed_text());
    return 0;
}

/* The directives that read a file, by the word after #. */
static const char *const file_directives[] = { "include", "include_next", "import", "embed", "__include_macros" };
/* Words that read or probe a file wherever they are. */
static const char *const file_operators[] = { "__has_include", "__has_include_next", "__has_embed" };
/* Words that make a pragma read a file (GCC's and clang's #pragma ... dependency). */
static const char *const file_pragma_words[] = { "dependency", "include_alias", "include", "embed" };

static int in_list(const struct scanner *sc, struct token token, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (token_is(sc, token, list[i]))
            return 1;
    return 0;
}
#define IN_LIST(sc, token, list) in_list(sc, token, list, sizeof list / sizeof list[0])

/* __has_include ( <name> ): the operand checked. */
static int check_file_operator(struct check *c, struct token word)
{
    const char *t = c->sc.s->text;
    skip_blanks(&c->sc, 0);
    if (t[c->sc.at] != '(')
        return refuse(c, word.start, SAY("%.*s without a header in (<...>) or (\"...\"); %s", "%.*s 没有写在 (<...>) 或 (\"...\") 中的头文件；%s"),
                      (int)(word.end - word.start), t + word.start, allowed_text());
    c->sc.at++;
    char directive[32];
    snprintf(directive, sizeof directive, "%.*s", (int)(word.end - word.start), t + word.start);
    return check_header_name(c, word.start, directive);
}

/* A #pragma's words, to the line's end: none may name a file. */
static int check_pragma(struct check *c, size_t at)
{
    for (struct token token = next_token(&c->sc, 1); token.kind != TOKEN_END; token = next_token(&c->sc, 1))
        if (token.kind == TOKEN_REFUSED || (token.kind == TOKEN_IDENTIFIER && IN_LIST(&c->sc, token, file_pragma_words)))
            return refuse(c, at, SAY("this #pragma may read a file; %s", "这个 #pragma 可能读取文件；%s"), allowed_text());
    return 0;
}

/* _Pragma("..."): its text may not name a file; a _Pragma of a macro is refused. */
static int check_pragma_operator(struct check *c, struct token word)
{
    const char *t = c->sc.s->text;
    skip_blanks(&c->sc, 0);
    struct token open = next_token(&c->sc, 0), text = next_token(&c->sc, 0);
    if (t[open.start] != '(' || text.kind != TOKEN_LITERAL || t[text.start] != '"')
        return refuse(c, word.start, SAY("_Pragma must be given its text as a string", "_Pragma 的内容必须是字符串"));
    for (size_t i = 0; i < sizeof file_pragma_words / sizeof file_pragma_words[0]; i++) {
        size_t n = strlen(file_pragma_words[i]);
        for (size_t at = text.start; at + n <= text.end; at++)
            if (memcmp(t + at, file_pragma_words[i], n) == 0)
                return refuse(c, word.start, SAY("this _Pragma may read a file; %s", "这个 _Pragma 可能读取文件；%s"), allowed_text());
    }
    return 0;
}

/* After a # that starts a line: a directive that reads a file has its header checked. */
static int check_directive(struct check *c, struct token hash)
{
    struct token name = next_token(&c->sc, 1);
    if (name.kind == TOKEN_REFUSED)
        return refuse(c, name.start, "%s", c->sc.refusal);
    if (name.kind != TOKEN_IDENTIFIER)
        return 0;
    char directive[40];
    snprintf(directive, sizeof directive, "#%.*s", (int)(name.end - name.start > 32 ? 32 : name.end - name.start), c->sc.s->text + name.start);
    if (IN_LIST(&c->sc, name, file_directives))
        return check_header_name(c, hash.start, directive);
    if (token_is(&c->sc, name, "pragma"))
        return check_pragma(c, hash.start);
    return 0;
}

static int check_tokens(struct check *c)
{
    for (;;) {
        struct token token = next_token(&c->sc, 0);
        int status = 0;
        if (token.kind == TOKEN_END)
            return 0;
        if (token.kind == TOKEN_REFUSED)
            status = refuse(c, token.start, "%s", c->sc.refusal);
        else if (token.kind == TOKEN_HASH && token.first_on_line)
            status = check_directive(c, token);
        else if (token.kind == TOKEN_IDENTIFIER && IN_LIST(&c->sc, token, file_operators))
            status = check_file_operator(c, token);
        else if (token.kind == TOKEN_IDENTIFIER && token_is(&c->sc, token, "_Pragma"))
            status = check_pragma_operator(c, token);
        if (status)
            return status;
    }
}

int check_includes(const char *text, const char *file, const struct include_rule *rule, char *why, size_t why_size)
{
    const char *equals = strstr(text, "?\?="), *slash = strstr(text, "?\?/");
    const char *trigraph = !equals ? slash : !slash ? equals : equals < slash ? equals : slash;
    struct spliced s = { NULL, NULL };
    struct check c = { { &s, 0, 1, NULL }, file, rule, why, why_size };
    int status = -1;
    if (trigraph) {
        int line = 1;
        for (const char *p = text; p < trigraph; p++)
            line += *p == '\n';
        snprintf(why, why_size, SAY("%s:%d: a trigraph (?\?= or ?\?/): write # or \\ instead", "%s:%d：三字符组（?\?= 或 ?\?/）：请改写为 # 或 \\"),
                 file, line);
    } else if (splice(text, &s) != 0)
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
    else
        status = check_tokens(&c);
    free(s.text);
    free(s.line_of);
    return status;
}

/* ---- the compiler's messages ---- */

char *visible_text(const char *text, size_t length)
{
    char *out = malloc(4 * length + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < length;) {
        unsigned char c = (unsigned char)text[i];
        size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        int whole = n > 0 && i + n <= length && (n < 2 || (c >= 0xC2 && !(c == 0xC2 && (unsigned char)text[i + 1] < 0xA0)));
        for (size_t k = 1; whole && k < n; k++)
            whole = ((unsigned char)text[i + k] & 0xC0) == 0x80;
        if (n == 1 && (c >= 0x20 || c == '\n' || c == '\t') && c != 0x7f)
            *o++ = (char)c, i++;
        else if (whole && n > 1) {
            memcpy(o, text + i, n);
            o += n, i += n;
        } else {
            o += sprintf(o, "\\x%02X", c);   /* a control character, a C1 control (C2 80..9F) or not UTF-8 */
            i++;
        }
    }
    *o = 0;
    return out;
}

/* The file a compiler message's first line is about: "NAME(12): error" (NVRTC),
   "NAME:12:3: error", "In file included from NAME:3:" (clang); its length, or 0. */
static size_t message_file(const char *line, size_t length, const char **name)
{
    static const char *const prefixes[] = { "In file included from ", "                 from " };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(line, prefixes[i], strlen(prefixes[i])) == 0)
            line += strlen(prefixes[i]), length -= strlen(prefixes[i]);
    for (size_t at = 1; at + 2 < length; at++) {
        char c = line[at];
        size_t digits = strspn(line + at + 1, "0123456789");
        if (digits == 0 || at + 1 + digits >= length)
            continue;
        char after = line[at + 1 + digits];
        if ((c == '(' && after == ')' && line[at + 2 + digits] == ':') || (c == ':' && (after == ':' || after == ','))) {
            *name = line;
            return at;
        }
    }
    return 0;
}

static int our_file(const char *name, size_t length, const char *const *names, int name_count)
{
    if (name[0] == '<' && name[length - 1] == '>')   /* <built-in>, <command line>, <scratch space>: no file */
        return 1;
#ifdef CUDA_DIR
    if (length > strlen(CUDA_DIR "/") && strncmp(name, CUDA_DIR "/", strlen(CUDA_DIR "/")) == 0 && !memmem(name, length, "..", 2))
        return 1;   /* the toolkit's own headers */
#endif
    for (int i = 0; i < name_count; i++)
        if (strlen(names[i]) == length && memcmp(name, names[i], length) == 0)
            return 1;
    return 0;
}

struct log_writer {
    char *text;
    size_t length, max;
    int full;
};

static void put(struct log_writer *w, const char *line, size_t length)
{
    if (w->full)
        return;
    const char *cut = SAY("(the rest of the compiler's messages is left out)", "（编译器的其余信息从略）");
    if (w->length + length + 1 + strlen(cut) + 1 > w->max) {
        line = cut, length = strlen(cut), w->full = 1;
    }
    memcpy(w->text + w->length, line, length);
    w->length += length;
    w->text[w->length++] = '\n';
    w->text[w->length] = 0;
}

char *clean_compiler_log(const char *log, const char *const *names, int name_count, size_t max_bytes)
{
    const char *left_out = SAY("(a message about a file other than the kernel's own is left out)", "（关于核函数自身以外文件的信息从略）");
    struct log_writer w = { malloc(max_bytes + 1), 0, max_bytes, 0 };
    if (!w.text)
        return NULL;
    w.text[0] = 0;
    int dropping = 0;
    for (const char *line = log; *line;) {
        size_t length = strcspn(line, "\n");
        const char *name = NULL;
        size_t name_length = message_file(line, length, &name);
        if (name_length) {
            int ours = our_file(name, name_length, names, name_count);
            if (!ours && !dropping)
                put(&w, left_out, strlen(left_out));
            dropping = !ours;
        }
        if (!dropping) {
            char *shown = visible_text(line, length);
            if (shown)
                put(&w, shown, strlen(shown));
            free(shown);
        }
        line += length + (line[length] == '\n');
    }
    while (w.length > 0 && w.text[w.length - 1] == '\n')
        w.text[--w.length] = 0;
    return w.text;
}
