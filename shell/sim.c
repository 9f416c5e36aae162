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

static void sim_close(void)
{
}

const struct backend sim_backend = { "sim", sim_open, sim_run, NULL, NULL, NULL, sim_close };
