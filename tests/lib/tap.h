/*
** tap.h — the smallest TAP producer for C tests: ok(), is_int(), done().
*/
#ifndef WARPLAB_TAP_H
#define WARPLAB_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

static __attribute__((unused)) int ok(int condition, const char *name)
{
    tap_count++;
    if (!condition)
        tap_failed++;
    printf("%sok %d - %s\n", condition ? "" : "not ", tap_count, name);
    return condition;
}

static __attribute__((unused)) int is_int(long long got, long long expected, const char *name)
{
    int passed = ok(got == expected, name);
    if (!passed)
        printf("#   got %lld, expected %lld\n", got, expected);
    return passed;
}

static __attribute__((unused)) int is_string(const char *got, const char *expected, const char *name)
{
    int passed = ok(got && strcmp(got, expected) == 0, name);
    if (!passed)
        printf("#   got '%s'\n#   expected '%s'\n", got ? got : "(null)", expected);
    return passed;
}

static __attribute__((unused)) int done(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed ? 1 : 0;
}

#endif
