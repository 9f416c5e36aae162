/*
** clock.c — the monotonic clock (clock.h).
*/
#include <time.h>
#include "support/clock.h"

double monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double seconds_now(void)
{
    return monotonic_ms() / 1000;
}
