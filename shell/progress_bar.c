/*
** progress_bar.c — the bar is redrawn in place with \r and erased at the end,
** so the output around it stays as if it had never been there.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "progress_bar.h"
#include "support/clock.h"
#include "support/text.h"

enum { BAR_WIDTH = 24, SHORT_BAR_WIDTH = 12 };   /* short beside the hint, so that the line fits 80 columns */
static const double SHOW_AFTER_S = 1.0, HINT_AFTER_S = 3.0;
static const long TICK_NS = 250000000;   /* how often the time is redrawn while an item runs */

static void draw(const struct progress_bar *p, double elapsed)
{
    int hinting = p->waiting && elapsed >= HINT_AFTER_S && p->done < p->total;
    int width = hinting ? SHORT_BAR_WIDTH : BAR_WIDTH;
    int full = p->total ? p->done * width / p->total : 0;
    double left = p->done ? elapsed / p->done * (p->total - p->done) : 0;
    fprintf(stderr, "\r  %s [", p->label);
    for (int i = 0; i < width; i++)
        fputs(i < full ? "#" : ".", stderr);
    if (p->done && p->done < p->total)
        fprintf(stderr, SAY("] %d/%d · %.1f s · about %.1f s left ", "] %d/%d · %.1f s · 约剩 %.1f s "), p->done, p->total, elapsed, left);
    else   /* nothing finished yet, or nothing left: no estimate to give */
        fprintf(stderr, "] %d/%d · %.1f s ", p->done, p->total, elapsed);
    if (hinting)
        fprintf(stderr, "· %s ", p->waiting);
    fflush(stderr);
}

/* Draws the bar once a second has passed; called with the lock held. */
static void redraw(struct progress_bar *p)
{
    double elapsed = monotonic_ms() / 1e3 - p->started;
    if (!p->enabled || elapsed < SHOW_AFTER_S)
        return;
    draw(p, elapsed);
    p->shown = 1;
}

static void *tick(void *argument)
{
    struct progress_bar *p = argument;
    for (;;) {
        nanosleep(&(struct timespec){ 0, TICK_NS }, NULL);
        pthread_mutex_lock(&p->lock);
        int stop = p->stop;
        if (!stop)
            redraw(p);
        pthread_mutex_unlock(&p->lock);
        if (stop)
            return NULL;
    }
}

void progress_bar_start(struct progress_bar *p, const char *label, int total, int wanted)
{
    const char *term = getenv("TERM");
    p->label = label;
    p->waiting = NULL;
    p->total = total;
    p->done = 0;
    p->shown = 0;
    p->enabled = wanted && isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
    p->started = monotonic_ms() / 1e3;
    p->stop = 0;
    pthread_mutex_init(&p->lock, NULL);
    p->ticking = p->enabled && pthread_create(&p->ticker, NULL, tick, p) == 0;
}

void progress_bar_say_when_waiting(struct progress_bar *p, const char *text)
{
    pthread_mutex_lock(&p->lock);
    p->waiting = text;
    pthread_mutex_unlock(&p->lock);
}

void progress_bar_step(struct progress_bar *p)
{
    pthread_mutex_lock(&p->lock);
    p->done++;
    redraw(p);
    pthread_mutex_unlock(&p->lock);
}

void progress_bar_end(struct progress_bar *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_mutex_unlock(&p->lock);
    if (p->ticking)
        pthread_join(p->ticker, NULL);
    p->ticking = 0;
    if (p->shown)
        fprintf(stderr, "\r%*s\r", 79, "");
    p->shown = 0;
    pthread_mutex_destroy(&p->lock);
}
