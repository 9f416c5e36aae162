/*
** gpu_lock.c — the GPU's lock across processes and users: flock() on a file
** named by the GPU's UUID. The file is opened read-only (flock needs no
** more), so a file another user created in /tmp can be locked even where
** fs.protected_regular forbids opening it with O_CREAT; its creator makes
** it readable by all. A process that dies releases its lock with it.
** A second file says who is waiting: each waiting process holds a shared lock
** on it, so the holder can tell (an exclusive try fails) and give way, for
** instance by turning its profiler off, which no other process can use while
** it is on.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "backend/gpu_lock.h"
#include "support/clock.h"
#include "interrupt.h"
#include "output.h"
#include "support/text.h"

static const double POLL_S = 0.02;   /* how often a waiting process tries again */

static struct {
    int fd;
    int waiting_fd;   /* the waiters' file */
    int held;         /* takes not yet released: a take inside a take does not wait on itself */
} lock = { -1, -1, 0 };

/* Opens the file, creating it readable by all when no one has yet. */
static int open_lock_file(const char *path)
{
    for (int tries = 0; tries < 3; tries++) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0 || errno != ENOENT)
            return fd;
        fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
        if (fd >= 0) {
            fchmod(fd, 0444);   /* whatever the creator's umask */
            return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

int gpu_lock_open(const char *uuid, char *why, size_t why_size)
{
    const char *dir = getenv("WARPLAB_LOCK_DIR");
    char path[4096], waiting_path[4200];
    snprintf(path, sizeof path, "%s/warplab-gpu-%s.lock", dir && *dir ? dir : "/tmp", uuid);
    snprintf(waiting_path, sizeof waiting_path, "%s.waiting", path);
    gpu_lock_close();
    lock.fd = open_lock_file(path);
    lock.waiting_fd = lock.fd >= 0 ? open_lock_file(waiting_path) : -1;
    if (lock.waiting_fd < 0) {
        gpu_lock_close();
        snprintf(why, why_size, SAY("cannot open the GPU's lock %s (%s): measurements of other shells on this GPU "
                                    "may overlap this one's", "无法打开 GPU 的锁 %s（%s）：这块 GPU 上其他 shell 的测量可能与本 shell 的重叠"),
                 path, error_text(errno));
        return -1;
    }
    return 0;
}

enum wait_news { WAIT_STARTED, WAIT_GOES_ON, WAIT_DONE };

/* The wait, said on stderr: on a terminal one line that counts the seconds,
   elsewhere a line when it starts and one when it ends. */
static void say_waiting(enum wait_news news, double waited)
{
    int terminal = isatty(STDERR_FILENO);
    if (news == WAIT_DONE)
        fprintf(stderr, SAY("%swaited %.1f s for the GPU: another warplab was measuring\n",
                            "%s等待 GPU %.1f 秒：另一个 warplab 在测量\n"), terminal ? "\r\33[K" : "", waited);
    else if (terminal)
        fprintf(stderr, SAY("\r\33[Kwaiting for the GPU: another warplab is measuring (%.0f s)",
                            "\r\33[K正在等待 GPU：另一个 warplab 正在测量（%.0f 秒）"), waited);
    else if (news == WAIT_STARTED)
        fprintf(stderr, SAY("waiting for the GPU: another warplab is measuring\n",
                            "正在等待 GPU：另一个 warplab 正在测量\n"));
}

int gpu_lock_take(void)
{
    if (lock.fd < 0 || lock.held++ > 0 || flock(lock.fd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    const struct timespec poll = { 0, (long)(POLL_S * 1e9) };
    double started = seconds_now(), next_news = started + 1;
    flock(lock.waiting_fd, LOCK_SH);
    say_waiting(WAIT_STARTED, 0);
    while (!interrupt_requested) {
        nanosleep(&poll, NULL);
        if (flock(lock.fd, LOCK_EX | LOCK_NB) == 0) {
            flock(lock.waiting_fd, LOCK_UN);
            say_waiting(WAIT_DONE, seconds_now() - started);
            return 0;
        }
        if (seconds_now() >= next_news) {
            say_waiting(WAIT_GOES_ON, seconds_now() - started);
            next_news += 1;
        }
    }
    flock(lock.waiting_fd, LOCK_UN);
    if (isatty(STDERR_FILENO))
        fputc('\n', stderr);
    lock.held--;
    return -1;
}

int gpu_lock_yield(void)
{
    const struct timespec pause = { 0, (long)(5 * POLL_S * 1e9) };
    if (lock.fd < 0)
        return 0;
    int outer = lock.held;
    flock(lock.waiting_fd, LOCK_SH);
    flock(lock.fd, LOCK_UN);
    lock.held = 0;
    nanosleep(&pause, NULL);
    flock(lock.waiting_fd, LOCK_UN);
    if (interrupt_requested || gpu_lock_take() != 0)
        return -1;
    lock.held = outer;
    return 0;
}

int gpu_lock_others_waiting(void)
{
    if (lock.waiting_fd < 0 || flock(lock.waiting_fd, LOCK_EX | LOCK_NB) == 0) {
        if (lock.waiting_fd >= 0)
            flock(lock.waiting_fd, LOCK_UN);
        return 0;
    }
    return 1;
}

void gpu_lock_release(void)
{
    if (lock.fd >= 0 && lock.held > 0 && --lock.held == 0)
        flock(lock.fd, LOCK_UN);
}

void gpu_lock_close(void)
{
    if (lock.fd >= 0)
        close(lock.fd);
    if (lock.waiting_fd >= 0)
        close(lock.waiting_fd);
    lock.fd = lock.waiting_fd = -1;
    lock.held = 0;
}
