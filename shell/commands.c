/*
** commands.c — colon commands at the prompt: one small function each, with
** its usage beside it, dispatched from a table; unique prefixes work.
*/
#include <stdio.h>
#include <string.h>
#include "output.h"
#include "repl.h"
#include "session.h"

struct colon_command {
    const char *name;
    const char *usage;
    enum command_outcome (*run)(const char *args);
};

static const struct colon_command commands[];

/* Runs a line of Lua for a command and reports its error, if any. */
static void run_lua(const char *code)
{
    session_report(session_run(code, "=command", 0), 0);
}

/* USAGE: :help — the commands, then the Lua overview. */
static enum command_outcome command_help(const char *args)
{
    if (*args) {
        char code[256];
        snprintf(code, sizeof code, "help(%.200s%s%s)", *args == '"' ? "" : "\"", args,
                 *args == '"' ? "" : "\"");
        run_lua(code);
        return COMMAND_DONE;
    }
    out_printf("commands:\n");
    for (const struct colon_command *c = commands; c->name; c++)
        out_printf("  %-22s %s\n", c->name, c->usage);
    run_lua("help()");
    return COMMAND_DONE;
}

/* USAGE: :kernels — the kernel families with their summaries. */
static enum command_outcome command_kernels(const char *args)
{
    run_lua("print(kernels())");
    return COMMAND_DONE;
}

/* USAGE: :quit — leave warplab (as Ctrl-D does). */
static enum command_outcome command_quit(const char *args)
{
    return COMMAND_QUIT;
}

static const struct colon_command commands[] = {
    { ":help", "[topic]  commands and the API overview, or one topic", command_help },
    { ":kernels", "kernel families and what each shows", command_kernels },
    { ":quit", "leave warplab (Ctrl-D does too)", command_quit },
    { NULL, NULL, NULL },
};

const char *const command_names[] = { ":help", ":kernels", ":quit", NULL };

/* The command that name (with its colon) is a unique prefix of, or NULL with a message printed. */
static const struct colon_command *find_command(const char *name, size_t length)
{
    const struct colon_command *found = NULL;
    int matches = 0;
    for (const struct colon_command *c = commands; c->name; c++) {
        if (strlen(c->name) == length && strncmp(c->name, name, length) == 0)
            return c;
        if (strncmp(c->name, name, length) == 0) {
            found = c;
            matches++;
        }
    }
    if (matches == 1)
        return found;
    out_printf("error: %s command '%.*s' (commands:", matches ? "ambiguous" : "unknown", (int)length, name);
    for (const struct colon_command *c = commands; c->name; c++)
        if (!matches || strncmp(c->name, name, length) == 0)
            out_printf(" %s", c->name);
    out_printf(")\n");
    return NULL;
}

enum command_outcome command_run(const char *line)
{
    size_t length = strcspn(line, " \t");
    const char *args = line + length;
    args += strspn(args, " \t");
    const struct colon_command *c = find_command(line, length);
    return c ? c->run(args) : COMMAND_DONE;
}
