/*
** compile_child.c — every CUDA compile runs in a child: this program
** started again as `warplab --compile-child FOLDER PID LANG`, never through a
** shell, in a process group of its own (Ctrl-C at the terminal reaches only
** the shell, which then ends the child). The child reads its job from
** standard input, sets limits on its CPU time, memory, files and output,
** works in an empty temporary folder, shuts itself off from every other
** file where the kernel has Landlock, and then either runs NVRTC in itself
** or starts the compiler the job names (clang) with the same limits. It
** answers on standard output; the shell keeps a wall-clock deadline, kills
** the child's whole group when it is passed or when Ctrl-C comes, and turns
** what happened into one line. A source's includes are checked before any
** of this (compile_check.c), and the messages that come back are cut to the
** kernel's own files.
**
** The job and the answer are fields: a tag letter, the length in decimal,
** a newline, then the bytes.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "compile/compile_check.h"
#include "compile/device_compile.h"
#include "support/io.h"
#include "interrupt.h"
#include "output.h"
#include "paths.h"
#include "support/clock.h"
#include "support/text.h"

extern char **environ;

/* ---- limits ---- */

struct compile_limits {
    long cpu_seconds, wall_seconds, memory_mib, output_mib;
};

/* The defaults: a kernel compiles in well under a second and 200 MiB here;
   a macro that expands without end is stopped after cpu_seconds.
   WARPLAB_COMPILE_SECONDS and WARPLAB_COMPILE_MIB change them (tests lower them). */
static struct compile_limits compile_limits(void)
{
    struct compile_limits l = { 20, 40, 2048, 64 };
    const char *seconds = getenv("WARPLAB_COMPILE_SECONDS"), *mib = getenv("WARPLAB_COMPILE_MIB");
    if (seconds && atol(seconds) > 0)
        l.cpu_seconds = atol(seconds), l.wall_seconds = 2 * l.cpu_seconds;
    if (mib && atol(mib) >= 64)
        l.memory_mib = atol(mib);
    return l;
}

enum { MAX_LOG_BYTES = 256 << 10, SHOWN_LOG_BYTES = 8 << 10, MAX_JOB_BYTES = 64 << 20 };

/* ---- fields ---- */

struct buffer {
    char *data;
    size_t size, capacity;
    int failed;
};

static void append(struct buffer *b, const void *data, size_t size)
{
    if (b->failed || size == 0)
        return;
    if (b->size + size + 1 > b->capacity) {
        size_t capacity = (b->size + size + 1) * 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown, b->capacity = capacity;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
    b->data[b->size] = 0;
}

/* A field: its tag, its length, a newline, its bytes and a NUL, so that every field reads back as a C string too. */
static void put_field(struct buffer *b, char tag, const void *data, size_t size)
{
    char head[32];
    int n = snprintf(head, sizeof head, "%c%zu\n", tag, size);
    append(b, head, (size_t)n);
    append(b, data, size);
    append(b, "", 1);
}

static void put_text(struct buffer *b, char tag, const char *text)
{
    if (text)
        put_field(b, tag, text, strlen(text));
}

/* The next field from *at: its tag, its bytes in *data and their size; 0 at the end or when cut short. */
static char next_field(char *buffer, size_t size, size_t *at, char **data, size_t *length)
{
    if (*at >= size)
        return 0;
    char tag = buffer[*at], *end;
    unsigned long long n = strtoull(buffer + *at + 1, &end, 10);
    if (*end != '\n' || n >= size - (size_t)(end + 1 - buffer) || end[1 + n] != 0)
        return 0;
    *data = end + 1, *length = (size_t)n;
    *at = (size_t)(end + 1 - buffer) + (size_t)n + 1;
    return tag;
}

/* ---- the child ---- */

/* The job as read back: the strings point into the buffer, each made NUL-terminated. */
struct read_job {
    struct compile_job job;
    const char *options[64], *header_names[32], *header_texts[32], *program[96];
    struct compile_limits limits;
};

/* Splits the job's fields; the strings stay in raw's buffer. 0, or -1. */
static int parse_job(struct buffer *raw, struct read_job *r)
{
    size_t at = 0, length;
    char *text, tag;
    int options = 0, names = 0, texts = 0, words = 0;
    while ((tag = next_field(raw->data, raw->size, &at, &text, &length))) {
        switch (tag) {
        case 'S': r->job.source = text, r->job.source_size = length; break;
        case 'N': r->job.name = text; break;
        case 'O': if (options < 64) r->options[options++] = text; break;
        case 'H': if (names < 32) r->header_names[names++] = text; break;
        case 'T': if (texts < 32) r->header_texts[texts++] = text; break;
        case 'X': r->job.expression = text; break;
        case 'B': r->job.binary = 1; break;
        case 'P': if (words < 95) r->program[words++] = text; break;
        case 'R': r->job.prelude = text; break;
        case 'F': r->job.output_file = text; break;
        case 'U': r->job.output_on_stdout = 1; break;
        case 'L': sscanf(text, "%ld %ld", &r->limits.cpu_seconds, &r->limits.memory_mib); break;
        default: break;
        }
    }
    r->program[words] = NULL;
    r->job.options = r->options, r->job.option_count = options;
    r->job.header_names = r->header_names, r->job.header_texts = r->header_texts;
    r->job.header_count = names < texts ? names : texts;
    r->job.program = words ? r->program : NULL;
    return r->job.source && r->job.name ? 0 : -1;
}

static int read_all(int fd, struct buffer *b, size_t max)
{
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0 && !b->failed ? 0 : -1;
        if (b->size + (size_t)n > max)
            return -1;
        append(b, chunk, (size_t)n);
    }
}

/* Under AddressSanitizer this process already holds terabytes of address
   space (its shadow), so a limit on address space or data would refuse every
   later mapping: a sanitizer build compiles with CPU, wall-clock and file
   limits but no memory limit. */
#ifdef __SANITIZE_ADDRESS__
const int compile_memory_limited = 0;
#else
const int compile_memory_limited = 1;
#endif

static int is_memory_limit(int resource) { return resource == RLIMIT_AS || resource == RLIMIT_DATA; }

/* The limits the kernel applies to this process and whatever it starts. */
static void apply_limits(const struct compile_limits *l)
{
    const struct {
        int resource;
        rlim_t soft, hard;
    } limits[] = {
        { RLIMIT_CPU, (rlim_t)l->cpu_seconds, (rlim_t)l->cpu_seconds + 1 },   /* SIGXCPU, then SIGKILL */
        { RLIMIT_AS, (rlim_t)l->memory_mib << 20, (rlim_t)l->memory_mib << 20 },
        { RLIMIT_DATA, (rlim_t)l->memory_mib << 20, (rlim_t)l->memory_mib << 20 },
        { RLIMIT_FSIZE, (rlim_t)64 << 20, (rlim_t)64 << 20 },
        { RLIMIT_NOFILE, 64, 64 },
        { RLIMIT_CORE, 0, 0 },
    };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        if (!compile_memory_limited && is_memory_limit(limits[i].resource))
            continue;
        struct rlimit now, want = { limits[i].soft, limits[i].hard };
        if (getrlimit(limits[i].resource, &now) == 0 && now.rlim_max != RLIM_INFINITY && now.rlim_max < want.rlim_max)
            want.rlim_max = now.rlim_max, want.rlim_cur = want.rlim_cur < now.rlim_max ? want.rlim_cur : now.rlim_max;
        setrlimit(limits[i].resource, &want);
    }
}

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif

static const __u64 LANDLOCK_READ = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE;
static const __u64 LANDLOCK_WORK = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                   LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_TRUNCATE;

/* Lets the files under path be used with the access (a path that is missing is skipped). */
static void landlock_allow(int ruleset, const char *path, __u64 access, __u64 handled)
{
    struct landlock_path_beneath_attr rule = { .allowed_access = access & handled };
    rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
    if (rule.parent_fd < 0)
        return;
    struct stat st;
    if (fstat(rule.parent_fd, &st) == 0 && !S_ISDIR(st.st_mode))
        rule.allowed_access &= LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                               LANDLOCK_ACCESS_FS_TRUNCATE;   /* a file takes only a file's rights */
    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(rule.parent_fd);
}

#ifdef __SANITIZE_ADDRESS__
/* Where the sanitizers write their reports (ASAN_OPTIONS' log_path, which
   tests/lib/sanitize sets): a folder the child must be able to write to, or
   the sanitizer, unable to write, stops the child until its deadline. */
static const char *sanitizer_log_folder(void)
{
    static char folder[4096];
    const char *options = getenv("ASAN_OPTIONS"), *at = options ? strstr(options, "log_path=") : NULL;
    if (!at)
        return NULL;
    snprintf(folder, sizeof folder, "%.*s", (int)strcspn(at + 9, ":"), at + 9);
    char *slash = strrchr(folder, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return folder;
}
#else
static const char *sanitizer_log_folder(void) { return NULL; }
#endif

/* From here on this process and its children open only the files under the
   folders in readable (to read and run) and the working folder. Where the
   kernel has no Landlock (before Linux 5.13, or turned off) this does
   nothing and says so with -1: the check before the compile and the empty
   working folder are then what keeps other files out. */
static int shut_off_files(const char *const *readable)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1)
        return -1;
    __u64 handled = ((LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1) | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0) |
                    (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0) | (abi >= 5 ? LANDLOCK_ACCESS_FS_IOCTL_DEV : 0);
    struct landlock_ruleset_attr attributes = { .handled_access_fs = handled };
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0)
        return -1;
    for (int i = 0; readable[i]; i++)
        landlock_allow(ruleset, readable[i], LANDLOCK_READ, handled);
    landlock_allow(ruleset, ".", LANDLOCK_WORK, handled);
    if (sanitizer_log_folder()) {   /* a sanitizer build: its reports, and LeakSanitizer's look at /proc */
        landlock_allow(ruleset, sanitizer_log_folder(), LANDLOCK_WORK, handled);
        landlock_allow(ruleset, "/proc", LANDLOCK_READ, handled);
    }
    int status = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) == 0 ? 0 : -1;
    close(ruleset);
    return status;
}

/* A plain file name: written in the working folder, never outside it. */
static int plain_name(const char *name)
{
    return name && *name && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

static int write_data(const char *name, const void *data, size_t size)
{
    int fd = plain_name(name) ? open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
    if (fd < 0)
        return -1;
    write_all(fd, data, size);
    return close(fd);
}

static int write_file(const char *name, const char *text) { return write_data(name, text, strlen(text)); }

static char *read_file_capped(const char *name, size_t max, size_t *size)
{
    struct buffer b = { NULL, 0, 0, 0 };
    int fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    *size = 0;
    if (fd < 0)
        return NULL;
    int status = read_all(fd, &b, max);
    close(fd);
    if (status != 0 && b.size < max) {
        free(b.data);
        return NULL;
    }
    *size = b.size;
    return b.data ? b.data : strdup("");
}

/* The folders a compiler started from /usr needs to read: its programs, libraries and the loader's cache. */
static const char *const program_folders[] = { "/usr", "/lib", "/lib64", "/bin", "/etc/ld.so.cache",
#ifdef CUDA_DIR
                                               CUDA_DIR,
#endif
                                               NULL };

/* The folders a program may read: program_folders and its own (one kept in a cache folder). */
static void readable_folders(const char *program, char *own, size_t own_size, const char **folders, int capacity)
{
    int count = 0;
    for (; program_folders[count] && count < capacity - 2; count++)
        folders[count] = program_folders[count];
    snprintf(own, own_size, "%s", program);
    char *slash = strrchr(own, '/');
    if (slash && slash != own) {
        *slash = 0;
        folders[count++] = own;
    }
    folders[count] = NULL;
}

/* Runs the job's program (clang, nvdisasm) in the working folder: the source
   and the headers as files there, its messages in a file; the answer in reply. */
static void run_program(const struct compile_job *job, struct buffer *reply)
{
    int files_ok = write_data(job->name, job->source, job->source_size) == 0 &&
                   (!job->prelude || write_file("warplab-prelude.h", job->prelude) == 0);
    for (int i = 0; files_ok && i < job->header_count; i++)
        files_ok = write_file(job->header_names[i], job->header_texts[i]) == 0;
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC), log_fd = open("compiler.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int out_fd = !job->output_on_stdout ? null_fd
                 : plain_name(job->output_file) ? open(job->output_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    char own_folder[PATH_MAX];
    const char *readable[16];
    readable_folders(job->program[0], own_folder, sizeof own_folder, readable, 16);
    shut_off_files(readable);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, null_fd, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
    pid_t pid;
    int error = !files_ok || null_fd < 0 || log_fd < 0 || out_fd < 0 ? EIO
                : posix_spawn(&pid, job->program[0], &actions, NULL, (char *const *)job->program, environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    while (!error && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    size_t output_size, log_size;
    char *output = error || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ? NULL
                   : read_file_capped(job->output_file, (size_t)64 << 20, &output_size);
    char *log = read_file_capped("compiler.log", MAX_LOG_BYTES, &log_size);
    char fate[32];
    snprintf(fate, sizeof fate, "%d", error ? -error : WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    put_text(reply, 'K', fate);
    put_text(reply, 'Q', output ? "0" : "1");
    if (output)
        put_field(reply, 'C', output, output_size);
    put_text(reply, 'G', error ? strerror(error) : log);
    free(output);
    free(log);
}

/* Runs the job through NVRTC, loaded into this process; the answer in reply. */
static void run_nvrtc(const struct compile_job *job, struct buffer *reply)
{
    const char *version = nvrtc_version();   /* loads NVRTC before the files are shut off */
    const char *readable[] = { "/etc/ld.so.cache",   /* NVRTC loads its builtins library when it compiles */
#ifdef CUDA_DIR
                               CUDA_DIR,
#endif
                               nvrtc_library_folder(), NULL };
    if (!version) {
        put_text(reply, 'Q', "3");
        put_text(reply, 'G', nvrtc_unavailable());
        return;
    }
    nvrtc_load_builtins();
    shut_off_files(readable);
#ifdef CUDA_DIR
    struct compile_job searching = *job;   /* <cuda_pipeline.h> and the toolkit's other headers, found where they are */
    const char *options[64 + 8];
    char include_options[8][PATH_MAX + 2];
    int count = job->option_count < 64 ? job->option_count : 64;
    for (int i = 0; i < count; i++)
        options[i] = job->options[i];
    for (int i = 0; toolkit_include_folders[i] && i < 8; i++) {
        snprintf(include_options[i], sizeof include_options[i], "-I%s", toolkit_include_folders[i]);
        options[count++] = include_options[i];
    }
    searching.options = options, searching.option_count = count;
    job = &searching;
#endif
    char *output, *log, lowered[256] = "";
    size_t size = 0;
    int compiled = nvrtc_compile_here(job, &output, &size, lowered, sizeof lowered, &log) == 0;
    put_text(reply, 'V', version);
    put_text(reply, 'Q', compiled ? "0" : "1");
    if (compiled)
        put_field(reply, 'C', output, size);
    put_text(reply, 'W', lowered);
    if (log && strlen(log) > MAX_LOG_BYTES)
        log[MAX_LOG_BYTES] = 0;
    put_text(reply, 'G', log);
    free(output);
    free(log);
}

int compile_child_main(int argc, char **argv)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (argc != 5 || getppid() != (pid_t)atol(argv[3]) || chdir(argv[2]) != 0)
        return 2;
    snprintf(text_language, sizeof text_language, "%s", argv[4]);
    for (int fd = 3; fd < 1024; fd++)   /* what the shell had open is not the compiler's */
        close(fd);
    struct buffer raw = { NULL, 0, 0, 0 }, reply = { NULL, 0, 0, 0 };
    struct read_job r = { .limits = compile_limits() };
    if (read_all(STDIN_FILENO, &raw, MAX_JOB_BYTES) != 0 || parse_job(&raw, &r) != 0)
        return 2;
    close(STDIN_FILENO);
    apply_limits(&r.limits);
    if (r.job.program)
        run_program(&r.job, &reply);
    else
        run_nvrtc(&r.job, &reply);
    put_text(&reply, 'E', "");
    int failed = reply.failed;
    if (!failed)
        write_all(STDOUT_FILENO, reply.data, reply.size);
    free(raw.data);   /* the job's strings point into it: freed only now */
    free(reply.data);
    return failed ? 3 : 0;
}

/* ---- the shell's side ---- */

/* The job as fields, for the child's standard input. */
static void job_fields(const struct compile_job *job, const char *source, const struct compile_limits *l, struct buffer *b)
{
    char limits[64];
    snprintf(limits, sizeof limits, "%ld %ld", l->cpu_seconds, l->memory_mib);
    put_text(b, 'L', limits);
    put_field(b, 'S', source, job->source_size ? job->source_size : strlen(source));
    put_text(b, 'N', job->name);
    for (int i = 0; i < job->option_count; i++)
        put_text(b, 'O', job->options[i]);
    for (int i = 0; i < job->header_count; i++) {
        put_text(b, 'H', job->header_names[i]);
        put_text(b, 'T', job->header_texts[i]);
    }
    put_text(b, 'X', job->expression);
    if (job->binary)
        put_text(b, 'B', "1");
    for (int i = 0; job->program && job->program[i]; i++)
        put_text(b, 'P', job->program[i]);
    put_text(b, 'R', job->prelude);
    put_text(b, 'F', job->output_file);
    if (job->output_on_stdout)
        put_text(b, 'U', "1");
}

/* How a run of the child ended, as far as the shell saw it. */
enum child_end { CHILD_ANSWERED, CHILD_OVER_TIME, CHILD_INTERRUPTED, CHILD_TOO_MUCH_OUTPUT, CHILD_NOT_STARTED };

struct child_run {
    enum child_end end;
    int wait_status;
    struct rusage usage;
    struct buffer answer;
    int error;   /* CHILD_NOT_STARTED: why */
};

/* A new empty folder of this user's under $TMPDIR (or /tmp), in folder. */
static int make_work_folder(char *folder, size_t size)
{
    const char *base = getenv("TMPDIR");
    snprintf(folder, size, "%s/warplab-compile-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(folder) ? 0 : -1;
}

/* Removes the folder and the plain files the child left in it. */
static void remove_work_folder(const char *folder)
{
    DIR *d = opendir(folder);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
    rmdir(folder);
}

/* The job, written to an unlinked file in folder: its descriptor, or -1. */
static int job_file(const char *folder, const struct buffer *job)
{
    char path[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/job", folder);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    unlink(path);
    write_all(fd, job->data, job->size);
    return lseek(fd, 0, SEEK_SET) == 0 ? fd : (close(fd), -1);
}

/* Starts `warplab --compile-child folder PID` with the job on its standard input and its
   answer on a pipe (*answer), in a process group of its own. 0, or an errno. */
static int start_child(const char *folder, int job_fd, pid_t *pid, int *answer)
{
    const char *self = program_path();
    int ends[2];
    if (!self)
        return errno ? errno : ENOENT;
    if (pipe2(ends, O_CLOEXEC) != 0)
        return errno;
    char parent[24];
    snprintf(parent, sizeof parent, "%ld", (long)getpid());
    char *argv[] = { (char *)self, (char *)COMPILE_CHILD_OPTION, (char *)folder, parent, text_language[0] ? text_language : "en", NULL };
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t none, defaults;
    sigemptyset(&none);
    sigfillset(&defaults);
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, job_fd, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
    if (!getenv("WARPLAB_COMPILE_DEBUG"))
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    fflush(NULL);
    int error = posix_spawn(pid, self, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(ends[1]);
    if (error)
        close(ends[0]);
    *answer = ends[0];
    return error;
}

/* Reads the child's answer until it ends, the deadline passes, Ctrl-C comes or it grows
   past max; then the child's whole group is killed and waited for. */
static void collect(struct child_run *run, pid_t pid, int answer, double deadline_ms, size_t max)
{
    char chunk[65536];
    run->end = CHILD_ANSWERED;
    for (;;) {
        struct pollfd p = { answer, POLLIN, 0 };
        int ready = poll(&p, 1, 100);
        if (interrupt_requested) {
            run->end = CHILD_INTERRUPTED;
            break;
        }
        if (monotonic_ms() > deadline_ms) {
            run->end = CHILD_OVER_TIME;
            break;
        }
        if (ready <= 0)
            continue;
        ssize_t n = read(answer, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (run->answer.size + (size_t)n > max) {
            run->end = CHILD_TOO_MUCH_OUTPUT;
            break;
        }
        append(&run->answer, chunk, (size_t)n);
    }
    close(answer);
    pid_t ended = 0;
    while (run->end == CHILD_ANSWERED && (ended = wait4(pid, &run->wait_status, WNOHANG, &run->usage)) == 0 &&
           monotonic_ms() < deadline_ms)
        poll(NULL, 0, 10);   /* it has answered and is ending: no longer than the deadline */
    if (ended <= 0)
        kill(-pid, SIGKILL);
    while (ended <= 0 && wait4(pid, &run->wait_status, 0, &run->usage) < 0 && errno == EINTR)
        ;
    kill(-pid, SIGKILL);   /* anything the child started and left behind */
}

/* Runs job in a child under the limits; what happened in run. */
static void run_child(const struct compile_job *job, const char *source, const struct compile_limits *l, struct child_run *run)
{
    char folder[PATH_MAX];
    struct buffer fields = { NULL, 0, 0, 0 };
    pid_t pid = -1;
    int answer = -1, job_fd = -1;
    memset(run, 0, sizeof *run);
    run->end = CHILD_NOT_STARTED;
    if (make_work_folder(folder, sizeof folder) != 0) {
        run->error = errno;
        return;
    }
    job_fields(job, source, l, &fields);
    if (fields.failed || (job_fd = job_file(folder, &fields)) < 0)
        run->error = fields.failed ? ENOMEM : errno;
    else if ((run->error = start_child(folder, job_fd, &pid, &answer)) == 0)
        collect(run, pid, answer, monotonic_ms() + 1000.0 * (double)l->wall_seconds, ((size_t)l->output_mib << 20) + MAX_LOG_BYTES + 4096);
    if (job_fd >= 0)
        close(job_fd);
    free(fields.data);
    remove_work_folder(folder);
}

/* The answer's fields into outcome and *log (malloc'd); whether the answer was whole (its end field came). */
static int read_answer(struct child_run *run, struct compile_outcome *outcome, int *program_fate, char **log)
{
    size_t at = 0, length;
    char *data, tag;
    int whole = 0;
    while ((tag = next_field(run->answer.data, run->answer.size, &at, &data, &length))) {
        switch (tag) {
        case 'Q': outcome->status = data[0] == '0' ? COMPILED : data[0] == '3' ? NO_COMPILER : COMPILE_FAILED; break;
        case 'C':
            free(outcome->output);
            if ((outcome->output = malloc(length + 1)))
                memcpy(outcome->output, data, length + 1), outcome->output_size = length;
            break;
        case 'W': snprintf(outcome->lowered, sizeof outcome->lowered, "%s", data); break;
        case 'V': snprintf(outcome->version, sizeof outcome->version, "%s", data); break;
        case 'G': free(*log); *log = strdup(data); break;
        case 'K': *program_fate = atoi(data); break;
        case 'E': whole = 1; break;
        default: break;
        }
    }
    return whole && (outcome->status != COMPILED || outcome->output);
}

/* The compile ran out of memory, as far as can be told afterwards: the child (or its
   compiler) died or failed having used more than half its limit, or said so. */
static int ran_out_of_memory(const struct child_run *run, const struct compile_limits *l, const char *log)
{
    int big = (long)run->usage.ru_maxrss > l->memory_mib * 1024 / 2;
    int said = log && (strstr(log, "out of memory") || strstr(log, "bad_alloc") || strstr(log, "Cannot allocate memory") ||
                       strstr(log, "NVRTC_ERROR_OUT_OF_MEMORY"));
    return big || said;
}

static void set_stopped(struct compile_outcome *outcome, const char *format, const char *name, long number)
{
    char line[512];
    snprintf(line, sizeof line, format, name, number);
    outcome->status = COMPILE_STOPPED;
    free(outcome->log);
    outcome->log = strdup(line);
}

static const char *over_time_text(void)
{
    return SAY("the compile of '%s' ran over %ld s (a macro that expands without end?)", "'%s' 的编译超过了 %ld 秒（宏无休止地展开？）");
}

/* What the run means: the outcome's status and its one line, or the compiler's messages cleaned. */
static void judge(const struct compile_job *job, struct child_run *run, const struct compile_limits *l, struct compile_outcome *outcome)
{
    int fate = 0, whole = run->end == CHILD_ANSWERED && read_answer(run, outcome, &fate, &outcome->log);
    int signal_number = WIFSIGNALED(run->wait_status) ? WTERMSIG(run->wait_status) : fate > 0 ? fate : 0;
    char *log = outcome->log;
    outcome->log = NULL;
    if (run->end == CHILD_NOT_STARTED) {
        char line[512];
        snprintf(line, sizeof line, SAY("cannot start the compile of '%s': %s", "无法开始 '%s' 的编译：%s"), job->name, error_text(run->error));
        outcome->status = COMPILE_STOPPED, outcome->log = strdup(line);
    } else if (run->end == CHILD_INTERRUPTED) {
        outcome->status = COMPILE_STOPPED, outcome->interrupted = 1;
        outcome->log = strdup(SAY("compile interrupted", "编译被中断"));
    } else if (run->end == CHILD_OVER_TIME)
        set_stopped(outcome, over_time_text(), job->name, l->wall_seconds);
    else if (run->end == CHILD_TOO_MUCH_OUTPUT || signal_number == SIGXFSZ)
        set_stopped(outcome, SAY("the compile of '%s' made more than %ld MiB of output", "'%s' 的编译产生了超过 %ld MiB 的输出"), job->name, l->output_mib);
    else if (signal_number == SIGXCPU || (signal_number == SIGKILL && (long)run->usage.ru_utime.tv_sec + 1 >= l->cpu_seconds))
        set_stopped(outcome, over_time_text(), job->name, l->cpu_seconds);
    else if ((!whole || signal_number || outcome->status == COMPILE_FAILED) && ran_out_of_memory(run, l, log))
        set_stopped(outcome, SAY("the compile of '%s' needed more than %ld MiB", "'%s' 的编译需要超过 %ld MiB 内存"), job->name, l->memory_mib);
    else if (!whole || signal_number) {
        char line[512];
        snprintf(line, sizeof line, SAY("the compiler stopped on '%s' (%s)", "编译器在 '%s' 上停止了（%s）"), job->name,
                 signal_number ? strsignal(signal_number) : SAY("no answer", "没有回答"));
        outcome->status = COMPILE_STOPPED, outcome->log = strdup(line);
    } else if (outcome->status != COMPILED) {
        const char *names[40];
        int count = 0;
        names[count++] = job->name;
        names[count++] = "warplab-prelude.h";
        for (int i = 0; i < job->header_count && count < 40; i++)
            names[count++] = job->header_names[i];
        outcome->log = outcome->status == NO_COMPILER ? (log ? strdup(log) : NULL)
                                                      : clean_compiler_log(log ? log : "", names, count, SHOWN_LOG_BYTES);
    }
    free(log);
}

void compile_outcome_free(struct compile_outcome *outcome)
{
    free(outcome->output);
    free(outcome->log);
    outcome->output = outcome->log = NULL;
}

int compile_isolated(const struct compile_job *job, struct compile_outcome *outcome)
{
    struct compile_limits l = compile_limits();
    struct include_rule rule = { job->header_names, job->header_count };
    char why[1024];
    memset(outcome, 0, sizeof *outcome);
    char *source = job->source_size ? copy_as_text(job->source, job->source_size) : canonical_source(job->source);
    int refused = !source;
    if (source && !job->trusted && !job->source_size) {
        refused = check_includes(source, job->name, &rule, why, sizeof why) != 0;
        for (int i = 0; !refused && i < job->header_count; i++)
            refused = check_includes(job->header_texts[i], job->header_names[i], &rule, why, sizeof why) != 0;
    }
    if (refused) {
        outcome->status = COMPILE_STOPPED;
        outcome->log = visible_text(source ? why : "out of memory", strlen(source ? why : "out of memory"));
    } else {
        struct child_run run;
        run_child(job, source, &l, &run);
        judge(job, &run, &l, outcome);
        free(run.answer.data);
    }
    free(source);
    return outcome->status == COMPILED ? 0 : -1;
}
