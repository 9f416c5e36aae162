/*
** main.c — the command line: options (read as options.c's table says), then
** one of REPL, -e code, a script file or a script on stdin. Exit status: 0
** success, 1 a script raised an error, 2 a usage error.
*/
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lauxlib.h>
#include "compile/device_compile.h"
#include "repl/options.h"
#include "output.h"
#include "model/profiles.h"
#include "model/params.h"
#include "model/registry.h"
#include "repl/repl.h"
#include "api/session.h"

static void print_families(void)
{
    for (int i = 0; i < family_count; i++)
        printf("%-13s %s\n", families[i]->name,
               SAY(families[i]->summary, families[i]->summary_zh ? families[i]->summary_zh : families[i]->summary));
}

/* Text in a markdown table cell: a | would end the cell. */
static void print_cell(const char *text)
{
    for (; *text; text++)
        fputs(*text == '|' ? "\\|" : (char[]){ *text, 0 }, stdout);
}

static void print_default(const struct param_decl *d)
{
    if (d->type == PARAM_CHOICE)
        printf("`\"%s\"`", d->choices[d->fallback]);
    else if (d->type == PARAM_SHAPE)
        printf("`{%d, %d}`", SHAPE_X(d->fallback), SHAPE_Y(d->fallback));
    else if (d->type == PARAM_FLOAT)
        printf("%g", PARAM_FLOAT_VALUE(d->fallback));
    else
        printf("%lld", d->fallback);
}

/* --list --format markdown: every family's parameters, as docs/kernels.md
   holds them between its "generated" marks (tests/house/docs.sh compares the two). */
static void print_families_markdown(void)
{
    static const char *const type_names[] = { "integer", "string", "block shape" };
    char allowed[256];
    for (int i = 0; i < family_count; i++) {
        const struct family *f = families[i];
        printf(SAY("%s### `%s`\n\n%s. *Teaches:* %s.\n\n", "%s### `%s`\n\n%s。*教学要点：*%s。\n\n"), i ? "\n" : "", f->name,
               SAY(f->summary, f->summary_zh), SAY(f->teaches, f->teaches_zh));
        printf(SAY("| param | type | default | allowed | meaning |\n", "| 参数 | 类型 | 默认值 | 取值 | 含义 |\n"));
        printf("|---|---|---|---|---|\n");
        for (int k = 0; k < f->param_count; k++) {
            const struct param_decl *d = &f->params[k];
            param_describe(d, allowed, sizeof allowed);
            printf("| `%s` | %s | ", d->name, type_names[d->type]);
            print_default(d);
            printf(" | ");
            print_cell(allowed);
            printf(" | ");
            print_cell(SAY(d->doc, d->doc_zh));
            printf(" |\n");
        }
    }
}

/* The global `arg`, as lua.c makes it: arg[0] the script, arg[1..] its arguments. */
static void set_script_args(int argc, char **argv, const struct options *o)
{
    lua_State *L = session.L;
    lua_createtable(L, argc, 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - (o->script ? o->script_index : argc));
    }
    lua_setglobal(L, "arg");
}

static int run_code(const char *code, const char *chunk_name)
{
    int status = session_run(code, chunk_name, 0);
    session_report(status, 1);
    return status == LUA_OK ? 0 : EXIT_SCRIPT_ERROR;
}

/* Reads a whole stream into *size bytes (and a NUL after them); NULL with
   errno set when it cannot (a directory: EISDIR). */
static char *read_all(FILE *stream, size_t *size)
{
    size_t capacity = 65536, got;
    char *text = malloc(capacity);
    *size = 0;
    while (text && (got = fread(text + *size, 1, capacity - *size - 1, stream)) > 0) {
        *size += got;
        if (capacity - *size < 4096) {
            char *bigger = realloc(text, capacity *= 2);
            if (!bigger)
                free(text);
            text = bigger;
        }
    }
    if (!text) {
        errno = ENOMEM;
        return NULL;
    }
    if (ferror(stream)) {
        int error = errno ? errno : EIO;
        free(text);
        errno = error;
        return NULL;
    }
    text[*size] = 0;
    return text;
}

/* The line a NUL byte is on, or 0 when text has none: a script is text, and
   what follows a NUL would silently not run. */
static int nul_line(const char *text, size_t size)
{
    const char *nul = memchr(text, 0, size);
    int line = 1;
    if (!nul)
        return 0;
    for (const char *c = text; c < nul; c++)
        line += *c == '\n';
    return line;
}

static int run_stream(FILE *stream, const char *chunk_name)
{
    size_t size;
    errno = 0;
    char *text = read_all(stream, &size);
    if (!text) {
        notice(SAY("cannot read %s: %s", "无法读取 %s：%s"), chunk_name + 1, error_text(errno));
        return EXIT_SCRIPT_ERROR;
    }
    int line = nul_line(text, size);
    if (line) {
        notice(SAY("%s:%d: a NUL byte: a script must be text (nothing was run)", "%s:%d: 含有 NUL 字节：脚本必须是文本（什么都没有运行）"), chunk_name + 1, line);
        free(text);
        return EXIT_SCRIPT_ERROR;
    }
    const char *code = text;
    if (code[0] == '#')
        code += strcspn(code, "\n");   /* a #! line */
    int status = run_code(code, chunk_name);
    free(text);
    return status;
}

static int run_script(const char *path)
{
    char chunk_name[4096];
    if (strcmp(path, "-") == 0)   /* standard input, as lua.c reads it */
        return run_stream(stdin, "=stdin");
    FILE *file = fopen(path, "r");
    if (!file) {
        notice(SAY("cannot open %s: %s", "无法打开 %s：%s"), path, error_text(errno));
        return EXIT_SCRIPT_ERROR;
    }
    snprintf(chunk_name, sizeof chunk_name, "@%s", path);
    int status = run_stream(file, chunk_name);
    fclose(file);
    return status;
}

/* Calls core.labs.<function>(argument, second[, save, third]) in protected
   mode (save and third only when save is 0 or 1); its first result's truth,
   or -1 on an error. */
static int call_labs(const char *function, const char *argument, const char *second, const char *third, int save,
                     int to_stderr)
{
    lua_State *L = session.L;
    session_push_core("labs", function);
    lua_pushstring(L, argument);
    lua_pushstring(L, second);
    if (save >= 0) {
        lua_pushboolean(L, save);
        lua_pushstring(L, third);
    }
    int status = session_call(save >= 0 ? 4 : 2, 1);
    if (status != LUA_OK) {
        session_report(status, to_stderr);
        return -1;
    }
    int truth = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return truth;
}

/* core.grade(folder, report, slurm, lab, time_limit, deadline): the class's report; 0
   when every file was graded, 1 when some were not or the grading failed. */
static int call_grade(const struct options *o)
{
    lua_State *L = session.L;
    session_push_core(NULL, "grade");
    lua_pushstring(L, o->grade);
    lua_pushstring(L, o->report);
    lua_pushstring(L, o->slurm);
    lua_pushstring(L, o->lab);
    if (o->time_limit > 0)
        lua_pushnumber(L, o->time_limit);
    else
        lua_pushnil(L);
    lua_pushstring(L, o->deadline);
    int status = session_call(6, 1);
    if (status != LUA_OK) {
        session_report(status, 1);
        return EXIT_SCRIPT_ERROR;
    }
    int clean = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return clean ? 0 : EXIT_SCRIPT_ERROR;
}

/* $XDG_CONFIG_HOME/warplab/init.lua (or ~/.config/...) into path; 0, or -1 without a home. */
static int init_file(char *path, size_t size)
{
    const char *config = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    if (config && *config)
        snprintf(path, size, "%s/warplab/init.lua", config);
    else if (home && *home)
        snprintf(path, size, "%s/.config/warplab/init.lua", home);
    else
        return -1;
    return 0;
}

/* What runs before anything else, as lua.c runs LUA_INIT: LUA_INIT_5_4, else
   LUA_INIT (code, or @FILE), then the student's init.lua when there is one,
   all with the session's full rights. An error in them is reported and the
   session goes on: a bad init file must not lock anyone out. */
static void run_init(void)
{
    const char *name = "=LUA_INIT_5_4", *init = getenv("LUA_INIT_5_4");
    char path[4096];
    if (!init || !*init)
        name = "=LUA_INIT", init = getenv("LUA_INIT");
    if (init && *init && init[0] == '@')
        run_script(init + 1);
    else if (init && *init)
        run_code(init, name);
    FILE *exists = init_file(path, sizeof path) == 0 ? fopen(path, "r") : NULL;
    if (exists) {
        fclose(exists);
        run_script(path);
    }
}

static int run(int argc, char **argv, const struct options *o)
{
    set_script_args(argc, argv, o);
    if (!o->no_init)
        run_init();
    if (o->answers && !o->lab)
        return usage_error(SAY("--answers goes with --lab NAME%s", "--answers 须与 --lab NAME 同用%s"), "");
    if (o->save && !(o->lab && o->answers))
        return usage_error(SAY("--save goes with --lab NAME --answers FILE%s", "--save 须与 --lab NAME --answers FILE 同用%s"), "");
    const char *student = getenv("WARPLAB_STUDENT");
    if (student && *student && !valid_student_id(student))
        return usage_error(SAY("$WARPLAB_STUDENT must be an ID of letters, digits, '.', '_', '-' or '@' (at most 64), not '%s'",
                               "$WARPLAB_STUDENT 必须是由字母、数字、'.'、'_'、'-' 或 '@' 组成的学号（至多 64 个字符），而不是 '%s'"),
                           student);
    if ((o->report || o->slurm || o->time_limit > 0 || o->deadline) && !o->grade)
        return usage_error(SAY("--report, --slurm, --time-limit and --deadline go with --grade DIR%s",
                               "--report、--slurm、--time-limit 和 --deadline 须与 --grade 文件夹 同用%s"), "");
    if (o->grade && (o->answers || o->submit || o->save))
        return usage_error(SAY("--grade DIR takes --lab FILE, not --answers, --submit or --save%s",
                               "--grade 文件夹 可与 --lab 文件 同用，但不能与 --answers、--submit 或 --save 同用%s"), "");
    if (o->grade)
        return call_grade(o);
    if (o->students && !o->check_lab)
        return usage_error(SAY("--students goes with --check-lab LAB%s", "--students 须与 --check-lab 实验 同用%s"), "");
    char students[16];
    snprintf(students, sizeof students, "%d", o->students);
    if (o->check_lab)
        return call_labs("check", o->check_lab, o->students ? students : NULL, NULL, -1, 1) == 1 ? 0 : EXIT_SCRIPT_ERROR;
    if (o->release_lab && !o->script)
        return usage_error(SAY("--release-lab LAB OUT needs OUT, the file to write the students' copy to%s",
                               "--release-lab 实验 输出 需要输出：写入学生版本的文件%s"), "");
    if (o->release_lab)
        return call_labs("release", o->release_lab, o->script, NULL, -1, 1) == 1 ? 0 : EXIT_SCRIPT_ERROR;
    if (o->submit && !(o->lab && o->answers))
        return usage_error(SAY("--submit goes with --lab NAME --answers FILE (at the prompt: :submit)%s",
                               "--submit 须与 --lab 实验名 --answers 文件 同用（在提示符下用 :submit）%s"), "");
    if (o->lab && o->answers)
        return call_labs("batch", o->lab, o->answers, o->submit, o->save, 1) == 1 ? 0 : EXIT_SCRIPT_ERROR;
    if (o->lab && call_labs("open", o->lab, NULL, NULL, -1, 1) < 0)
        return EXIT_SCRIPT_ERROR;
    if (o->code_count || o->script || !isatty(STDIN_FILENO)) {
        if (session.backend_notice[0])
            notice("%s", session.backend_notice);
        for (int i = 0; i < o->code_count; i++)
            if (run_code(o->code[i], "=(command line)") != 0)
                return EXIT_SCRIPT_ERROR;
        if (o->script)
            return run_script(o->script);
        if (o->code_count == 0)
            return run_stream(stdin, "=stdin");
        return 0;
    }
    return repl_run();
}

/* The exit status once stdout is flushed and closed: a write that failed
   (a full disk, /dev/full) is one line on stderr and status 1. */
static int finish(int status)
{
    int error = out_finish();
    if (error) {
        notice(SAY("cannot write to standard output: %s", "无法写入标准输出：%s"), error_text(error));
        return status ? status : EXIT_SCRIPT_ERROR;
    }
    return status;
}

int main(int argc, char **argv)
{
    struct options options = { 0 };
    if (argc > 1 && strcmp(argv[1], COMPILE_CHILD_OPTION) == 0)   /* before anything else: a compile, and nothing more */
        return compile_child_main(argc, argv);
    setlocale(LC_CTYPE, "");   /* the terminal's character set: UTF-8 symbols or ASCII, and readline's input */
    snprintf(text_language, sizeof text_language, "%s", options_language(argc, argv));
    int finished = options_parse(argc, argv, &options);
    if (finished >= 0)
        return finish(finished);
    if (getenv("WARPLAB_TEST_KERNELS") && strcmp(getenv("WARPLAB_TEST_KERNELS"), "1") == 0)
        registry_enable_test_families();
    int markdown = options.format && strcmp(options.format, "markdown") == 0;
    if (options.list) {
        (markdown ? print_families_markdown : print_families)();
        return finish(0);
    }
    if (markdown)
        return usage_error(SAY("--format markdown goes with --list%s", "--format markdown 须与 --list 同用%s"), "");
    if (options.gpu_server)
        return gpu_server_run(options.ordinal);
    if (!options.gpu_command && getenv("WARPLAB_GPU_COMMAND") && *getenv("WARPLAB_GPU_COMMAND"))
        options.gpu_command = getenv("WARPLAB_GPU_COMMAND");
    char why[256];
    if (options.gpu_command && !options.force_sim && gpu_process_use_command(options.gpu_command, why, sizeof why) != 0)
        return usage_error("%s", why);
    if (repl_open_session(options.force_sim, options.ordinal, options.profile) != 0)
        return EXIT_SCRIPT_ERROR;
    out_set_format(options.format ? options.format : "table");
    int status = run(argc, argv, &options);
    session_close();
    return finish(status);
}
