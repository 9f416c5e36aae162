/*
** progress.c — the bar is redrawn in place with \r and erased at the end,
** so the output around it stays as if it had never been there.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"
#include "session.h"

enum { BAR_WIDTH = 24 };
static const double SHOW_AFTER_S = 1.0;

double monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

void progress_start(struct progress *p, const char *label, int total, int wanted)
{
    const char *term = getenv("TERM");
    p->label = label;
    p->total = total;
    p->done = 0;
    p->shown = 0;
    p->enabled = wanted && isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
    p->started = monotonic_ms() / 1e3;
}

static void draw(const struct progress *p, double elapsed)
{
    int full = p->total ? p->done * BAR_WIDTH / p->total : 0;
    double left = p->done ? elapsed / p->done * (p->total - p->done) : 0;
    fprintf(stderr, "\r  %s [", p->label);
    for (int i = 0; i < BAR_WIDTH; i++)
        fputs(i < full ? "#" : ".", stderr);
    fprintf(stderr, SAY("] %d/%d · %.1f s · about %.1f s left ", "] %d/%d · %.1f s · 约剩 %.1f s "), p->done, p->total, elapsed, left);
    fflush(stderr);
}

void progress_step(struct progress *p)
{
    p->done++;
    if (!p->enabled)
        return;
    double elapsed = monotonic_ms() / 1e3 - p->started;
    if (elapsed < SHOW_AFTER_S)
        return;
    draw(p, elapsed);
    p->shown = 1;
}

void progress_end(struct progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r%*s\r", 78, "");
    p->shown = 0;
}

double seconds_now(void)
{
    return monotonic_ms() / 1000;
}
