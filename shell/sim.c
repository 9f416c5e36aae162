/*
** sim.c — the model backend: nothing to measure, the counts come from the
** access model that every launch runs anyway.
*/
#include <stdio.h>
#include <string.h>
#include "backend.h"
#include "profiles.h"

static int sim_open(int ordinal, struct device_info *info, char *why, size_t why_size)
{
    *info = device_profiles[0].info;   /* the session may pick another profile */
    info->ordinal = ordinal;
    return 0;
}

static enum run_status sim_run(const struct family *f, const struct params *p,
                               const struct measure_options *options,
                               struct result *r, char *error, size_t error_size)
{
    r->measured = 0;
    r->correct = -1;
    return RUN_OK;
}

/* Modelled cudaMalloc: 256-byte aligned blocks from a 2 MiB-aligned start,
   each rounded up to 512 bytes (what the model assumes, not what a driver does). */
static int sim_allocate(int count, size_t bytes, uint64_t *addresses, char *error, size_t error_size)
{
    uint64_t next = 0x7f0000000000ull, step = (bytes + 511) / 512 * 512;
    for (int i = 0; i < count; i++, next += step)
        addresses[i] = next;
    return 0;
}

static void sim_close(void)
{
}

const struct backend sim_backend = {
    .name = "sim", .measures = 0, .open = sim_open, .run = sim_run, .allocate = sim_allocate, .close = sim_close,
};
