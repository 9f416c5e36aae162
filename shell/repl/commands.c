/*
** commands.c — colon commands at the prompt, one table of them: each
** command's name, usage and what runs it; unique prefixes work.
*/
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>
#include "output.h"
#include "repl/repl.h"
#include "api/session.h"

/* A command's usage is written once, here: :help, help("commands") and the
   message for a missing argument all print it from this table. */
struct colon_command {
    const char *name;
    const char *usage, *usage_zh;     /* "[topic]  what it does": arguments, two spaces, then what */
    enum command_outcome (*run)(const struct colon_command *c, const char *args);
    const char *lab_function;         /* lab commands: core.labs.<this>(args) runs it */
    int needs_argument;               /* without one, the command prints its usage */
};

static const struct colon_command commands[];

/* Runs a line of Lua for a command and reports its error, if any. */
static void run_lua(const char *code)
{
    session_report(session_run(code, "=command", 0), 0);
}

static void print_usage(const struct colon_command *c)
{
    out_printf(SAY("usage: %s %s\n", "用法：%s %s\n"), c->name, SAY(c->usage, c->usage_zh));
}

/* One command's line in :help and help("commands"). */
static const char *command_line(const struct colon_command *c, char *line, size_t size)
{
    snprintf(line, size, "  %-10s %s\n", c->name, SAY(c->usage, c->usage_zh));
    return line;
}

static enum command_outcome command_help(const struct colon_command *c, const char *args)
{
    if (*args) {   /* the topic as help()'s argument, never pasted into code */
        size_t length = strlen(args);
        int quoted = length >= 2 && args[0] == '"' && args[length - 1] == '"';
        lua_getglobal(session.L, "help");
        lua_pushlstring(session.L, args + quoted, length - 2 * quoted);
        session_report(session_call(1, 0), 0);
        return COMMAND_DONE;
    }
    char line[256];
    out_printf(SAY("commands:\n", "命令：\n"));
    for (const struct colon_command *command = commands; command->name; command++)
        out_printf("%s", command_line(command, line, sizeof line));
    run_lua("help()");
    return COMMAND_DONE;
}

static enum command_outcome command_kernels(const struct colon_command *c, const char *args)
{
    run_lua("print(kernels())");
    return COMMAND_DONE;
}

/* A lab command: core.labs.<c->lab_function>(args), in protected mode. */
static enum command_outcome command_lab(const struct colon_command *c, const char *args)
{
    if (c->needs_argument && !*args) {
        print_usage(c);
        return COMMAND_DONE;
    }
    session_push_core("labs", c->lab_function);
    lua_pushstring(session.L, args);
    session_report(session_call(1, 0), 0);
    return COMMAND_DONE;
}

/* :edit [NAME]: edit(NAME), or edit() for the lab step's kernel; the name as an argument, never pasted into code. */
static enum command_outcome command_edit(const struct colon_command *c, const char *args)
{
    lua_getglobal(session.L, "edit");
    if (*args)
        lua_pushstring(session.L, args);
    session_report(session_call(*args ? 1 : 0, 0), 0);
    return COMMAND_DONE;
}

/* :lines: lines(), the last result's traffic by source line. */
static enum command_outcome command_lines(const struct colon_command *c, const char *args)
{
    lua_getglobal(session.L, "lines");
    session_report(session_call(0, 0), 0);
    return COMMAND_DONE;
}

static enum command_outcome command_quit(const struct colon_command *c, const char *args)
{
    return COMMAND_QUIT;
}

#define LAB_COMMAND(command, function, ...) \
    { .name = command, .run = command_lab, .lab_function = function, __VA_ARGS__ }

static const struct colon_command commands[] = {
    { .name = ":help", .usage = "[topic]  commands and the API overview, or one topic",
      .usage_zh = "[主题]  命令和接口概览，或单个主题", .run = command_help },
    { .name = ":kernels", .usage = "kernel families and what each shows", .usage_zh = "核函数族及各自展示的内容",
      .run = command_kernels },
    LAB_COMMAND(":labs", "list", .usage = "the labs, with your progress", .usage_zh = "实验列表及你的进度"),
    LAB_COMMAND(":lab", "open", .usage = "NAME  open a lab where you left it, or a lab file; :lab reload reads the open one again",
                .usage_zh = "实验名  打开实验，从上次离开的地方继续；也可以是实验文件；:lab reload 重新读取打开的实验", .needs_argument = 1),
    LAB_COMMAND(":next", "next", .usage = "the lab's next step", .usage_zh = "实验的下一步"),
    LAB_COMMAND(":back", "back", .usage = "the step before", .usage_zh = "上一步"),
    LAB_COMMAND(":hint", "hint", .usage = "the next hint for this step", .usage_zh = "本步的下一条提示"),
    LAB_COMMAND(":answer", "answer", .usage = "VALUE  answer this step's question", .usage_zh = "答案  回答本步的问题"),
    LAB_COMMAND(":run", "run", .usage = "run this step's experiment as it is", .usage_zh = "按原样运行本步的实验代码"),
    LAB_COMMAND(":where", "where", .usage = "which lab and step you are at, and the step again",
                .usage_zh = "你所在的实验和步，并再显示这一步"),
    LAB_COMMAND(":submit", "submit", .usage = "[FILE]  write your submission of the open lab (LAB-ID.json here, or FILE or a folder)",
                .usage_zh = "[文件]  写出你对打开的实验的提交（默认写到当前文件夹的 实验-学号.json，或写到文件或文件夹）"),
    LAB_COMMAND(":reset", "reset", .usage = "[NAME]  forget your progress in a lab and your sources of its kernels (the open one by default)",
                .usage_zh = "[实验名]  清除某个实验的进度和你的核函数源代码（默认是打开的那个）"),
    { .name = ":edit", .usage = "[NAME]  a kernel of your own in $VISUAL or $EDITOR, compiled again when you quit it (the lab step's by default)",
      .usage_zh = "[名字]  在 $VISUAL 或 $EDITOR 中编辑你自己的核函数，退出编辑器后重新编译（默认是实验步骤中的那个）", .run = command_edit },
    { .name = ":lines", .usage = "the last launch's traffic by source line, the worst lines and why",
      .usage_zh = "最近一次启动按源代码行统计的访存流量、最差的行及原因", .run = command_lines },
    { .name = ":quit", .usage = "leave warplab (Ctrl-D does too)", .usage_zh = "退出 warplab（Ctrl-D 也可以）",
      .run = command_quit },
    { .name = NULL },
};

const char *command_name(int i)
{
    return commands[i].name;
}

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
    if (matches)
        out_printf(SAY("error: ambiguous command '%.*s' (commands:", "错误：命令 '%.*s' 有歧义（可能是："), (int)length, name);
    else
        out_printf(SAY("error: unknown command '%.*s' (commands:", "错误：未知命令 '%.*s'（命令："), (int)length, name);
    for (const struct colon_command *c = commands; c->name; c++)
        if (!matches || strncmp(c->name, name, length) == 0)
            out_printf(" %s", c->name);
    out_printf(SAY(")\n", "）\n"));
    return NULL;
}

enum command_outcome command_run(const char *line)
{
    size_t length = strcspn(line, " \t");
    char args[4096];   /* without the blanks around it: Tab's completion leaves one after a name */
    const char *from = line + length + strspn(line + length, " \t");
    size_t size = strlen(from);
    while (size > 0 && (from[size - 1] == ' ' || from[size - 1] == '\t'))
        size--;
    snprintf(args, sizeof args, "%.*s", (int)size, from);
    const struct colon_command *c = find_command(line, length);
    return c ? c->run(c, args) : COMMAND_DONE;
}

/* core.command(line): runs a colon command as if typed at the prompt, for
   scripts and tests; true when it asks to quit. */
int command_lua(lua_State *L)
{
    const char *line = luaL_checkstring(L, 1);
    luaL_argcheck(L, line[0] == ':', 1, SAY("a colon command such as ':help' expected", "需要一个冒号命令，例如 ':help'"));
    lua_pushboolean(L, command_run(line) == COMMAND_QUIT);
    return 1;
}

/* core.commands_text(): the commands, one a line with their usage, for help("commands"). */
int command_list_lua(lua_State *L)
{
    luaL_Buffer b;
    char line[256];
    luaL_buffinit(L, &b);
    for (const struct colon_command *c = commands; c->name; c++)
        luaL_addstring(&b, command_line(c, line, sizeof line));
    luaL_pushresult(&b);
    return 1;
}
