/*
** gpu_process.c — the GPU backend as the shell sees it. Every CUDA call runs
** in a child process, forked before this process touches CUDA, that serves
** the CUDA backend (cuda_backend.c) over a socket. A kernel fault ends a CUDA
** context for the rest of its process: on the H200 machine even a reset
** device answers cudaErrorDevicesUnavailable to the process that faulted,
** while a new process gets the GPU at once. So after a fault the child ends,
** a fresh child takes its place, and the shell, its Lua state and the
** student's work carry on.
**
** The child is a fork, or, with --gpu-command, this same program started
** as `warplab --gpu-server` through a launcher (srun, ssh) that carries its
** standard input and output, so it may run on another machine. Either way
** no pointer crosses: families go by their index in families[], kernels
** declared in Lua by their own index (told to each child once, with their
** machine code, before their first launch there), and only numbers and
** text come back.
*/
#ifdef HAVE_CUDA
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "backend/backend.h"
#include "interrupt.h"
#include "output.h"
#include "paths.h"
#include "model/registry.h"
#include "support/text.h"
#include "backend/user_kernel.h"

/* How often a child with nothing to do looks whether another process waits
   for the GPU, and after how long idle it turns its profiler off anyway, for
   profilers that do not wait in warplab's way (ncu on another program). */
static const int IDLE_CHECK_MS = 100, IDLE_PAUSE_CHECKS = 600;

enum request_kind { REQUEST_RUN, REQUEST_COUNTERS, REQUEST_MEASURE_COPY, REQUEST_ALLOCATE, REQUEST_DECLARE, REQUEST_QUIT };

struct request {
    enum request_kind kind;
    int family;        /* run: its index in families[], or -1 - its index among kernels declared in Lua */
    struct params params;
    struct measure_options options;
    int count;         /* counters: results that follow; allocate: blocks */
    size_t bytes;      /* allocate: each block's size; declare: the description's, which follows */
};

struct reply {
    int status;        /* the in-process call's return value */
    int context_lost;  /* the child's CUDA context is gone: it ends after this reply */
    char error[768];
    struct device_info info;
};

/* What a counters request sends for each launch, and gets back. */
struct counters_item {
    int family;
    struct params params;
};
struct counters_answer {
    int have_counters;
    struct counter_values counters;
    char counters_unavailable[256];
};

/* The two ends the child talks through: one socket, or stdin and stdout. */
struct channel {
    int in, out;
};

enum { MAX_LAUNCHER_WORDS = 64, MAX_PROFILE_ITEMS = 1 << 20 };
static const size_t MAX_DESCRIPTION_BYTES = (size_t)256 << 20;

static struct {
    pid_t pid;
    int socket;
    int ordinal;
    char *launcher[MAX_LAUNCHER_WORDS + 8];   /* --gpu-command's words; [0] NULL: fork */
    unsigned told[MAX_USER_KERNELS];         /* the kernels declared in Lua this child has loaded: their version + 1, or 0 */
} child = { -1, -1, 0, { NULL }, { 0 } };

/* send() where fd is a socket (no SIGPIPE when the other side has gone), write() on a pipe. */
static ssize_t send_some(int fd, void *data, size_t size)
{
    ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    return n < 0 && errno == ENOTSOCK ? write(fd, data, size) : n;
}

static ssize_t receive_some(int fd, void *data, size_t size)
{
    return read(fd, data, size);
}

/* Moves a whole buffer through the socket, through Ctrl-C's interruptions;
   0, or -1 when the other side has gone. */
static int transfer_all(int fd, void *data, size_t size, ssize_t (*some)(int, void *, size_t))
{
    char *p = data;
    while (size > 0) {
        ssize_t n = some(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int send_all(int fd, const void *data, size_t size)
{
    return transfer_all(fd, (void *)data, size, send_some);
}

static int receive_all(int fd, void *data, size_t size)
{
    return transfer_all(fd, data, size, receive_some);
}

/* ---- the child: serves requests with the in-process backend ---- */

static void child_on_sigint(int signal_number)
{
    (void)signal_number;
    interrupt_requested = 1;   /* the samples loop stops; the shell hears it too */
}

static int reply_with(const struct channel *c, struct reply *a, const void *payload, size_t payload_size)
{
    a->context_lost = !cuda_backend.usable();
    return send_all(c->out, a, sizeof *a) || (payload_size && send_all(c->out, payload, payload_size)) ? -1 : 0;
}

/* The family a request names (family_index's number), or NULL (with the reply's error) when there is none. */
static const struct family *family_at(int i, struct reply *a)
{
    const struct family *f = i >= 0 && i < family_count ? families[i] : i < 0 ? user_kernel_at(-1 - i) : NULL;
    if (f && (i >= 0 || cuda_backend_kernel_loaded(f)))
        return f;
    snprintf(a->error, sizeof a->error, SAY("the GPU process has no kernel family %d: is it the same warplab?",
                                            "GPU 进程没有第 %d 个核函数族：它是同一个 warplab 吗？"), i);
    a->status = -1;
    return NULL;
}

static int family_index(const struct family *f)
{
    int declared = user_kernel_index(f);
    for (int i = 0; declared < 0 && i < family_count; i++)
        if (families[i] == f)
            return i;
    return -1 - declared;
}

/* The shell's model thread is filling its result meanwhile, so the child
   measures into a result of its own, which the shell merges. */
static int serve_run(const struct channel *c, const struct request *q, struct reply *a)
{
    static struct result r;
    memset(&r, 0, sizeof r);
    r.family = family_at(q->family, a);
    r.params = q->params;
    r.correct = -1;
    if (r.family)
        a->status = cuda_backend.run(r.family, &r.params, &q->options, &r, a->error, sizeof a->error);
    return reply_with(c, a, &r, sizeof r);
}

/* Counters for the items that follow the request, one answer each. */
static int serve_counters(const struct channel *c, const struct request *q, struct reply *a)
{
    size_t count = (size_t)q->count;
    struct counters_item *items = malloc(count * sizeof *items);
    struct counters_answer *answers = calloc(count, sizeof *answers);
    struct result *results = calloc(count, sizeof *results);
    struct result **pointers = calloc(count, sizeof *pointers);
    int failed = !items || !answers || !results || !pointers || receive_all(c->in, items, count * sizeof *items);
    for (size_t k = 0; !failed && k < count && a->status == 0; k++) {
        results[k].family = family_at(items[k].family, a);
        results[k].params = items[k].params;
        pointers[k] = &results[k];
    }
    if (!failed && a->status == 0)
        cuda_backend.read_counters(pointers, q->count);
    for (size_t k = 0; !failed && k < count; k++) {
        answers[k].have_counters = results[k].have_counters;
        answers[k].counters = results[k].counters;
        memcpy(answers[k].counters_unavailable, results[k].counters_unavailable, sizeof answers[k].counters_unavailable);
    }
    failed = failed || reply_with(c, a, answers, count * sizeof *answers);
    free(items);
    free(answers);
    free(results);
    free(pointers);
    return failed ? -1 : 0;
}

static struct device_info opened;   /* the child's device, as it opened it */

static int serve_measure_copy(const struct channel *c, const struct request *q, struct reply *a)
{
    (void)q;
    a->info = opened;
    a->status = cuda_backend.measure_copy(&a->info, a->error, sizeof a->error);
    return reply_with(c, a, NULL, 0);
}

static int serve_allocate(const struct channel *c, const struct request *q, struct reply *a)
{
    uint64_t addresses[MAX_ALLOCATIONS] = { 0 };
    a->status = cuda_backend.allocate(q->count, q->bytes, addresses, a->error, sizeof a->error);
    return reply_with(c, a, addresses, (size_t)q->count * sizeof addresses[0]);
}

/* A kernel declared in Lua, described by the shell: made a family here and loaded on the GPU. */
static int serve_declare(const struct channel *c, const struct request *q, struct reply *a)
{
    char *description = malloc(q->bytes);
    if (!description || receive_all(c->in, description, q->bytes)) {
        free(description);
        return -1;
    }
    struct family *f = user_kernel_unpack(description, q->bytes, a->error, sizeof a->error);
    free(description);
    a->status = f ? cuda_backend_load_kernel(f, a->error, sizeof a->error) : -1;
    return reply_with(c, a, NULL, 0);
}

static int (*const serve[])(const struct channel *c, const struct request *q, struct reply *a) = {
    [REQUEST_RUN] = serve_run,
    [REQUEST_COUNTERS] = serve_counters,
    [REQUEST_MEASURE_COPY] = serve_measure_copy,
    [REQUEST_ALLOCATE] = serve_allocate,
    [REQUEST_DECLARE] = serve_declare,
};

/* Waits for the shell's next request, letting the GPU go to others meanwhile
   (cuda_backend_idle); 0, or -1 when the socket failed. */
static int wait_for_request(int fd)
{
    struct pollfd request = { .fd = fd, .events = POLLIN };
    for (int checks = 1;; checks++) {
        int ready = poll(&request, 1, IDLE_CHECK_MS);
        if (ready > 0)
            return 0;
        if (ready < 0 && errno != EINTR)
            return -1;
        if (ready == 0)
            cuda_backend_idle(checks == IDLE_PAUSE_CHECKS);
    }
}

/* A request as it came over the channel: one the child can serve, with
   counts its buffers hold (the other side may not be this program). */
static int well_formed(const struct request *q)
{
    return q->kind >= REQUEST_RUN && q->kind < REQUEST_QUIT && q->count >= 0 &&
           q->count <= (q->kind == REQUEST_ALLOCATE ? MAX_ALLOCATIONS : MAX_PROFILE_ITEMS) &&
           (q->kind != REQUEST_DECLARE || (q->bytes > 0 && q->bytes <= MAX_DESCRIPTION_BYTES));
}

/* Opens the GPU, says how that went, then answers requests until told to quit,
   until the shell has gone, or until the CUDA context is lost. The process
   then ends with _exit: the runtime's handlers at exit would wait for a
   kernel that ran past its time limit. */
static void serve_requests(const struct channel *c)
{
    struct reply a = { 0 };
    struct request q;
    signal(SIGINT, child_on_sigint);
    a.status = cuda_backend.open(child.ordinal, &a.info, a.error, sizeof a.error);
    opened = a.info;
    if (send_all(c->out, &a, sizeof a) || a.status != 0)
        return;
    cuda_backend.read_counters(NULL, 0);   /* CUPTI's set-up (a few hundred ms), while the shell starts and the student types */
    while (wait_for_request(c->in) == 0 && receive_all(c->in, &q, sizeof q) == 0 && well_formed(&q)) {
        memset(&a, 0, sizeof a);
        interrupt_requested = 0;
        if (serve[q.kind](c, &q, &a) || a.context_lost)
            break;
    }
    cuda_backend.close();
}

/* The forked child: serves the shell over its end of the socket, and ends with it. */
static void serve_shell(int fd, pid_t shell)
{
    const struct channel c = { fd, fd };
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != shell)
        _exit(0);
    serve_requests(&c);
    _exit(0);
}

int gpu_server_run(int ordinal)
{
    const struct channel c = { STDIN_FILENO, STDOUT_FILENO };
    signal(SIGPIPE, SIG_IGN);   /* a shell that went away is a failed write, not a death */
    child.ordinal = ordinal;
    serve_requests(&c);
    fflush(NULL);
    _exit(0);
}

/* ---- the shell's side ---- */

static void child_stop(void)
{
    if (child.socket >= 0)
        close(child.socket);   /* the child sees the end of its requests and exits */
    if (child.pid > 0)
        while (waitpid(child.pid, NULL, 0) < 0 && errno == EINTR)
            ;
    child.socket = -1;
    child.pid = -1;
}

static char launcher_text[4096];                /* the words of --gpu-command, each ended by a NUL */
static char ordinal_text[16];

static int refuse(char *why, size_t why_size, const char *reason)
{
    snprintf(why, why_size, "%s", reason);
    return -1;
}

/* Splits command into words, in launcher_text: blanks separate them, '...'
   and "..." group (no shell runs it, so nothing else is special). The
   number of words, or -1 with why. */
static int split_words(const char *command, char **words, char *why, size_t why_size)
{
    char *out = launcher_text, *end = launcher_text + sizeof launcher_text;
    int count = 0, in_word = 0;
    char quote = 0;
    for (const char *p = command; *p; p++) {
        if (!quote && (*p == ' ' || *p == '\t')) {
            if (in_word)
                *out++ = 0;
            in_word = 0;
            continue;
        }
        if (!in_word && count == MAX_LAUNCHER_WORDS)
            return refuse(why, why_size, SAY("--gpu-command is too long", "--gpu-command 太长"));
        if (!in_word)
            words[count++] = out;
        in_word = 1;
        if (out + 2 > end)   /* room for this character and the word's end */
            return refuse(why, why_size, SAY("--gpu-command is too long", "--gpu-command 太长"));
        if (!quote && (*p == '\'' || *p == '"'))
            quote = *p;
        else if (*p == quote)
            quote = 0;
        else
            *out++ = *p;
    }
    *out = 0;
    if (quote)
        return refuse(why, why_size, SAY("--gpu-command has an unclosed quote", "--gpu-command 有未闭合的引号"));
    return count ? count : refuse(why, why_size, SAY("--gpu-command is empty", "--gpu-command 是空的"));
}

/* words: this program's own path, then --gpu-server with the device and the
   language, and NULL (7 words). 0, or -1 with why. */
static int server_words(char **words, char *why, size_t why_size)
{
    const char *self = program_path();
    if (!self) {
        snprintf(why, why_size, SAY("cannot find this program's path: %s", "找不到本程序的路径：%s"), error_text(errno));
        return -1;
    }
    const char *tail[] = { self, "--gpu-server", "--device", ordinal_text, "--lang", text_language[0] ? text_language : "en", NULL };
    memcpy(words, tail, sizeof tail);
    return 0;
}

/* child.launcher becomes command's words, then server_words. 0, or -1 with why. */
int gpu_process_use_command(const char *command, char *why, size_t why_size)
{
    int words = split_words(command, child.launcher, why, why_size);
    return words < 0 ? -1 : server_words(child.launcher + words, why, why_size);
}

/* In the forked child: becomes the program words name, its standard input
   and output the socket; if it cannot start, says why as the open's reply. */
static void run_launcher(int fd, char *const *words)
{
    struct reply a = { .status = -1 };
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(fd, STDIN_FILENO);
    dup2(fd, STDOUT_FILENO);
    if (fd > STDOUT_FILENO)
        close(fd);
    execvp(words[0], words);
    snprintf(a.error, sizeof a.error, SAY("cannot start the GPU command '%s': %s", "无法启动 GPU 命令 '%s'：%s"),
             words[0], error_text(errno));
    send_all(STDOUT_FILENO, &a, sizeof a);
    _exit(127);
}

/* Forks a child that opens the GPU; 0, or -1 with why. The first is a
   plain fork, started before this process has loaded anything of CUDA's; a
   fresh one, after a lost context, is this program started again
   (--gpu-server): NVRTC, once the shell has used it, has loaded the CUDA
   driver, and a forked child could not initialise CUDA (the H200 machine
   said "initialization error"). */
static int child_start(int fresh, struct device_info *info, char *why, size_t why_size)
{
    int ends[2];
    struct reply a;
    char *self[8];
    if (fresh && !child.launcher[0] && server_words(self, why, why_size))
        return -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        snprintf(why, why_size, SAY("cannot make a socket for the GPU process: %s", "无法为 GPU 进程创建套接字：%s"),
                 error_text(errno));
        return -1;
    }
    pid_t shell = getpid();
    fflush(NULL);   /* or the child would write the shell's buffered output again */
    child.pid = fork();
    if (child.pid == 0) {
        close(ends[0]);
        if (child.launcher[0] || fresh)
            run_launcher(ends[1], child.launcher[0] ? child.launcher : self);
        serve_shell(ends[1], shell);
    }
    close(ends[1]);
    child.socket = ends[0];
    memset(child.told, 0, sizeof child.told);
    if (child.pid < 0) {
        snprintf(why, why_size, SAY("cannot start the GPU process: %s", "无法启动 GPU 进程：%s"), error_text(errno));
        child_stop();
        return -1;
    }
    int ended = receive_all(child.socket, &a, sizeof a) != 0;   /* then a holds nothing to read */
    if (ended || a.status != 0) {
        snprintf(why, why_size, "%.*s", (int)sizeof a.error,
                 ended ? SAY("the GPU process ended while opening the GPU", "GPU 进程在打开 GPU 时结束了") : a.error);
        child_stop();
        return -1;
    }
    *info = a.info;
    return 0;
}

static int gpu_open(int ordinal, struct device_info *info, char *why, size_t why_size)
{
    child.ordinal = ordinal;
    snprintf(ordinal_text, sizeof ordinal_text, "%d", ordinal);
    return child_start(0, info, why, why_size);
}

/* After the child lost its context or ended, starts a fresh one and says so in
   error, after the failure the child reported. */
static void replace_child(const char *failure, char *error, size_t error_size)
{
    struct device_info info;
    char why[512];
    child_stop();
    if (child_start(1, &info, why, sizeof why) == 0)
        snprintf(error, error_size, SAY("%.500s; that ends a CUDA context, so warplab reset the GPU in a fresh "
                 "process and the next launch runs there", "%.500s；这会结束 CUDA 上下文，所以 warplab 在新进程中重置了 GPU，下一次启动在那里运行"), failure);
    else
        snprintf(error, error_size, SAY("%.400s; a fresh GPU process could not be started (%.200s), so launches "
                 "now use the access model: restart warplab to measure on the GPU", "%.400s；无法启动新的 GPU 进程（%.200s），所以之后的启动改用访问模型：请重新启动 warplab 以在 GPU 上测量"), failure, why);
}

/* Sends q (and payload), waits for the reply (and back); on a lost context or
   a child that ended, replaces the child and fails with the reason in a. */
static int call(const struct request *q, const void *payload, size_t payload_size,
                struct reply *a, void *back, size_t back_size)
{
    char failure[768];
    memset(a, 0, sizeof *a);
    if (child.socket < 0) {
        snprintf(a->error, sizeof a->error, SAY("the GPU is not usable after an earlier error", "GPU 在之前的错误之后已无法使用"));
        return a->status = -1;
    }
    int ended = send_all(child.socket, q, sizeof *q) ||
                (payload_size && send_all(child.socket, payload, payload_size)) ||
                receive_all(child.socket, a, sizeof *a) ||
                (back_size && receive_all(child.socket, back, back_size));
    if (!ended && !a->context_lost)
        return a->status;
    snprintf(failure, sizeof failure, "%s", ended ? SAY("the GPU process ended unexpectedly", "GPU 进程意外结束") : a->error);
    replace_child(failure, a->error, sizeof a->error);
    return a->status = -1;
}

/* Copies into r what the backend's run measured (the rest of r is the shell's). */
static void merge_measurement(struct result *r, const struct result *measured)
{
    r->measured = measured->measured;
    r->timing = measured->timing;
    r->sm_clock_mhz = measured->sm_clock_mhz;
    r->correct = measured->correct;
    memcpy(r->mismatch, measured->mismatch, sizeof r->mismatch);
    for (int i = 0; i < measured->warning_count; i++)
        result_warn(r, "%s", measured->warnings[i]);
}

static void merge_counters(struct result *r, const struct counters_answer *counted)
{
    r->have_counters = counted->have_counters;
    r->counters = counted->counters;
    memcpy(r->counters_unavailable, counted->counters_unavailable, sizeof r->counters_unavailable);
}

/* Tells the child of f when it is a kernel declared in Lua the child has not
   loaded yet; 0, or -1 with the reason in a. */
static int tell_child(const struct family *f, struct reply *a)
{
    int index = user_kernel_index(f);
    if (index < 0 || child.told[index] == user_kernel_version(f) + 1)
        return 0;
    struct request q = { .kind = REQUEST_DECLARE };
    void *description = user_kernel_pack(f, &q.bytes);
    int status = description ? call(&q, description, q.bytes, a, NULL, 0) : -1;
    if (!description)
        snprintf(a->error, sizeof a->error, "%s", SAY("out of memory", "内存不足"));
    free(description);
    child.told[index] = status == 0 ? user_kernel_version(f) + 1 : 0;
    return status;
}

static enum run_status gpu_run(const struct family *f, const struct params *p,
                               const struct measure_options *options,
                               struct result *r, char *error, size_t error_size)
{
    static struct result measured;
    struct request q = { .kind = REQUEST_RUN, .family = family_index(f), .params = *p, .options = *options };
    struct reply a;
    q.options.profile = NULL;   /* the model's business, not the GPU's */
    enum run_status status = tell_child(f, &a) ? RUN_FAILED : (enum run_status)call(&q, NULL, 0, &a, &measured, sizeof measured);
    if (status == RUN_OK) {
        merge_measurement(r, &measured);
        r->cache = options->warm ? "warm" : "cold";
    }
    else
        snprintf(error, error_size, "%s", a.error);
    return status;
}

static void gpu_read_counters(struct result *const *results, int count)
{
    if (count <= 0)
        return;
    struct request q = { .kind = REQUEST_COUNTERS, .count = count };
    struct counters_item *items = calloc((size_t)count, sizeof *items);
    struct counters_answer *answers = calloc((size_t)count, sizeof *answers);
    struct reply a;
    int told = 0;
    for (int k = 0; items && answers && k < count && told == 0; k++) {
        items[k] = (struct counters_item){ family_index(results[k]->family), results[k]->params };
        told = tell_child(results[k]->family, &a);
    }
    if (!items || !answers)
        snprintf(a.error, sizeof a.error, SAY("out of memory", "内存不足"));
    if (items && answers && told == 0 && call(&q, items, (size_t)count * sizeof *items, &a, answers, (size_t)count * sizeof *answers) == 0)
        for (int k = 0; k < count; k++)
            merge_counters(results[k], &answers[k]);
    else
        for (int k = 0; k < count; k++)
            snprintf(results[k]->counters_unavailable, sizeof results[k]->counters_unavailable, "%.255s", a.error);
    free(items);
    free(answers);
}

static int gpu_measure_copy(struct device_info *info, char *error, size_t error_size)
{
    struct request q = { .kind = REQUEST_MEASURE_COPY };
    struct reply a;
    if (call(&q, NULL, 0, &a, NULL, 0) != 0) {
        snprintf(error, error_size, "%s", a.error);
        return -1;
    }
    info->copy_gbs = a.info.copy_gbs;
    return 0;
}

static int gpu_allocate(int count, size_t bytes, uint64_t *addresses, char *error, size_t error_size)
{
    struct request q = { .kind = REQUEST_ALLOCATE, .count = count, .bytes = bytes };
    struct reply a;
    if (call(&q, NULL, 0, &a, addresses, (size_t)count * sizeof *addresses) != 0) {
        snprintf(error, error_size, "%s", a.error);
        return -1;
    }
    return 0;
}

static int gpu_usable(void)
{
    return child.socket >= 0;
}

static void gpu_close(void)
{
    struct request q = { .kind = REQUEST_QUIT };
    if (child.socket >= 0)
        send_all(child.socket, &q, sizeof q);
    child_stop();
}

const struct backend gpu_backend = {
    .name = "gpu", .measures = 1, .open = gpu_open, .run = gpu_run, .read_counters = gpu_read_counters,
    .measure_copy = gpu_measure_copy, .allocate = gpu_allocate, .usable = gpu_usable, .close = gpu_close,
};
#else
#include <stdio.h>
#include "backend/backend.h"
#include "support/text.h"

int gpu_process_use_command(const char *command, char *why, size_t why_size)
{
    (void)command;
    snprintf(why, why_size, SAY("--gpu-command needs a warplab built with CUDA; this one only models",
                                "--gpu-command 需要用 CUDA 构建的 warplab；这个只有访问模型"));
    return -1;
}

int gpu_server_run(int ordinal)
{
    (void)ordinal;
    fprintf(stderr, "%s\n", SAY("warplab --gpu-server: this warplab was built without CUDA",
                                 "warplab --gpu-server：这个 warplab 没有用 CUDA 构建"));
    return 1;
}
#endif
