/*
** unit_gpu_lock.c — the GPU's lock across processes, without a GPU: a second
** process waits while the first holds it, and says so; a holder killed with
** SIGKILL releases it; Ctrl-C ends a wait; a take inside a take does not
** wait on itself; the holder sees a waiter and can yield to it; the file is
** readable by all whatever the umask.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "backend/gpu_lock.h"
#include "interrupt.h"
#include "../lib/tap.h"

static const char UUID[] = "GPU-test-0000";
static char dir[] = "/tmp/warplab-lock-XXXXXX", path[128], news_path[160];

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A process that takes the lock, says so through the pipe, holds it for
   hold_s seconds (forever when negative) and ends. */
static pid_t holder(double hold_s)
{
    int ready[2];
    char byte = 0, why[256];
    if (pipe(ready) != 0)
        exit(1);
    pid_t pid = fork();
    if (pid == 0) {
        close(ready[0]);
        if (gpu_lock_open(UUID, why, sizeof why) != 0 || gpu_lock_take() != 0)
            _exit(1);
        write(ready[1], "x", 1);
        if (hold_s < 0)
            for (;;)
                pause();
        usleep((useconds_t)(hold_s * 1e6));
        _exit(0);
    }
    close(ready[1]);
    read(ready[0], &byte, 1);
    close(ready[0]);
    return pid;
}

/* 1 when another process could take the lock right now. */
static int free_for_others(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(path, O_RDONLY);
        _exit(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* What this process wrote on stderr since the last call, from news_path. */
static const char *news(void)
{
    static char text[1024];
    fflush(stderr);
    FILE *f = fopen(news_path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = 0;
    if (f)
        fclose(f);
    freopen(news_path, "w", stderr);
    return text;
}

static void on_alarm(int signal_number)
{
    (void)signal_number;
    interrupt_requested = 1;
}

int main(void)
{
    char why[256];
    struct stat st;
    if (!mkdtemp(dir))
        return 1;
    setenv("WARPLAB_LOCK_DIR", dir, 1);
    snprintf(path, sizeof path, "%s/warplab-gpu-%s.lock", dir, UUID);
    snprintf(news_path, sizeof news_path, "%s/stderr", dir);
    freopen(news_path, "w", stderr);

    umask(077);
    ok(gpu_lock_open(UUID, why, sizeof why) == 0, "the lock file opens, created where there was none");
    ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0444, "... readable by all under umask 077, as other users need");
    ok(gpu_lock_take() == 0 && gpu_lock_take() == 0, "a take inside a take does not wait on itself");
    gpu_lock_release();
    ok(!free_for_others(), "... and the lock stays held until the outer take is released");
    gpu_lock_release();
    ok(free_for_others(), "released, another process can take it");

    pid_t pid = holder(0.6);
    news();
    double started = now_s();
    int taken = gpu_lock_take() == 0;
    double waited = now_s() - started;
    const char *said = news();
    ok(taken && waited > 0.3, "a second process waits while the first holds the lock");
    ok(strstr(said, "waiting for the GPU: another warplab is measuring") != NULL, "... and says so");
    ok(strstr(said, "waited ") != NULL, "... and how long it waited");
    if (!strstr(said, "waiting for the GPU"))
        printf("#   stderr: %s\n", said);
    gpu_lock_release();
    waitpid(pid, NULL, 0);

    ok(gpu_lock_take() == 0 && !gpu_lock_others_waiting(), "holding the lock alone, no one is waiting");
    pid = fork();
    if (pid == 0) {   /* waits for the lock, then gives it straight back */
        freopen("/dev/null", "w", stderr);
        _exit(gpu_lock_open(UUID, why, sizeof why) == 0 && gpu_lock_take() == 0 ? 0 : 1);
    }
    int seen = 0;
    for (double until = now_s() + 3; !seen && now_s() < until; usleep(10000))
        seen = gpu_lock_others_waiting();
    ok(seen, "the holder sees another process waiting");
    ok(gpu_lock_yield() == 0, "the holder yields and takes the lock again");
    gpu_lock_release();
    int status = -1;
    ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
       "the waiting process had its turn");
    ok(!gpu_lock_others_waiting(), "... and then no one is waiting");
    news();

    pid = holder(-1);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    started = now_s();
    ok(gpu_lock_take() == 0 && now_s() - started < 0.3, "a holder killed with SIGKILL releases the lock");
    gpu_lock_release();

    pid = holder(-1);
    signal(SIGALRM, on_alarm);
    alarm(1);
    ok(gpu_lock_take() == -1, "Ctrl-C while waiting ends the wait");
    interrupt_requested = 0;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    ok(free_for_others(), "... without keeping a claim on the lock");
    ok(gpu_lock_take() == 0, "the lock can be taken after an interrupted wait");
    gpu_lock_release();

    gpu_lock_close();
    ok(gpu_lock_take() == 0, "with no lock file open, taking it does nothing");
    gpu_lock_release();
    unlink(news_path);
    unlink(path);
    rmdir(dir);
    return done();
}
