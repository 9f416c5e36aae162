/*
** progress_bar.h — a progress bar on stderr for work that takes over a second:
** count, elapsed time and an estimate of what is left, redrawn while an item
** runs too (one long launch shows its seconds). Nothing is drawn when stderr
** is not a terminal.
*/
#ifndef WARPLAB_PROGRESS_BAR_H
#define WARPLAB_PROGRESS_BAR_H

#include <pthread.h>

struct progress_bar {
    const char *label;
    const char *waiting;          /* said once an item has run HINT_AFTER_S ("Ctrl-C stops it"), or NULL */
    int total, done;
    int enabled, shown;
    double started;
    pthread_t ticker;             /* redraws the bar while an item runs */
    pthread_mutex_t lock;         /* around each redraw */
    int ticking, stop;
};

void progress_bar_start(struct progress_bar *p, const char *label, int total, int wanted);
/* What the bar says once an item has run a few seconds: what to do if it never ends. */
void progress_bar_say_when_waiting(struct progress_bar *p, const char *text);
/* One more item done; draws once a second has passed (and a thread of its
   own redraws the time between items). */
void progress_bar_step(struct progress_bar *p);
/* Clears the bar, if one was drawn. */
void progress_bar_end(struct progress_bar *p);

#endif
