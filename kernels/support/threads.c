/*
** threads.c — worker threads that take no signal, and work split among them.
*/
#include <signal.h>
#include <unistd.h>
#include "support/threads.h"

volatile sig_atomic_t interrupt_requested = 0;

int start_worker(pthread_t *thread, void *(*run)(void *), void *argument)
{
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);   /* the new thread inherits this mask */
    int status = pthread_create(thread, NULL, run, argument);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return status;
}

struct part_call {
    void (*work)(void *argument, int part, int parts);
    void *argument;
    int part, parts;
    pthread_t thread;
};

static void *run_part(void *argument)
{
    struct part_call *call = argument;
    call->work(call->argument, call->part, call->parts);
    return NULL;
}

void run_in_parts(int parts, void (*work)(void *argument, int part, int parts), void *argument)
{
    struct part_call calls[MAX_PARTS];
    int started = 0;
    parts = parts < 1 ? 1 : parts > MAX_PARTS ? MAX_PARTS : parts;
    for (int k = 0; k < parts; k++)
        calls[k] = (struct part_call){ work, argument, k, parts, 0 };
    while (started < parts - 1 && start_worker(&calls[started].thread, run_part, &calls[started]) == 0)
        started++;
    for (int k = started; k < parts; k++)
        run_part(&calls[k]);
    for (int k = 0; k < started; k++)
        pthread_join(calls[k].thread, NULL);
}

int host_threads(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1 : online > 8 ? 8 : (int)online;
}

int threads_for_bytes(size_t bytes)
{
    size_t wanted = bytes / (16 << 20);
    return wanted < 1 ? 1 : wanted < (size_t)host_threads() ? (int)wanted : host_threads();
}
