/*
** main.c — the command line: options, then one of REPL, -e code, a script
** file or a script on stdin. Exit status: 0 success, 1 a script raised an
** error, 2 a usage error.
*/
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lauxlib.h>
#include "device_compile.h"
#include "output.h"
#include "model/profiles.h"
#include "model/params.h"
#include "model/registry.h"
#include "repl.h"
#include "session.h"

enum { EXIT_SCRIPT_ERROR = 1, EXIT_USAGE = 2, MAX_CODE = 64 };

struct options {
    int force_sim;
    int ordinal;
    const char *code[MAX_CODE];   /* each -e, in order */
    int code_count;
    const char *script;           /* FILE.lua, or NULL */
    int script_index;             /* its position in argv: later words are its args */
    const struct device_profile *profile;
    const char *lang;             /* NULL: from the environment */
    const char *format;           /* NULL: table */
    const char *lab, *answers;    /* --lab NAME [--answers FILE] */
    const char *check_lab;        /* --check-lab FILE: report what a lab lacks, and exit */
    const char *students;         /* --students N: with --check-lab, how many students' numbers to try */
    const char *release_lab;      /* --release-lab LAB OUT: write the copy students get, and exit */
    const char *submit;           /* --submit OUT: with --lab and --answers, write the submission */
    const char *grade, *report;   /* --grade DIR [--report OUT]: grade a class's submissions, and exit */
    const char *slurm;            /* --slurm OPTIONS: with --grade, as a Slurm job array (sbatch's options) */
    double time_limit;            /* --time-limit S: with --grade, each submission's CPU and wall seconds (0: default) */
    const char *deadline;         /* --deadline WHEN: with --grade, files arriving after it are marked late */
    int save;                     /* --save: a batch run keeps the student's progress */
    const char *gpu_command;      /* --gpu-command, else $WARPLAB_GPU_COMMAND: a launcher for the GPU process */
    int gpu_server;               /* --gpu-server: be that GPU process */
    int list;                     /* --list: print the families (in --format) and exit */
    int no_init;                  /* --no-init: neither LUA_INIT nor init.lua */
};

#ifdef WARPLAB_BUG_ADDRESS
#define REPORT_BUGS_EN "Report bugs to: " WARPLAB_BUG_ADDRESS
#define REPORT_BUGS_ZH "报告问题：" WARPLAB_BUG_ADDRESS
#else   /* built without --with-bug-address: no tracker to name */
#define REPORT_BUGS_EN "Report bugs to whoever installed warplab (for a class: its instructor),"
#define REPORT_BUGS_ZH "报告问题：请告诉为你安装 warplab 的人（课程中即任课教师），"
#endif

static const char usage_text[] =
    "usage: warplab [options] [FILE.lua [args...]]\n"
    "  (no FILE)        the interactive shell on a terminal; a piped script\n"
    "  - [args...]      a script read from standard input; -- ends the options\n"
    "  -e CODE          run CODE (repeatable), then exit\n"
    "  --sim            use the access model even when a GPU is present\n"
    "  --device N       use GPU number N (default 0)\n"
    "  --profile NAME   the device the model describes: h200, a100, t4,\n"
    "                   rtx4090... (docs/model.md), or a file of coefficients\n"
    "                   bench/calibrate measured (a path: ./my-gpu.coefficients)\n"
    "  --lang en|zh     the language of descriptions (default: from LANG)\n"
    "  --format F       how results print: table (default), csv or json\n"
    "  --lab NAME       open a lab (a built-in one, or a .lua file); with\n"
    "                   --grade: the lab file to grade its submissions against\n"
    "  --answers FILE   with --lab: run the lab in batch with these answers;\n"
    "                   exit 0 if all are right\n"
    "  --save           with --lab and --answers: keep the batch's progress\n"
    "                   as the student's own\n"
    "  --check-lab LAB  check a lab (a name or a .lua file) for its author: one\n"
    "                   line per finding; exit 0 only when there is none\n"
    "  --students N     with --check-lab: run the lab's own answers with the\n"
    "                   random numbers of N students (default 20)\n"
    "  --release-lab LAB OUT  write to OUT the copy of LAB students get: no\n"
    "                   solutions, no answers of its assessed questions\n"
    "  --student ID     who is doing the labs: labs may draw this student's own\n"
    "                   numbers from it (also $WARPLAB_STUDENT)\n"
    "  --submit OUT     with --lab, --answers and a student: write the batch's\n"
    "                   submission to OUT (a file, or a folder for LAB-ID.json)\n"
    "  --grade DIR      grade every submission under DIR again and write the\n"
    "                   class's report (grades.csv, grades.json, report.html)\n"
    "  --report OUT     with --grade: the report's folder (default: report)\n"
    "  --slurm OPTIONS  with --grade: grade as a Slurm job array, sbatch given\n"
    "                   OPTIONS ('--partition=gpu --gres=gpu:1', or '')\n"
    "  --time-limit S   with --grade: the CPU time and the wall time grading one\n"
    "                   submission may take, in seconds (default 60)\n"
    "  --deadline WHEN  with --grade: an ISO date and time (2026-12-03T08:00Z,\n"
    "                   or +08:00 for a zone); files arriving later are late\n"
    "  --gpu-command C  measure on a GPU reached through launcher C, such as\n"
    "                   'srun --gres=gpu:1' or 'ssh gpuhost' (also\n"
    "                   $WARPLAB_GPU_COMMAND): C is run, without a shell, as\n"
    "                   C warplab --gpu-server ...\n"
    "  --list           list the kernel families and exit (--format markdown:\n"
    "                   their parameters as docs/kernels.md shows them)\n"
    "  --no-init        run neither LUA_INIT nor init.lua at the start\n"
    "  --version        print the version and exit\n"
    "  --help           print this help and exit\n"
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

static const char usage_text_zh[] =
    "用法：warplab [选项] [文件.lua [参数...]]\n"
    "  （不带文件）     在终端上进入交互式环境；从管道读入时运行其中的脚本\n"
    "  - [参数...]      运行从标准输入读入的脚本；-- 表示选项到此结束\n"
    "  -e 代码          运行这段代码（可重复），然后退出\n"
    "  --sim            即使有 GPU 也使用访问模型\n"
    "  --device N       使用第 N 块 GPU（默认值 0）\n"
    "  --profile 名称   访问模型所描述的设备：h200、a100、t4、rtx4090……\n"
    "                   （docs/model.md），或校准程序在另一块 GPU 上测出的\n"
    "                   系数文件（一个路径：./my-gpu.coefficients）\n"
    "  --lang en|zh     说明文字的语言（默认值：取自 LANG）\n"
    "  --format F       结果的输出格式：table（默认值）、csv 或 json\n"
    "  --lab 名称       打开一个实验（内置实验，或一个 .lua 文件）；与 --grade\n"
    "                   同用：评判提交时所依据的实验文件\n"
    "  --answers 文件   与 --lab 同用：用文件中的答案批量运行实验；\n"
    "                   全部正确时退出状态为 0\n"
    "  --save           与 --lab 和 --answers 同用：把批量运行的进度\n"
    "                   记为学生自己的进度\n"
    "  --check-lab 实验 为实验作者检查实验（名字或 .lua 文件）：每个问题\n"
    "                   一行；没有问题时退出状态才为 0\n"
    "  --students N     与 --check-lab 同用：用 N 位学生的随机数运行实验\n"
    "                   自己的答案（默认值 20）\n"
    "  --release-lab 实验 输出  把实验发给学生的版本写到输出：不含参考解法，\n"
    "                   也不含计分题的答案\n"
    "  --student 学号   做实验的学生：实验可以由它得出这位学生自己的数字\n"
    "                   （也可用 $WARPLAB_STUDENT）\n"
    "  --submit 输出    与 --lab、--answers 和学号同用：把批量运行的提交写到\n"
    "                   输出（一个文件，或放 实验-学号.json 的文件夹）\n"
    "  --grade 文件夹   重新评判文件夹下的每份提交，写出班级报告\n"
    "                   （grades.csv、grades.json、report.html）\n"
    "  --report 输出    与 --grade 同用：报告的文件夹（默认值：report/）\n"
    "  --slurm 选项     与 --grade 同用：以 Slurm 作业数组评判，sbatch 带上\n"
    "                   这些选项（'--partition=gpu --gres=gpu:1'，或 ''）\n"
    "  --time-limit 秒  与 --grade 同用：评判一份提交最多可用的 CPU 时间和\n"
    "                   实际时间，以秒计（默认值 60）\n"
    "  --deadline 时间  与 --grade 同用：日期和时间（如 2026-12-03T08:00Z，\n"
    "                   或用 +08:00 指明时区）；此后到达的文件记为迟交\n"
    "  --gpu-command C  通过启动器 C 在别处的 GPU 上测量，例如\n"
    "                   'srun --gres=gpu:1' 或 'ssh gpuhost'（也可用\n"
    "                   $WARPLAB_GPU_COMMAND）：不经过命令解释器，运行\n"
    "                   C warplab --gpu-server ...\n"
    "  --list           列出内核族并退出（--format markdown：按\n"
    "                   docs/kernels.md 的样子列出参数）\n"
    "  --no-init        启动时不运行 LUA_INIT 和 init.lua\n"
    "  --version        显示版本并退出\n"
    "  --help           显示本帮助并退出\n"
    "选项的值可以写成 --名字 值 或 --名字=值，名字也可以只写能唯一确定它的\n"
    "前缀。\n"
    "\n"
    "环境变量：\n"
    "  LC_ALL、LC_MESSAGES、LANG   语言（zh 开头即中文），除非给了 --lang\n"
    "  WARPLAB_GPU_COMMAND         同 --gpu-command\n"
    "  WARPLAB_MODEL_THREADS       访问模型和模拟器用的线程数\n"
    "                              （默认值：每个 CPU 核一个，至多 16 个）\n"
    "  VISUAL、EDITOR              :edit 打开的编辑器（否则用 vi）\n"
    "  XDG_DATA_HOME               实验进度、你的内核源代码、labs/\n"
    "                              （默认值 ~/.local/share）\n"
    "  XDG_STATE_HOME              历史记录和会话记录\n"
    "                              （默认值 ~/.local/state）\n"
    "  XDG_CACHE_HOME              编译好的内核和复制上限\n"
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

static int usage_error(const char *format, const char *argument)
{
    fprintf(stderr, "warplab: ");
    fprintf(stderr, format, argument);
    fprintf(stderr, SAY("\nTry 'warplab --help'.\n", "\n请试试 'warplab --help'。\n"));
    return EXIT_USAGE;
}

static void print_version(void)
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
}

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
   holds them between its "generated" marks (tests/docs.sh compares the two). */
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

static int parse_device(const char *text, int *ordinal)
{
    char *end;
    long value = strtol(text, &end, 10);
    if (*text == 0 || *end != 0 || value < 0 || value > 1024)
        return -1;
    *ordinal = (int)value;
    return 0;
}

/* "zh" when LC_ALL, LC_MESSAGES or LANG (the first one set) asks for Chinese, else "en". */
static const char *language_from_environment(void)
{
    static const char *const variables[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
    for (int i = 0; i < 3; i++) {
        const char *value = getenv(variables[i]);
        if (value && *value)
            return strncmp(value, "zh", 2) == 0 ? "zh" : "en";
    }
    return "en";
}

/* What a usage error says was given when an option's value is missing. */
static const char *nothing(void)
{
    return SAY("nothing", "空");
}

/* The language asked for: --lang's value when argv has a valid one (before
   any other option is read, so that their errors speak it), else LANG's. */
static const char *language_of(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *value = strncmp(argv[i], "--lang=", 7) == 0 ? argv[i] + 7
                          : strcmp(argv[i], "--lang") == 0 && i + 1 < argc ? argv[i + 1] : NULL;
        if (value && (strcmp(value, "en") == 0 || strcmp(value, "zh") == 0))
            return value;
    }
    return language_from_environment();
}

enum { OPT_VERSION = 256, OPT_LIST, OPT_SIM, OPT_DEVICE, OPT_PROFILE, OPT_LANG, OPT_FORMAT, OPT_LAB, OPT_ANSWERS, OPT_SAVE,
       OPT_GPU_COMMAND, OPT_GPU_SERVER, OPT_NO_INIT, OPT_CHECK_LAB, OPT_STUDENT, OPT_SUBMIT, OPT_GRADE,
       OPT_REPORT, OPT_SLURM, OPT_TIME_LIMIT, OPT_STUDENTS, OPT_RELEASE_LAB, OPT_DEADLINE };

/* Every option, as getopt_long reads them (--name value, --name=value, a unique prefix of a name). */
static const struct option long_options[] = {
    { "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, OPT_VERSION },
    { "list", no_argument, NULL, OPT_LIST }, { "sim", no_argument, NULL, OPT_SIM },
    { "device", required_argument, NULL, OPT_DEVICE }, { "profile", required_argument, NULL, OPT_PROFILE },
    { "lang", required_argument, NULL, OPT_LANG }, { "format", required_argument, NULL, OPT_FORMAT },
    { "lab", required_argument, NULL, OPT_LAB }, { "answers", required_argument, NULL, OPT_ANSWERS },
    { "save", no_argument, NULL, OPT_SAVE }, { "gpu-command", required_argument, NULL, OPT_GPU_COMMAND },
    { "gpu-server", no_argument, NULL, OPT_GPU_SERVER }, { "no-init", no_argument, NULL, OPT_NO_INIT },
    { "check-lab", required_argument, NULL, OPT_CHECK_LAB }, { "student", required_argument, NULL, OPT_STUDENT },
    { "submit", required_argument, NULL, OPT_SUBMIT }, { "grade", required_argument, NULL, OPT_GRADE },
    { "report", required_argument, NULL, OPT_REPORT }, { "slurm", required_argument, NULL, OPT_SLURM },
    { "time-limit", required_argument, NULL, OPT_TIME_LIMIT }, { "students", required_argument, NULL, OPT_STUDENTS },
    { "release-lab", required_argument, NULL, OPT_RELEASE_LAB }, { "deadline", required_argument, NULL, OPT_DEADLINE },
    { NULL, 0, NULL, 0 },
};

/* What an option with a value expects, for the message when it has none (or a bad one). */
static const struct {
    int option;
    const char *expects, *expects_zh;
} expectations[] = {
    { OPT_DEVICE, "a GPU number", "一个 GPU 编号" }, { OPT_PROFILE, "one of: ", "以下之一：" },
    { OPT_LANG, "en or zh", "en 或 zh" }, { OPT_FORMAT, "table, csv or json (or markdown with --list)", "table、csv 或 json（与 --list 一起时还可以是 markdown）" },
    { OPT_LAB, "a lab's name or file", "实验名或实验文件" }, { OPT_ANSWERS, "a file of answers", "一个答案文件" },
    { OPT_CHECK_LAB, "a lab's name or file", "实验名或实验文件" },
    { OPT_RELEASE_LAB, "a lab's name or file", "实验名或实验文件" },
    { OPT_STUDENTS, "a whole number from 1 to 1000", "1 到 1000 的整数" },
    { OPT_SUBMIT, "a file or folder for the submission", "提交要写入的文件或文件夹" },
    { OPT_GRADE, "a folder of submissions", "一个存放提交文件的文件夹" },
    { OPT_REPORT, "a folder for the report", "存放报告的文件夹" },
    { OPT_SLURM, "sbatch's options, such as '--partition=gpu --gres=gpu:1' ('' for none)",
      "sbatch 的选项，例如 '--partition=gpu --gres=gpu:1'（'' 表示没有）" },
    { OPT_TIME_LIMIT, "seconds, more than 0 and at most 86400", "秒数，大于 0 且不超过 86400" },
    { OPT_DEADLINE, "an ISO date and time such as 2026-12-03T08:00Z", "日期和时间，例如 2026-12-03T08:00Z" },
    { OPT_STUDENT, "an ID of letters, digits, '.', '_', '-' or '@' (at most 64)",
      "由字母、数字、'.'、'_'、'-' 或 '@' 组成的学号（至多 64 个字符）" },
    { OPT_GPU_COMMAND, "a command, such as 'srun --gres=gpu:1'", "一个命令，例如 'srun --gres=gpu:1'" },
    { 'e', "Lua code", "Lua 代码" },
};

/* "--device expects a GPU number, got 'x'" (or "got nothing"): the usage error of a bad or missing value. */
static int bad_value(int option, const char *got)
{
    char message[512];
    const char *name = "-e", *expects = "";
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == option)
            name = o->name;
    for (size_t i = 0; i < sizeof expectations / sizeof expectations[0]; i++)
        if (expectations[i].option == option)
            expects = SAY(expectations[i].expects, expectations[i].expects_zh);
    char names[128] = "";
    if (option == OPT_PROFILE)
        profile_names(names, sizeof names);
    snprintf(message, sizeof message, SAY("%s%s expects %s%s, got %%s", "%s%s 需要%s%s，实际为 %%s"), option == 'e' ? "" : "--",
             name, expects, names);
    char quoted[300];
    snprintf(quoted, sizeof quoted, got ? "'%s'" : "%s", got ? got : nothing());
    return usage_error(message, quoted);
}

/* --profile FILE: the profile bench/calibrate's coefficients describe, or one line saying why not. */
static int profile_file(const char *path, const struct device_profile **profile)
{
    char why[256], message[512];
    if ((*profile = profile_load(path, why, sizeof why)))
        return 0;
    snprintf(message, sizeof message, SAY("--profile %%s: cannot use this file of coefficients: %s",
                                          "--profile %%s：无法使用这个系数文件：%s"), why);
    return usage_error(message, path);
}

/* A student ID names files (submissions) and seeds a lab's numbers: a word
   of letters, digits and . _ - @, not starting with a dot, at most 64 bytes. */
static int valid_student_id(const char *id)
{
    size_t length = strlen(id);
    if (length == 0 || length > 64 || id[0] == '.')
        return 0;
    for (const char *c = id; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._-@", *c))
            return 0;
    return 1;
}

/* The options whose value is kept as given, and the field that keeps it. */
static const struct {
    int option;
    size_t field;
} kept_values[] = {
    { OPT_LAB, offsetof(struct options, lab) },       { OPT_ANSWERS, offsetof(struct options, answers) },
    { OPT_CHECK_LAB, offsetof(struct options, check_lab) }, { OPT_SUBMIT, offsetof(struct options, submit) },
    { OPT_GRADE, offsetof(struct options, grade) },   { OPT_REPORT, offsetof(struct options, report) },
    { OPT_SLURM, offsetof(struct options, slurm) },   { OPT_GPU_COMMAND, offsetof(struct options, gpu_command) },
    { OPT_RELEASE_LAB, offsetof(struct options, release_lab) }, { OPT_DEADLINE, offsetof(struct options, deadline) },
};

/* Reads one option's value into o; 0, or a usage error's exit status. */
static int take_value(int option, const char *value, struct options *o)
{
    static const char *const formats[] = { "table", "csv", "json", "markdown", NULL };
    int known = 0;
    char *end;
    for (size_t i = 0; i < sizeof kept_values / sizeof kept_values[0]; i++)
        if (kept_values[i].option == option) {
            *(const char **)((char *)o + kept_values[i].field) = value;
            return 0;
        }
    switch (option) {
    case OPT_DEVICE:
        return parse_device(value, &o->ordinal) ? bad_value(option, value) : 0;
    case OPT_PROFILE:
        if (strchr(value, '/'))   /* a path: bench/calibrate's coefficients for another device */
            return profile_file(value, &o->profile);
        return (o->profile = profile_find(value)) ? 0 : bad_value(option, value);
    case OPT_LANG:
        o->lang = value;
        return strcmp(value, "en") == 0 || strcmp(value, "zh") == 0 ? 0 : bad_value(option, value);
    case OPT_FORMAT:
        for (int i = 0; formats[i]; i++)
            known |= strcmp(value, formats[i]) == 0;
        o->format = value;
        return known ? 0 : bad_value(option, value);
    case OPT_STUDENTS:
        o->students = value;
        long count = strtol(value, &end, 10);
        return *value && !*end && count >= 1 && count <= 1000 ? 0 : bad_value(option, value);
    case OPT_TIME_LIMIT:
        o->time_limit = strtod(value, &end);
        return *value && !*end && o->time_limit > 0 && o->time_limit <= 86400 ? 0 : bad_value(option, value);
    case OPT_STUDENT:   /* the labs read it as $WARPLAB_STUDENT, as when it is set there */
        return valid_student_id(value) && setenv("WARPLAB_STUDENT", value, 1) == 0 ? 0 : bad_value(option, value);
    case 'e':
        if (o->code_count == MAX_CODE)
            return usage_error(SAY("too many -e options (at most 64)%s", "-e 选项太多（至多 64 个）%s"), "");
        o->code[o->code_count++] = value;
        return 0;
    }
    return 0;
}

/* Returns -1 to go on, or the exit status for options that finish the run.
   Options end at the first word that is not one (the script: FILE.lua, or -
   for standard input; the words after it are its arguments) or at --. */
static int parse_options(int argc, char **argv, struct options *o)
{
    int c, status;
    opterr = 0;   /* our messages, in the session's language */
    optind = 1;
    while ((c = getopt_long(argc, argv, "+:he:", long_options, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(SAY(usage_text, usage_text_zh), stdout);
            return 0;
        case OPT_VERSION:
            print_version();
            return 0;
        case OPT_LIST: o->list = 1; break;
        case OPT_SIM: o->force_sim = 1; break;
        case OPT_SAVE: o->save = 1; break;
        case OPT_GPU_SERVER: o->gpu_server = 1; break;
        case OPT_NO_INIT: o->no_init = 1; break;
        case ':':   /* an option without its value */
            return bad_value(optopt, NULL);
        case '?':
            return usage_error(SAY("unknown option '%s'", "未知选项 '%s'"), argv[optind - 1]);
        default:
            if ((status = take_value(c, optarg, o)) != 0)
                return status;
        }
    }
    if (optind < argc) {
        o->script = argv[optind];
        o->script_index = optind;
    }
    return -1;
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
    if (o->check_lab)
        return call_labs("check", o->check_lab, o->students, NULL, -1, 1) == 1 ? 0 : EXIT_SCRIPT_ERROR;
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
    snprintf(text_language, sizeof text_language, "%s", language_of(argc, argv));
    int finished = parse_options(argc, argv, &options);
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
    if (session_open(options.force_sim, options.ordinal, options.profile, repl_open_core) != 0)
        return EXIT_SCRIPT_ERROR;
    snprintf(session.format, sizeof session.format, "%s", options.format ? options.format : "table");
    int status = run(argc, argv, &options);
    session_close();
    return finish(status);
}
