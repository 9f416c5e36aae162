/*
** options.c — the table of the command line's options, one row each, and
** the reading of argv from it. getopt_long's table is built from the rows;
** usage.c writes --help, the man page's OPTIONS and the completion's list
** from the same rows (docs/internals.md, "Options").
*/
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repl/options.h"
#include "output.h"
#include "model/profiles.h"

#define FIELD(name) .field = offsetof(struct options, name)

static const char *const languages[] = { "en", "zh", NULL };
static const char *const formats[] = { "table", "csv", "json", "markdown", NULL };

static int take_code(const char *code, struct options *o);
static int take_profile(const char *value, struct options *o);
static int take_student(const char *id, struct options *o);

/* Every option, in the order --help and the man page list them. */
const struct option_decl option_table[] = {
    { .letter = 'e', .value = "CODE", .value_zh = "代码", .kind = OPTION_OWN, .take = take_code,
      .help = "run CODE (repeatable), then exit", .help_zh = "运行这段代码（可重复），然后退出",
      .man = "Run \\fICODE\\fR (repeatable), then exit.",
      .expects = "Lua code", .expects_zh = "Lua 代码" },
    { "sim", .kind = OPTION_FLAG, FIELD(force_sim),
      .help = "use the access model even when a GPU is present", .help_zh = "即使有 GPU 也使用访问模型",
      .man = "Use the access model even when a GPU is present." },
    { "device", .value = "N", .value_zh = "N", .kind = OPTION_WHOLE, FIELD(ordinal), .min = 0, .max = 1024,
      .help = "use GPU number N (default 0)", .help_zh = "使用第 N 块 GPU（默认值 0）",
      .man = "Use GPU number \\fIN\\fR (default 0).",
      .expects = "a GPU number", .expects_zh = "一个 GPU 编号" },
    { "profile", .value = "NAME", .value_zh = "名称", .kind = OPTION_OWN, .take = take_profile,
      .names = profile_names, .completes = COMPLETE_PROFILE,
      .help = "the device the model describes: h200, a100, t4,\n"
              "rtx4090... (docs/model.md), or a file of coefficients\n"
              "bench/calibrate measured (a path: ./my-gpu.coefficients)",
      .help_zh = "访问模型所描述的设备：h200、a100、t4、rtx4090……\n"
                 "（docs/model.md），或校准程序在另一块 GPU 上测出的\n"
                 "系数文件（一个路径：./my-gpu.coefficients）",
      .man = "The device the model describes: h200, a100, t4, rtx4090 and others; or a\n"
             "path (it holds a slash) to a file of coefficients that \\fBbench/calibrate\\fR\n"
             "measured on another GPU, whose sizes, clocks and rates the model then uses.",
      .expects = "one of: ", .expects_zh = "以下之一：" },
    { "lang", .value = "en|zh", .value_zh = "en|zh", .kind = OPTION_CHOICE, FIELD(lang), .choices = languages,
      .completes = COMPLETE_WORDS,
      .help = "the language of descriptions (default: from LANG)", .help_zh = "说明文字的语言（默认值：取自 LANG）",
      .man = "The language of everything the shell prints (default: from LANG).",
      .expects = "en or zh", .expects_zh = "en 或 zh" },
    { "format", .value = "F", .value_zh = "F", .kind = OPTION_CHOICE, FIELD(format), .choices = formats,
      .completes = COMPLETE_WORDS,
      .help = "how results print: table (default), csv or json", .help_zh = "结果的输出格式：table（默认值）、csv 或 json",
      .man = "How results print: table (default), csv or json.",
      .expects = "table, csv or json (or markdown with --list)", .expects_zh = "table、csv 或 json（与 --list 一起时还可以是 markdown）" },
    { "lab", .value = "NAME", .value_zh = "名称", .kind = OPTION_TEXT, FIELD(lab), .completes = COMPLETE_LAB,
      .help = "open a lab (a built-in one, or a .lua file); with\n"
              "--grade: the lab file to grade its submissions against",
      .help_zh = "打开一个实验（内置实验，或一个 .lua 文件）；与 --grade\n"
                 "同用：评判提交时所依据的实验文件",
      .man = "Open a lab (a built-in one, or a .lua file) at the prompt. With\n"
             "\\fB\\-\\-grade\\fR: the lab file its submissions of that lab are graded against.",
      .expects = "a lab's name or file", .expects_zh = "实验名或实验文件" },
    { "answers", .value = "FILE", .value_zh = "文件", .kind = OPTION_TEXT, FIELD(answers), .completes = COMPLETE_FILE,
      .help = "with --lab: run the lab in batch with these answers;\n"
              "exit 0 if all are right",
      .help_zh = "与 --lab 同用：用文件中的答案批量运行实验；\n"
                 "全部正确时退出状态为 0",
      .man = "With \\fB\\-\\-lab\\fR: run the lab in batch with these answers; exit 0 if all are right.",
      .expects = "a file of answers", .expects_zh = "一个答案文件" },
    { "save", .kind = OPTION_FLAG, FIELD(save),
      .help = "with --lab and --answers: keep the batch's progress\n"
              "as the student's own",
      .help_zh = "与 --lab 和 --answers 同用：把批量运行的进度\n"
                 "记为学生自己的进度",
      .man = "With \\fB\\-\\-lab\\fR and \\fB\\-\\-answers\\fR: keep the batch's progress as the student's own." },
    { "check-lab", .value = "LAB", .value_zh = "实验", .kind = OPTION_TEXT, FIELD(check_lab), .completes = COMPLETE_LAB,
      .help = "check a lab (a name or a .lua file) for its author: one\n"
              "line per finding; exit 0 only when there is none",
      .help_zh = "为实验作者检查实验（名字或 .lua 文件）：每个问题\n"
                 "一行；没有问题时退出状态才为 0",
      .man = "Check a lab (a name or a .lua file) for its author, and exit: one line per\n"
             "finding, naming the step, the field and the cause, printed once with the device\n"
             "profiles or students it applies to (text missing in a language, or a Chinese\n"
             "text that is its English; a field warplab does not read, with the nearest\n"
             "name; a question without an answer or a hint; a choice answer that is not a\n"
             "choice; an answer function that fails, with its Lua error and line; a kernel\n"
             "solution or skeleton that does not compile, with the compiler's first error\n"
             "line; a skeleton that already meets its goal; an experiment that fails; a claim\n"
             "that fails on the model of any device profile, with the values it read; a\n"
             "lab's own solution that does not meet its goal for some students' random\n"
             "numbers). Skipped claims are noted with their reason. Exit status 0 only when\n"
             "there are no findings.",
      .expects = "a lab's name or file", .expects_zh = "实验名或实验文件" },
    { "students", .value = "N", .value_zh = "N", .kind = OPTION_WHOLE, FIELD(students), .min = 1, .max = 1000,
      .help = "with --check-lab: run the lab's own answers with the\n"
              "random numbers of N students (default 20)",
      .help_zh = "与 --check-lab 同用：用 N 位学生的随机数运行实验\n"
                 "自己的答案（默认值 20）",
      .man = "With \\fB\\-\\-check\\-lab\\fR: run the lab's own answers with the random numbers\n"
             "of \\fIN\\fR students (default 20; a lab that draws none is run once).",
      .expects = "a whole number from 1 to 1000", .expects_zh = "1 到 1000 的整数" },
    { "release-lab", .value = "LAB OUT", .value_zh = "实验 输出", .kind = OPTION_TEXT, FIELD(release_lab),
      .completes = COMPLETE_LAB,
      .help = "write to OUT the copy of LAB students get: no\n"
              "solutions, no answers of its assessed questions",
      .help_zh = "把实验发给学生的版本写到输出：不含参考解法，\n"
                 "也不含计分题的答案",
      .man = "Write the copy of \\fILAB\\fR that students get to \\fIOUT\\fR (a folder, or a file\n"
             "named as the lab), and exit: without comments, goals' and kernels'\n"
             "solutions, or the answers of questions marked \\fBassessed = true\\fR, which\n"
             "the copy records for \\fB\\-\\-grade\\fR to judge with the instructor's copy. The\n"
             "copy names the instructor copy's hash, and is loaded again before it is written.",
      .expects = "a lab's name or file", .expects_zh = "实验名或实验文件" },
    { "student", .value = "ID", .value_zh = "学号", .kind = OPTION_OWN, .take = take_student,
      .help = "who is doing the labs: labs may draw this student's own\n"
              "numbers from it (also $WARPLAB_STUDENT)",
      .help_zh = "做实验的学生：实验可以由它得出这位学生自己的数字\n"
                 "（也可用 $WARPLAB_STUDENT）",
      .man = "Who is doing the labs (also \\fBWARPLAB_STUDENT\\fR): a lab's \\fBrandom\\fR(key, ...)\n"
             "gives this student's own numbers, the same in every run. An ID is letters,\n"
             "digits, '.', '_', '\\-' and '@', at most 64.",
      .expects = "an ID of letters, digits, '.', '_', '-' or '@' (at most 64)",
      .expects_zh = "由字母、数字、'.'、'_'、'-' 或 '@' 组成的学号（至多 64 个字符）" },
    { "submit", .value = "OUT", .value_zh = "输出", .kind = OPTION_TEXT, FIELD(submit), .completes = COMPLETE_FILE,
      .help = "with --lab, --answers and a student: write the batch's\n"
              "submission to OUT (a file, or a folder for LAB-ID.json)",
      .help_zh = "与 --lab、--answers 和学号同用：把批量运行的提交写到\n"
                 "输出（一个文件，或放 实验-学号.json 的文件夹）",
      .man = "With \\fB\\-\\-lab\\fR, \\fB\\-\\-answers\\fR and a student ID: write the batch run's\n"
             "submission (one JSON file; docs/instructors.md) to OUT, a file, or a folder\n"
             "for \\fILAB\\-ID.json\\fR. At the prompt, \\fB:submit\\fR does the same for the open lab.",
      .expects = "a file or folder for the submission", .expects_zh = "提交要写入的文件或文件夹" },
    { "grade", .value = "DIR", .value_zh = "文件夹", .kind = OPTION_TEXT, FIELD(grade), .completes = COMPLETE_FOLDER,
      .help = "grade every submission under DIR again and write the\n"
              "class's report (grades.csv, grades.json, report.html)",
      .help_zh = "重新评判文件夹下的每份提交，写出班级报告\n"
                 "（grades.csv、grades.json、report.html）",
      .man = "Grade every submission under DIR (its subfolders too) again against its lab:\n"
             "each answer against the result it was judged on, each kernel a student wrote\n"
             "run again (on the model, or on the GPU when there is one) against the lab's\n"
             "reference and goal. Writes \\fIgrades.csv\\fR and \\fIgrades.json\\fR (a row per\n"
             "student and question) and \\fIreport.html\\fR (one page, its charts inline) to\n"
             "the folder \\fB\\-\\-report\\fR names (default \\fIreport\\fR), and exits 1 when a\n"
             "file under DIR could not be graded.",
      .expects = "a folder of submissions", .expects_zh = "一个存放提交文件的文件夹" },
    { "report", .value = "OUT", .value_zh = "输出", .kind = OPTION_TEXT, FIELD(report), .completes = COMPLETE_FOLDER,
      .help = "with --grade: the report's folder (default: report)", .help_zh = "与 --grade 同用：报告的文件夹（默认值：report/）",
      .man = "With \\fB\\-\\-grade\\fR: the folder for the report.",
      .expects = "a folder for the report", .expects_zh = "存放报告的文件夹" },
    { "slurm", .value = "OPTIONS", .value_zh = "选项", .kind = OPTION_TEXT, FIELD(slurm),
      .help = "with --grade: grade as a Slurm job array, sbatch given\n"
              "OPTIONS ('--partition=gpu --gres=gpu:1', or '')",
      .help_zh = "与 --grade 同用：以 Slurm 作业数组评判，sbatch 带上\n"
                 "这些选项（'--partition=gpu --gres=gpu:1'，或 ''）",
      .man = "With \\fB\\-\\-grade\\fR: grade as a Slurm job array, one task per ten students,\n"
             "submitted with \\fBsbatch \\-\\-wait\\fR and the OPTIONS given (split at blanks;\n"
             "\\(aq\\(aq for none, \\(aq\\-\\-partition=gpu \\-\\-gres=gpu:1\\(aq for GPU nodes), then merge the\n"
             "tasks' slices into the same report. Each task runs warplab itself on a job\n"
             "script it reads as Lua: no shell starts.",
      .expects = "sbatch's options, such as '--partition=gpu --gres=gpu:1' ('' for none)",
      .expects_zh = "sbatch 的选项，例如 '--partition=gpu --gres=gpu:1'（'' 表示没有）" },
    { "time-limit", .value = "S", .value_zh = "秒", .kind = OPTION_REAL, FIELD(time_limit), .min = 0, .max = 86400,
      .help = "with --grade: the CPU time and the wall time grading one\n"
              "submission may take, in seconds (default 60)",
      .help_zh = "与 --grade 同用：评判一份提交最多可用的 CPU 时间和\n"
                 "实际时间，以秒计（默认值 60）",
      .man = "With \\fB\\-\\-grade\\fR: the CPU time and the wall time, in seconds, that grading\n"
             "one submission may take (default 60). A submission that runs past either is\n"
             "stopped, as Ctrl\\-C stops a call, and noted; the next one is graded as usual.",
      .expects = "seconds, more than 0 and at most 86400", .expects_zh = "秒数，大于 0 且不超过 86400" },
    { "deadline", .value = "WHEN", .value_zh = "时间", .kind = OPTION_TEXT, FIELD(deadline),
      .help = "with --grade: an ISO date and time (2026-12-03T08:00Z,\n"
              "or +08:00 for a zone); files arriving later are late",
      .help_zh = "与 --grade 同用：日期和时间（如 2026-12-03T08:00Z，\n"
                 "或用 +08:00 指明时区）；此后到达的文件记为迟交",
      .man = "With \\fB\\-\\-grade\\fR: an ISO 8601 date and time (2026\\-12\\-03T08:00Z, or a\n"
             "zone such as +08:00; UTC without one). Of a student's submissions of a lab the\n"
             "one that arrived last in the folder counts (its modification time there, never\n"
             "the date in the file); one that arrived after WHEN is marked late.",
      .expects = "an ISO date and time such as 2026-12-03T08:00Z", .expects_zh = "日期和时间，例如 2026-12-03T08:00Z" },
    { "gpu-command", .value = "C", .value_zh = "C", .kind = OPTION_TEXT, FIELD(gpu_command),
      .help = "measure on a GPU reached through launcher C, such as\n"
              "'srun --gres=gpu:1' or 'ssh gpuhost' (also\n"
              "$WARPLAB_GPU_COMMAND): C is run, without a shell, as\n"
              "C warplab --gpu-server ...",
      .help_zh = "通过启动器 C 在别处的 GPU 上测量，例如\n"
                 "'srun --gres=gpu:1' 或 'ssh gpuhost'（也可用\n"
                 "$WARPLAB_GPU_COMMAND）：不经过命令解释器，运行\n"
                 "C warplab --gpu-server ...",
      .man = "Measure on a GPU reached through launcher \\fIC\\fR, such as 'srun \\-\\-gres=gpu:1' or 'ssh gpuhost'.",
      .expects = "a command, such as 'srun --gres=gpu:1'", .expects_zh = "一个命令，例如 'srun --gres=gpu:1'" },
    { "list", .kind = OPTION_FLAG, FIELD(list),
      .help = "list the kernel families and exit (--format markdown:\n"
              "their parameters as docs/kernels.md shows them)",
      .help_zh = "列出核函数族并退出（--format markdown：按\n"
                 "docs/kernels.md 的样子列出参数）",
      .man = "List the kernel families and exit." },
    { "no-init", .kind = OPTION_FLAG, FIELD(no_init),
      .help = "run neither LUA_INIT nor init.lua at the start", .help_zh = "启动时不运行 LUA_INIT 和 init.lua",
      .man = "Run neither LUA_INIT nor $XDG_CONFIG_HOME/warplab/init.lua at the start." },
    { "version", .kind = OPTION_OWN, .take = print_version,
      .help = "print the version and exit", .help_zh = "显示版本并退出",
      .man = "Print the version and exit." },
    { "help", 'h', .kind = OPTION_OWN, .take = print_help,   /* -h too, unlisted */
      .help = "print this help and exit", .help_zh = "显示本帮助并退出",
      .man = "Print the help and exit." },
    /* The GPU process --gpu-command starts: warplab runs it, not a person. */
    { "gpu-server", .kind = OPTION_FLAG, FIELD(gpu_server), .hidden = 1 },
    /* For the build (Makefile.am): the man page's OPTIONS and the completion's list. */
    { "options-as", .value = "man|completion", .kind = OPTION_OWN, .take = print_options_as, .hidden = 1,
      .expects = "man or completion", .expects_zh = "man 或 completion" },
};
const int option_count = sizeof option_table / sizeof option_table[0];

/* A student ID names files (submissions) and seeds a lab's numbers: a word
   of letters, digits and . _ - @, not starting with a dot, at most 64 bytes. */
int valid_student_id(const char *id)
{
    size_t length = strlen(id);
    if (length == 0 || length > 64 || id[0] == '.')
        return 0;
    for (const char *c = id; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._-@", *c))
            return 0;
    return 1;
}

int usage_error(const char *format, const char *argument)
{
    fprintf(stderr, "warplab: ");
    fprintf(stderr, format, argument);
    fprintf(stderr, SAY("\nTry 'warplab --help'.\n", "\n请试试 'warplab --help'。\n"));
    return EXIT_USAGE;
}

/* -e: one more chunk of code, run in order. */
static int take_code(const char *code, struct options *o)
{
    if (o->code_count == MAX_CODE)
        return usage_error(SAY("too many -e options (at most 64)%s", "-e 选项太多（至多 64 个）%s"), "");
    o->code[o->code_count++] = code;
    return OPTION_GO_ON;
}

/* --profile NAME, or a path: the profile bench/calibrate's coefficients
   describe, or one line saying why that file cannot be used. */
static int take_profile(const char *value, struct options *o)
{
    char why[256], message[512];
    if (!strchr(value, '/'))
        return (o->profile = profile_find(value)) ? OPTION_GO_ON : OPTION_BAD_VALUE;
    if ((o->profile = profile_load(value, why, sizeof why)))
        return OPTION_GO_ON;
    snprintf(message, sizeof message, SAY("--profile %%s: cannot use this file of coefficients: %s",
                                          "--profile %%s：无法使用这个系数文件：%s"), why);
    return usage_error(message, value);
}

/* --student: the labs read it as $WARPLAB_STUDENT, as when it is set there. */
static int take_student(const char *id, struct options *o)
{
    return valid_student_id(id) && setenv("WARPLAB_STUDENT", id, 1) == 0 ? OPTION_GO_ON : OPTION_BAD_VALUE;
}

static int is_one_of(const char *const *words, const char *word)
{
    for (; *words; words++)
        if (strcmp(*words, word) == 0)
            return 1;
    return 0;
}

/* The readers of the generic kinds: each keeps value in field, or says it is bad. */
static int take_flag(const struct option_decl *row, const char *value, void *field)
{
    *(int *)field = 1;
    return OPTION_GO_ON;
}

static int take_text(const struct option_decl *row, const char *value, void *field)
{
    *(const char **)field = value;
    return OPTION_GO_ON;
}

static int take_choice(const struct option_decl *row, const char *value, void *field)
{
    *(const char **)field = value;
    return is_one_of(row->choices, value) ? OPTION_GO_ON : OPTION_BAD_VALUE;
}

static int take_whole(const struct option_decl *row, const char *value, void *field)
{
    char *end;
    long number = strtol(value, &end, 10);
    if (!*value || *end || number < row->min || number > row->max)
        return OPTION_BAD_VALUE;
    *(int *)field = (int)number;
    return OPTION_GO_ON;
}

static int take_real(const struct option_decl *row, const char *value, void *field)
{
    char *end;
    double number = strtod(value, &end);
    if (!*value || *end || !(number > row->min && number <= row->max))
        return OPTION_BAD_VALUE;
    *(double *)field = number;
    return OPTION_GO_ON;
}

static int (*const readers[])(const struct option_decl *row, const char *value, void *field) = {
    [OPTION_FLAG] = take_flag, [OPTION_TEXT] = take_text, [OPTION_CHOICE] = take_choice,
    [OPTION_WHOLE] = take_whole, [OPTION_REAL] = take_real,
};

/* One option's value (NULL for none) into o: OPTION_GO_ON, OPTION_BAD_VALUE or an exit status. */
static int take(const struct option_decl *row, const char *value, struct options *o)
{
    if (row->kind == OPTION_OWN)
        return row->take(value, o);
    return readers[row->kind](row, value, (char *)o + row->field);
}

/* What getopt_long returns for row i: its letter, or 256 and more past any letter. */
static int getopt_value(int i)
{
    return option_table[i].letter ? option_table[i].letter : 256 + i;
}

static const struct option_decl *row_of_getopt_value(int value)
{
    for (int i = 0; i < option_count; i++)
        if (getopt_value(i) == value)
            return &option_table[i];
    return NULL;
}

/* getopt_long's tables from the rows: longs (NULL-ended) and letters, which
   starts "+:" (stop at the script; ':' for a missing value, '?' for the unknown). */
static void getopt_tables(struct option *longs, char *letters)
{
    letters += sprintf(letters, "+:");
    for (int i = 0; i < option_count; i++) {
        const struct option_decl *row = &option_table[i];
        if (row->name)
            *longs++ = (struct option){ row->name, row->value ? required_argument : no_argument, NULL, getopt_value(i) };
        if (row->letter)
            letters += sprintf(letters, "%c%s", row->letter, row->value ? ":" : "");
    }
    *longs = (struct option){ NULL, 0, NULL, 0 };
}

/* How the option is written: "--device", or "-e" for one without a long name. */
const char *option_spelling(const struct option_decl *row, char *out, size_t size)
{
    if (row->name)
        snprintf(out, size, "--%s", row->name);
    else
        snprintf(out, size, "-%c", row->letter);
    return out;
}

/* "--device expects a GPU number, got 'x'" (or "got nothing"): the usage error of a bad or missing value. */
static int bad_value(const struct option_decl *row, const char *got)
{
    char spelling[64], names[128] = "", message[512], quoted[300];
    if (row->names)
        row->names(names, sizeof names);
    snprintf(message, sizeof message, SAY("%s expects %s%s, got %%s", "%s 需要%s%s，实际为 %%s"),
             option_spelling(row, spelling, sizeof spelling), SAY(row->expects, row->expects_zh), names);
    snprintf(quoted, sizeof quoted, got ? "'%s'" : "%s", got ? got : SAY("nothing", "空"));
    return usage_error(message, quoted);
}

int options_parse(int argc, char **argv, struct options *o)
{
    struct option longs[option_count + 1];
    char letters[3 + 2 * option_count];
    int c, status;
    getopt_tables(longs, letters);
    opterr = 0;   /* our messages, in the session's language */
    optind = 1;
    while ((c = getopt_long(argc, argv, letters, longs, NULL)) != -1) {
        const struct option_decl *row = row_of_getopt_value(c == ':' ? optopt : c);
        if (c == '?' || !row)
            return usage_error(SAY("unknown option '%s'", "未知选项 '%s'"), argv[optind - 1]);
        status = c == ':' ? OPTION_BAD_VALUE : take(row, optarg, o);   /* ':': the value is missing */
        if (status == OPTION_BAD_VALUE)
            return bad_value(row, c == ':' ? NULL : optarg);
        if (status != OPTION_GO_ON)
            return status;
    }
    if (optind < argc) {
        o->script = argv[optind];
        o->script_index = optind;
    }
    return OPTION_GO_ON;
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

const char *options_language(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *value = strncmp(argv[i], "--lang=", 7) == 0 ? argv[i] + 7
                          : strcmp(argv[i], "--lang") == 0 && i + 1 < argc ? argv[i + 1] : NULL;
        if (value && is_one_of(languages, value))
            return value;
    }
    return language_from_environment();
}
