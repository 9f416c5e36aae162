/*
** usage.c — what the command line says about itself, written from the
** table of options (options.c): --help in two columns, --version, and for
** the build (--options-as) the man page's OPTIONS and the completion's list.
*/
#include <stdio.h>
#include <string.h>
#include <lua.h>
#include "repl/options.h"
#include "output.h"

#ifdef WARPLAB_BUG_ADDRESS
#define REPORT_BUGS_EN "Report bugs to: " WARPLAB_BUG_ADDRESS
#define REPORT_BUGS_ZH "报告问题：" WARPLAB_BUG_ADDRESS
#else   /* built without --with-bug-address: no tracker to name */
#define REPORT_BUGS_EN "Report bugs to whoever installed warplab (for a class: its instructor),"
#define REPORT_BUGS_ZH "报告问题：请告诉为你安装 warplab 的人（课程中即任课教师），"
#endif

/* --help above the options: how warplab is called without any. */
static const char help_head[] =
    "usage: warplab [options] [FILE.lua [args...]]\n"
    "  (no FILE)        the interactive shell on a terminal; a piped script\n"
    "  - [args...]      a script read from standard input; -- ends the options\n";

static const char help_head_zh[] =
    "用法：warplab [选项] [文件.lua [参数...]]\n"
    "  （不带文件）     在终端上进入交互式环境；从管道读入时运行其中的脚本\n"
    "  - [参数...]      运行从标准输入读入的脚本；-- 表示选项到此结束\n";

/* --help below the options: how values are written, the environment, the exit status. */
static const char help_tail[] =
    "Options take their value as --name value or --name=value, and any unique\n"
    "prefix of a name.\n"
    "\n"
    "Environment:\n"
    "  LC_ALL, LC_MESSAGES, LANG   the language (zh... for Chinese), unless --lang\n"
    "  WARPLAB_GPU_COMMAND         as --gpu-command\n"
    "  WARPLAB_MODEL_THREADS       threads for the model and the emulator\n"
    "                              (default: one per core, at most 16)\n"
    "  VISUAL, EDITOR              the editor :edit opens (else vi)\n"
    "  XDG_DATA_HOME               lab progress, your kernels' sources, labs/\n"
    "                              (default ~/.local/share)\n"
    "  XDG_STATE_HOME              history and session records\n"
    "                              (default ~/.local/state)\n"
    "  XDG_CACHE_HOME              compiled kernels and the copy ceiling\n"
    "                              (default ~/.cache)\n"
    "  XDG_CONFIG_HOME             warplab/init.lua, run at the start\n"
    "                              (default ~/.config)\n"
    "  LUA_INIT_5_4, LUA_INIT      Lua code (or @FILE) run at the start, as\n"
    "                              lua.c runs it\n"
    "  WARPLAB_STUDENT             as --student\n"
    "  WARPLAB_LABS_PATH           folders (a:b) of NAME.lua labs, beside the\n"
    "                              built-in ones and XDG_DATA_HOME/warplab/labs\n"
    "  WARPLAB_UNICODE             1 or 0: Unicode or ASCII glyphs, whatever\n"
    "                              the terminal\n"
    "Exit status: 0 success, 1 a script error (or a batch lab not all right),\n"
    "2 a usage error.\n"
    "\n"
    REPORT_BUGS_EN "\n"
    "with what warplab --version prints and the commands that went wrong.\n";

static const char help_tail_zh[] =
    "选项的值可以写成 --名字 值 或 --名字=值，名字也可以只写能唯一确定它的\n"
    "前缀。\n"
    "\n"
    "环境变量：\n"
    "  LC_ALL、LC_MESSAGES、LANG   语言（zh 开头即中文），除非给了 --lang\n"
    "  WARPLAB_GPU_COMMAND         同 --gpu-command\n"
    "  WARPLAB_MODEL_THREADS       访问模型和模拟器用的线程数\n"
    "                              （默认值：每个 CPU 核一个，至多 16 个）\n"
    "  VISUAL、EDITOR              :edit 打开的编辑器（否则用 vi）\n"
    "  XDG_DATA_HOME               实验进度、你的核函数源代码、labs/\n"
    "                              （默认值 ~/.local/share）\n"
    "  XDG_STATE_HOME              历史记录和会话记录\n"
    "                              （默认值 ~/.local/state）\n"
    "  XDG_CACHE_HOME              编译好的核函数和复制上限\n"
    "                              （默认值 ~/.cache）\n"
    "  XDG_CONFIG_HOME             启动时运行的 warplab/init.lua\n"
    "                              （默认值 ~/.config）\n"
    "  LUA_INIT_5_4、LUA_INIT      启动时运行的 Lua 代码（或 @文件），\n"
    "                              与 lua.c 一样\n"
    "  WARPLAB_STUDENT             同 --student\n"
    "  WARPLAB_LABS_PATH           存放 名字.lua 实验的文件夹（a:b），与内置实验和\n"
    "                              XDG_DATA_HOME/warplab/labs 中的实验并列\n"
    "  WARPLAB_UNICODE             1 或 0：不管终端如何，都用 Unicode 或\n"
    "                              ASCII 字符\n"
    "退出状态：0 成功，1 脚本出错（或批量运行的实验没有全对），2 用法错误。\n"
    "\n"
    REPORT_BUGS_ZH "\n"
    "请附上 warplab --version 的输出和出错的命令。\n";

/* --help's second column starts here; a first column that reaches it is
   followed by two blanks instead. */
enum { HELP_TEXT_COLUMN = 19 };

/* One option in --help: "  --name VALUE", then its text from the second
   column, each further line of it indented to that column. */
static void print_help_row(const struct option_decl *row)
{
    char label[128], spelling[64];
    const char *value = SAY(row->value, row->value_zh);
    snprintf(label, sizeof label, "  %s%s%s", option_spelling(row, spelling, sizeof spelling), value ? " " : "",
             value ? value : "");
    int columns = out_text_columns(label);
    printf("%s%*s", label, columns < HELP_TEXT_COLUMN ? HELP_TEXT_COLUMN - columns : 2, "");
    const char *text = SAY(row->help, row->help_zh);
    for (;;) {
        size_t length = strcspn(text, "\n");
        printf("%.*s\n", (int)length, text);
        if (!text[length])
            return;
        text += length + 1;
        printf("%*s", HELP_TEXT_COLUMN, "");   /* the next line, in the second column */
    }
}

int print_help(const char *unused, struct options *o)
{
    fputs(SAY(help_head, help_head_zh), stdout);
    for (int i = 0; i < option_count; i++)
        if (!option_table[i].hidden)
            print_help_row(&option_table[i]);
    fputs(SAY(help_tail, help_tail_zh), stdout);
    return 0;
}

int print_version(const char *unused, struct options *o)
{
#ifdef HAVE_CUDA
    const char *cuda = "CUDA " CUDA_VERSION_TEXT ": " CUDA_ARCH_TEXT;
#else
    const char *cuda = SAY("simulation only", "仅模拟");
#endif
    printf("warplab %s (%s, %s)\n", PACKAGE_VERSION, LUA_RELEASE, cuda);
    printf("%s\n", SAY("License GPLv3: GNU GPL version 3 <https://gnu.org/licenses/gpl.html> (the file COPYING).\n"
                       "This is free software: you are free to change and redistribute it. There is NO WARRANTY, to\n"
                       "the extent permitted by law.",
                       "许可证 GPLv3：GNU GPL 第 3 版 <https://gnu.org/licenses/gpl.html>（见 COPYING 文件）。\n"
                       "这是自由软件：你可以自由地修改和再发布它。在法律允许的范围内，不提供任何担保。"));
    return 0;
}

/* Text in roff, where a - is a hyphen and \- the minus of an option. */
static void print_roff_minus(const char *text)
{
    for (; *text; text++)
        fputs(*text == '-' ? "\\-" : (char[]){ *text, 0 }, stdout);
}

/* One option in the man page: ".TP", its name (and value: italic when it
   is a name in capitals, roman when lowercase words such as en|zh), its paragraph. */
static void print_man_row(const struct option_decl *row)
{
    char spelling[64];
    int words = row->value && strcspn(row->value, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == strlen(row->value);
    printf(".TP\n.%s ", !row->value ? "B" : words ? "BR" : "BI");
    print_roff_minus(option_spelling(row, spelling, sizeof spelling));
    if (row->value) {
        printf(" \" ");
        print_roff_minus(row->value);
        printf("\"");
    }
    printf("\n%s\n", row->man);
}

/* The words a value may be, each after a blank: its choices, or its names ("a, b" as " a b"). */
static void print_value_words(const struct option_decl *row)
{
    char names[512];
    for (const char *const *choice = row->choices; choice && *choice; choice++)
        printf(" %s", *choice);
    if (row->names) {
        putchar(' ');
        for (const char *c = row->names(names, sizeof names); *c; c++)
            if (*c != ',')
                putchar(*c);
    }
}

/* One option in the completion's list: "--lang words en zh": its spelling, what its value is
   (completion/warplab.in completes each), the words it may be. */
static void print_completion_row(const struct option_decl *row)
{
    static const char *const completions[] = {
        [COMPLETE_TEXT] = "text", [COMPLETE_WORDS] = "words", [COMPLETE_FILE] = "file",
        [COMPLETE_FOLDER] = "folder", [COMPLETE_LAB] = "lab", [COMPLETE_PROFILE] = "profile",
    };
    char spelling[64];
    printf("%s %s", option_spelling(row, spelling, sizeof spelling), row->value ? completions[row->completes] : "flag");
    print_value_words(row);
    putchar('\n');
}

int print_options_as(const char *what, struct options *o)
{
    static const struct {
        const char *what;
        void (*print_row)(const struct option_decl *row);
    } writers[] = { { "man", print_man_row }, { "completion", print_completion_row } };
    for (size_t w = 0; w < sizeof writers / sizeof writers[0]; w++) {
        if (strcmp(what, writers[w].what) != 0)
            continue;
        for (int i = 0; i < option_count; i++)
            if (!option_table[i].hidden)
                writers[w].print_row(&option_table[i]);
        return 0;
    }
    return OPTION_BAD_VALUE;
}
