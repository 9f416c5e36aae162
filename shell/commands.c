/*
** commands.c — colon commands at the prompt: one small function each, with
** its usage beside it, dispatched from a table; unique prefixes work.
*/
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>
#include "api.h"
#include "output.h"
#include "repl.h"
#include "session.h"

struct colon_command {
    const char *name;
    const char *usage, *usage_zh;
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
    if (*args) {   /* the topic as help()'s argument, never pasted into code */
        size_t length = strlen(args);
        int quoted = length >= 2 && args[0] == '"' && args[length - 1] == '"';
        lua_getglobal(session.L, "help");
        lua_pushlstring(session.L, args + quoted, length - 2 * quoted);
        session_report(session_call(1, 0), 0);
        return COMMAND_DONE;
    }
    out_printf(SAY("commands:\n", "命令：\n"));
    for (const struct colon_command *c = commands; c->name; c++)
        out_printf("  %-22s %s\n", c->name, SAY(c->usage, c->usage_zh));
    run_lua("help()");
    return COMMAND_DONE;
}

/* USAGE: :kernels — the kernel families with their summaries. */
static enum command_outcome command_kernels(const char *args)
{
    run_lua("print(kernels())");
    return COMMAND_DONE;
}

/* Calls core.labs.<function>(args) in protected mode, reporting any error. */
static enum command_outcome lab_call(const char *function, const char *args)
{
    session_push_core("labs", function);
    lua_pushstring(session.L, args);
    session_report(session_call(1, 0), 0);
    return COMMAND_DONE;
}

/* USAGE: :lab NAME — open a lab (where you left it), or an instructor's lab file. */
static enum command_outcome command_lab(const char *args)
{
    if (!*args) {
        out_printf(SAY("usage: :lab NAME (:labs lists them)\n", "用法：:lab 实验名（:labs 列出所有实验）\n"));
        return COMMAND_DONE;
    }
    return lab_call("open", args);
}

/* USAGE: :labs — the labs, with your progress. */
static enum command_outcome command_labs(const char *args) { return lab_call("list", args); }
/* USAGE: :next — the next step. */
static enum command_outcome command_next(const char *args) { return lab_call("next", args); }
/* USAGE: :back — the step before. */
static enum command_outcome command_back(const char *args) { return lab_call("back", args); }
/* USAGE: :hint — the next hint for this step. */
static enum command_outcome command_hint(const char *args) { return lab_call("hint", args); }
/* USAGE: :answer VALUE — answer this step's question. */
static enum command_outcome command_answer(const char *args) { return lab_call("answer", args); }
/* USAGE: :where — which lab and step you are at, and the step again. */
static enum command_outcome command_where(const char *args) { return lab_call("where", args); }
/* USAGE: :run — run this step's experiment as it is. */
static enum command_outcome command_run_step(const char *args) { return lab_call("run", args); }
/* USAGE: :reset [NAME] — forget your progress in a lab (the open one by default). */
static enum command_outcome command_reset(const char *args) { return lab_call("reset", args); }

/* USAGE: :quit — leave warplab (as Ctrl-D does). */
static enum command_outcome command_quit(const char *args)
{
    return COMMAND_QUIT;
}

static const struct colon_command commands[] = {
    { ":help", "[topic]  commands and the API overview, or one topic", "[主题]  命令和接口概览，或单个主题", command_help },
    { ":kernels", "kernel families and what each shows", "内核族及各自展示的内容", command_kernels },
    { ":labs", "the labs, with your progress", "实验列表及你的进度", command_labs },
    { ":lab", "NAME  open a lab where you left it", "实验名  打开实验，从上次离开的地方继续", command_lab },
    { ":next", "the lab's next step", "实验的下一步", command_next },
    { ":back", "the step before", "上一步", command_back },
    { ":hint", "the next hint for this step", "本步的下一条提示", command_hint },
    { ":answer", "VALUE  answer this step's question", "答案  回答本步的问题", command_answer },
    { ":run", "run this step's experiment as it is", "按原样运行本步的实验代码", command_run_step },
    { ":where", "which lab and step you are at", "你所在的实验和步", command_where },
    { ":reset", "[NAME]  forget your progress in a lab", "[实验名]  清除某个实验的进度", command_reset },
    { ":quit", "leave warplab (Ctrl-D does too)", "退出 warplab（Ctrl-D 也可以）", command_quit },
    { NULL, NULL, NULL, NULL },
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
    const char *args = line + length;
    args += strspn(args, " \t");
    const struct colon_command *c = find_command(line, length);
    return c ? c->run(args) : COMMAND_DONE;
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
