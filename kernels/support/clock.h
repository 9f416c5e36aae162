/*
** clock.h — the monotonic clock, the one that bars, launches, the GPU's lock
** and its waits are timed with.
*/
#ifndef WARPLAB_CLOCK_H
#define WARPLAB_CLOCK_H

/* Milliseconds on the monotonic clock. */
double monotonic_ms(void);
/* The same clock in seconds. */
double seconds_now(void);

#endif
