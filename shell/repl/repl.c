/*
** repl.c — the read-eval-print loop, after lua.c: a line is first tried as
** `return <line>` so expressions print; a chunk whose syntax error ends at
** <eof> keeps reading (multi-line input). Readline runs through its
** callback interface so that Ctrl-C at the prompt cancels the line cleanly.
*/
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>
#include <readline/readline.h>
#include <readline/history.h>
#include <lauxlib.h>
#include "api/api.h"
#include "backend/backend.h"
#include "model/profiles.h"
#include "interrupt.h"
#include "output.h"
#include "paths.h"
#include "repl/repl.h"
#include "api/session.h"

static const char *const PROMPT = "> ", *const CONTINUATION_PROMPT = ">> ";
enum { HISTORY_LENGTH = 1000 };

enum read_status { READ_LINE, READ_EOF, READ_INTERRUPTED };

static struct {
    char *line;
    int done;
} reading;

static void on_line(char *line)
{
    reading.line = line;
    reading.done = 1;
    rl_callback_handler_remove();
}

/* Throws away the half-typed line after Ctrl-C. */
static void cancel_line(void)
{
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_callback_handler_remove();
    out_write("\n", 1);
}

/* SIGINT is blocked while a line is read, except inside the two waits for
   input below (ours and readline's), so a Ctrl-C always ends a wait instead
   of landing where it could be lost. */
static sigset_t unblocked_mask;

/* A key readline gets when Ctrl-C ended its own wait for a byte; it is bound
   to nothing, and read_line sees the flag and cancels the line. */
enum { INTERRUPT_KEY = 0x1e };

static int wait_for_input(void)
{
    fd_set input;
    FD_ZERO(&input);
    FD_SET(fileno(rl_instream), &input);
    return pselect(fileno(rl_instream) + 1, &input, NULL, NULL, NULL, &unblocked_mask);
}

/* Reads a byte without waiting: a Ctrl-C makes the terminal throw typed-ahead
   input away, so a byte select() saw may be gone by the time it is read. The
   read goes through a second, non-blocking handle on the same terminal, so
   stdin (which shares its flags with stdout) stays as it was. */
static ssize_t read_without_waiting(int fd, unsigned char *byte)
{
    static int nonblocking_fd = -2;
    if (nonblocking_fd == -2) {
        const char *name = ttyname(fd);
        nonblocking_fd = name ? open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -1;
    }
    return read(nonblocking_fd >= 0 ? nonblocking_fd : fd, byte, 1);
}

/* readline's byte reader: like its own, but a Ctrl-C while it waits returns INTERRUPT_KEY. */
static int read_byte(FILE *stream)
{
    unsigned char byte;
    for (;;) {
        if (interrupt_requested)
            return INTERRUPT_KEY;
        if (wait_for_input() < 0) {
            if (errno == EINTR)
                continue;
            return EOF;
        }
        if (interrupt_requested)
            return INTERRUPT_KEY;
        ssize_t got = read_without_waiting(fileno(stream), &byte);
        if (got == 1)
            return byte;
        if (got == 0 || (errno != EINTR && errno != EAGAIN))
            return EOF;
    }
}

static int ignore_key(int count, int key)
{
    return 0;
}

/* Reads one line at prompt; Ctrl-C returns READ_INTERRUPTED. */
static enum read_status read_line(const char *prompt, char **line)
{
    sigset_t sigint;
    enum read_status status = READ_LINE;
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    sigprocmask(SIG_BLOCK, &sigint, &unblocked_mask);
    sigdelset(&unblocked_mask, SIGINT);
    reading.line = NULL;
    reading.done = 0;
    if (!interrupt_requested)
        rl_callback_handler_install(prompt, on_line);
    while (!reading.done && !interrupt_requested) {
        if (wait_for_input() < 0) {
            if (errno != EINTR) {
                status = READ_EOF;
                break;
            }
            continue;
        }
        rl_callback_read_char();
    }
    if (interrupt_requested && status == READ_LINE) {
        interrupt_clear(session.L);
        if (reading.done)
            free(reading.line);
        else
            cancel_line();
        status = READ_INTERRUPTED;
    }
    sigprocmask(SIG_UNBLOCK, &sigint, NULL);
    if (status != READ_LINE)
        return status;
    *line = reading.line;
    rl_eof_found = 0;   /* else readline 8.2 keeps treating later lines as after EOF */
    return reading.line ? READ_LINE : READ_EOF;
}

/* $XDG_STATE_HOME/warplab/history; NULL when there is no home. */
static char *history_path(void)
{
    static char path[4096];
    return xdg_file("XDG_STATE_HOME", ".local/state", "history", path, sizeof path) ? NULL : path;
}

/* Says once in a session that the history is not being saved, and why (a read-only state
   folder, no home): the student should not find out when it is gone. */
static void history_not_saved(const char *path, int error)
{
    static int said;
    if (said++)
        return;
    if (!path)
        notice(SAY("note: your command history is not saved: there is no home folder (set HOME or XDG_STATE_HOME)",
                   "提示：命令历史不会保存：没有主目录（请设置 HOME 或 XDG_STATE_HOME）"));
    else
        notice(SAY("note: your command history is not saved (%s: %s)", "提示：命令历史没有保存（%s：%s）"), path,
               error_text(error));
}

/* Adds a chunk to the history and appends it to the file at once, so a crash loses nothing. */
static void remember(const char *chunk, const char *path)
{
    add_history(chunk);
    if (!path) {
        history_not_saved(NULL, 0);
        return;
    }
    if (append_history(1, path) == 0)
        return;
    int error = write_history(path);   /* the file did not exist yet */
    if (error)
        history_not_saved(path, error);
}

/* Whether the error on top of the stack says the chunk is merely unfinished. */
static int is_incomplete(int status)
{
    static const char eof_mark[] = "<eof>";
    size_t mark = sizeof eof_mark - 1, length;
    const char *message;
    if (status != LUA_ERRSYNTAX)
        return 0;
    message = lua_tolstring(session.L, -1, &length);
    if (length >= mark && strcmp(message + length - mark, eof_mark) == 0) {
        lua_pop(session.L, 1);
        return 1;
    }
    return 0;
}

/* Loads `prefix return suffix;` (the suffix from split onwards); LUA_OK or the error, popped. */
static int load_with_return(const char *chunk, size_t split)
{
    size_t size = strlen(chunk) + 16;
    char *text = malloc(size);
    if (!text)
        return LUA_ERRMEM;
    snprintf(text, size, "%.*s return %s;", (int)split, chunk, chunk + split);
    int status = session_load(text, "=stdin");
    free(text);
    if (status != LUA_OK)
        lua_pop(session.L, 1);
    return status;
}

/* Where the last statement of chunk starts, after its last ';' or line
   break with text after it; 0 when there is none. */
static size_t last_statement(const char *chunk)
{
    size_t end = strlen(chunk);
    while (end > 0 && strchr(" \t\r\n;", chunk[end - 1]))
        end--;
    for (size_t at = end; at > 0; at--)
        if (chunk[at - 1] == ';' || chunk[at - 1] == '\n')
            return at;
    return 0;
}

/* Whether text parses as an expression on its own (`return text`). */
static int is_expression(const char *text)
{
    return load_with_return(text, 0) == LUA_OK && (lua_pop(session.L, 1), 1);
}

/* Loads chunk as `return <chunk>` if that parses, else as statements whose
   last one, an expression on its own after a ';' or a line break, is
   returned, so that it prints as lua.c prints a line's expression
   (`r = launch(...); r`, `rs = sweep(...); compare(rs[1], rs[2])`, a pasted
   block ending in a call); else as plain statements. */
static int load_chunk(const char *chunk)
{
    if (chunk[0] == '=')   /* lua.c's =expr: the value of expr */
        chunk++;
    if (load_with_return(chunk, 0) == LUA_OK)
        return LUA_OK;
    int status = session_load(chunk, "=stdin");
    size_t split = last_statement(chunk);
    if ((status == LUA_OK || status == LUA_ERRSYNTAX) && split > 0 && is_expression(chunk + split) &&
        load_with_return(chunk, split) == LUA_OK) {
        lua_remove(session.L, -2);   /* the statements' function, or their syntax error */
        return LUA_OK;
    }
    return status;
}

int repl_load(const char *code)
{
    return load_chunk(code);
}

static int reading_lines;   /* the prompt is up: a history exists to offer lines to */

/* The lines labs offered in the history this session (never written to the
   history file): sent back unedited, one runs as the lab's code. */
static struct {
    char **lines;
    size_t count, capacity;
} offered;

static int is_offered(const char *line)
{
    for (size_t i = 0; i < offered.count; i++)
        if (strcmp(offered.lines[i], line) == 0)
            return 1;
    return 0;
}

/* Keeps a copy of line in the offered list; 0 when there is no memory for it. */
static int keep_offered(const char *line)
{
    if (is_offered(line))
        return 1;
    if (offered.count == offered.capacity) {
        size_t capacity = offered.capacity ? 2 * offered.capacity : 16;
        char **bigger = realloc(offered.lines, capacity * sizeof *bigger);
        if (!bigger)
            return 0;
        offered.lines = bigger;
        offered.capacity = capacity;
    }
    char *copy = strdup(line);
    if (!copy)
        return 0;
    offered.lines[offered.count++] = copy;
    return 1;
}

void repl_offer_history(const char *code)
{
    if (reading_lines && keep_offered(code))   /* a line that cannot be known again is not offered */
        add_history(code);
}

/* Reads lines until they form a loadable chunk (or a syntax error, or Ctrl-C);
   the loaded function or the error is left on the stack. */
static enum read_status read_chunk(char **chunk, int *status)
{
    char *line;
    enum read_status r = read_line(PROMPT, &line);
    if (r != READ_LINE)
        return r;
    *chunk = line;
    if (line[0] == ':' || is_offered(line))
        return READ_LINE;
    while (is_incomplete(*status = load_chunk(*chunk))) {
        r = read_line(CONTINUATION_PROMPT, &line);
        if (r != READ_LINE) {
            free(*chunk);
            return r == READ_EOF ? READ_INTERRUPTED : r;
        }
        size_t size = strlen(*chunk) + strlen(line) + 2;
        char *joined = malloc(size);
        snprintf(joined, size, "%s\n%s", *chunk, line);
        free(*chunk);
        free(line);
        *chunk = joined;
    }
    return READ_LINE;
}

/* Calls core.<name>(first, values...) on the count values above base, keeping them. */
static void call_core(const char *name, const char *first, int base, int count)
{
    session_push_core(NULL, name);
    int arguments = 0;
    if (first) {
        lua_pushstring(session.L, first);
        arguments++;
    }
    for (int i = 1; i <= count; i++)
        lua_pushvalue(session.L, base + i);
    session_report(session_call(arguments + count, 0), 0);
}

/* Tells the session record what a chunk or command printed (core.<name>(input, printed)). */
static void report_printed(const char *name, const char *input)
{
    size_t length;
    const char *printed = out_tee_stop(&length);
    session_push_core(NULL, name);
    lua_pushstring(session.L, input);
    lua_pushlstring(session.L, printed, length);
    session_report(session_call(2, 0), 0);
}

/* Runs a line a lab offered, sent back unedited, as that lab's experiment:
   in its sandbox (core.labs.run_offered), kept for the session record. */
static void run_offered(const char *line)
{
    out_tee_start();
    session_push_core("labs", "run_offered");
    lua_pushstring(session.L, line);
    session_report(session_call(1, 0), 0);
    report_printed("chunk_done", line);
}

/* Runs the loaded chunk, lets record() see it, and shows what it returned through core.print_values. */
static void run_loaded(const char *chunk, int status)
{
    int base = lua_gettop(session.L) - 1;
    if (status == LUA_OK)
        status = session_call(0, LUA_MULTRET);
    if (status != LUA_OK) {
        session_report(status, 0);
        return;
    }
    int count = lua_gettop(session.L) - base;
    call_core("after_chunk", chunk, base, count);
    if (count > 0)
        call_core("print_values", NULL, base, count);
}

/* run_loaded, with what it printed kept for the session record. */
static void evaluate(const char *chunk, int status)
{
    out_tee_start();
    run_loaded(chunk, status);
    report_printed("chunk_done", chunk);
}

void repl_run_code(const char *code)
{
    int top = lua_gettop(session.L);
    evaluate(code, load_chunk(code));
    lua_settop(session.L, top);
}

static int blank(const char *text)
{
    return text[strspn(text, " \t\r\n")] == 0;
}

int repl_run(void)
{
    char *path = history_path();
    session_push_core(NULL, "banner");
    if (session_call(0, 1) == LUA_OK)
        out_printf("%s\n", lua_tostring(session.L, -1));
    lua_settop(session.L, 0);
    if (session.backend_notice[0])
        notice("%s", session.backend_notice);
    session_push_core(NULL, "start_journal");   /* the session's own record, kept as it goes */
    session_report(session_call(0, 0), 0);
    rl_catch_signals = 0;   /* Ctrl-C is ours: see read_line */
    rl_readline_name = "warplab";
    rl_getc_function = read_byte;
    rl_bind_key(INTERRUPT_KEY, ignore_key);
    complete_install();
    using_history();
    stifle_history(HISTORY_LENGTH);
    /* "#<time>" lines delimit entries in the file, so multi-line chunks stay whole */
    history_write_timestamps = 1;
    history_comment_char = '#';
    history_multiline_entries = 1;
    if (path)
        read_history(path);
    reading_lines = 1;
    for (;;) {
        char *chunk = NULL;
        int status = LUA_OK;
        enum read_status r = read_chunk(&chunk, &status);
        if (r == READ_EOF)
            break;
        if (r == READ_INTERRUPTED) {
            lua_settop(session.L, 0);
            continue;
        }
        if (is_offered(chunk)) {
            add_history(chunk);   /* not to the file: a later session would take it for the student's own */
            run_offered(chunk);
            free(chunk);
            lua_settop(session.L, 0);
            continue;
        }
        if (!blank(chunk))
            remember(chunk, path);
        if (chunk[0] == ':') {
            out_tee_start();
            enum command_outcome outcome = command_run(chunk);
            report_printed("command_done", chunk);
            free(chunk);
            if (outcome == COMMAND_QUIT)
                break;
            continue;
        }
        evaluate(chunk, status);
        free(chunk);
        lua_settop(session.L, 0);
    }
    if (path)
        history_truncate_file(path, HISTORY_LENGTH);
    return 0;
}

/* The prompt's own functions in the core table, for the lab runner and
   lua/: code run or loaded as if typed, the history, colon commands. */
/* core.run_student_code(code): runs code as if typed at the prompt, values printed. */
static int core_run_student_code(lua_State *L)
{
    repl_run_code(luaL_checkstring(L, 1));
    return 0;
}

/* core.load_experiment(code, env): code loaded as the prompt loads it, its
   globals in env (lab code's); the function, or nil and the syntax error. */
static int core_load_experiment(lua_State *L)
{
    size_t length;
    const char *code = luaL_checklstring(L, 1, &length);
    luaL_checktype(L, 2, LUA_TTABLE);
    if (memchr(code, 0, length))
        return luaL_error(L, SAY("the code holds a NUL byte", "代码中含有 NUL 字节"));
    if (repl_load(code) != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushvalue(L, 2);
    lua_setupvalue(L, -2, 1);   /* a main chunk's only upvalue is _ENV */
    return 1;
}

/* core.offer_history(code): at the prompt, puts code into the history, so Up recalls it to edit. */
static int core_offer_history(lua_State *L)
{
    repl_offer_history(luaL_checkstring(L, 1));
    return 0;
}

static const luaL_Reg prompt_functions[] = {
    { "run_student_code", core_run_student_code },
    { "load_experiment", core_load_experiment },
    { "offer_history", core_offer_history },
    { "command", command_lua },
    { "commands_text", command_list_lua },
    { NULL, NULL },
};

void repl_open_core(lua_State *L)
{
    api_open(L);
    luaL_setfuncs(L, prompt_functions, 0);
}

int repl_open_session(int force_sim, int ordinal, const struct device_profile *profile)
{
    struct device_info device = { 0 };
    char notice[256];
    const struct backend *backend = backend_choose(force_sim, ordinal, &device, notice, sizeof notice);
    if (!profile)   /* the GPU's own, or the H200 on the model */
        profile = backend->measures ? profile_for_device(&device) : &device_profiles[0];
    return session_open(backend, &device, notice, profile, repl_open_core);
}
