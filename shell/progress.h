/*
** progress.h — a progress bar on stderr for work that takes over a second:
** count, elapsed time and an estimate of what is left. Nothing is drawn when
** stderr is not a terminal.
*/
#ifndef WARPLAB_PROGRESS_H
#define WARPLAB_PROGRESS_H

struct progress {
    const char *label;
    int total, done;
    int enabled, shown;
    double started;
};

void progress_start(struct progress *p, const char *label, int total, int wanted);
/* One more item done; draws once a second has passed. */
void progress_step(struct progress *p);
/* Clears the bar, if one was drawn. */
void progress_end(struct progress *p);

/* Milliseconds on the monotonic clock: the shell's one clock, which bars,
   launches, the GPU's lock and its waits are timed with. */
double monotonic_ms(void);
/* The same clock in seconds. */
double seconds_now(void);

#endif
