/*
** options.h — the command line's options, each declared once as a row of
** option_table[] (options.c). getopt_long's table and the reading of argv
** come from it (options.c), and so do --help, the man page's OPTIONS and
** bash's completion (usage.c): adding an option is adding a row.
*/
#ifndef WARPLAB_OPTIONS_H
#define WARPLAB_OPTIONS_H

#include <stddef.h>

enum { EXIT_SCRIPT_ERROR = 1, EXIT_USAGE = 2, MAX_CODE = 64 };

/* What the options asked for, as main() runs it. */
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
    int students;                 /* --students N: with --check-lab, how many students' numbers to try (0: default) */
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

/* How an option's value is read and kept: the generic kinds need only the
   row's field; OPTION_OWN rows read theirs with their own function. */
enum option_kind {
    OPTION_FLAG,     /* no value: the int field becomes 1 */
    OPTION_TEXT,     /* the value as given, into a const char * field */
    OPTION_CHOICE,   /* as OPTION_TEXT, and one of .choices */
    OPTION_WHOLE,    /* a whole number from .min to .max, into an int field */
    OPTION_REAL,     /* a number more than .min and at most .max, into a double field */
    OPTION_OWN,      /* .take reads it (a value or none, as .value says) */
};

/* What bash completes after the option (completion/warplab.in knows each by
   its name): nothing for text only the user knows. */
enum option_completion { COMPLETE_TEXT, COMPLETE_WORDS, COMPLETE_FILE, COMPLETE_FOLDER, COMPLETE_LAB, COMPLETE_PROFILE };

/* What a .take returns besides an exit status (which ends the run with it). */
enum { OPTION_GO_ON = -1, OPTION_BAD_VALUE = -2 };

/* One option: how it is written, read, kept and documented. */
struct option_decl {
    const char *name;               /* the long name, without "--"; NULL for a short one only (-e) */
    int letter;                     /* its short form (-e), or 0; --help shows it only without a long name */
    const char *value, *value_zh;   /* the value's name in --help and the man page ("N", "FILE", "文件"); NULL: it takes none */
    const char *help, *help_zh;     /* --help's text, broken into lines with \n as --help shows them */
    const char *man;                /* the man page's paragraph, in roff; NULL for a hidden option */
    const char *expects, *expects_zh;   /* what a bad value's message says the value must be */
    enum option_kind kind;
    size_t field;                   /* offsetof(struct options, ...): where the value goes */
    const char *const *choices;     /* OPTION_CHOICE: the words it may be, NULL last */
    double min, max;                /* OPTION_WHOLE and OPTION_REAL: the range */
    int (*take)(const char *value, struct options *o);   /* OPTION_OWN: GO_ON, BAD_VALUE or an exit status */
    const char *(*names)(char *out, size_t size);        /* the names it may be ("a, b"): after .expects, and completed */
    enum option_completion completes;
    int hidden;                     /* for warplab itself or the build: in none of --help, the man page or the completion */
};

extern const struct option_decl option_table[];
extern const int option_count;

/* The options in argv into o: -1 to go on, or the exit status when an
   option finished the run (--help) or was wrong. Options end at the first
   word that is not one (the script: FILE.lua, or - for standard input) or at --. */
int options_parse(int argc, char **argv, struct options *o);

/* The language asked for: --lang's value when argv has a valid one (before
   any other option is read, so that their errors speak it), else LANG's. */
const char *options_language(int argc, char **argv);

/* "warplab: MESSAGE\nTry 'warplab --help'." on stderr; EXIT_USAGE. */
int usage_error(const char *format, const char *argument);
/* How the option is written: "--device", or "-e" for one without a long name. */
const char *option_spelling(const struct option_decl *row, char *out, size_t size);
/* Whether id may be a student's ID (--student, $WARPLAB_STUDENT). */
int valid_student_id(const char *id);

/* usage.c: what the command line says about itself. */
int print_help(const char *unused, struct options *o);
int print_version(const char *unused, struct options *o);
/* --options-as man|completion (for the build): the man page's OPTIONS, or
   the completion's list of options; 0, or OPTION_BAD_VALUE for another word. */
int print_options_as(const char *what, struct options *o);

#endif
