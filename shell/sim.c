/*
** sim.c — the model backend: nothing to measure, the counts come from the
** access model that every launch runs anyway.
*/
#include <stdio.h>
#include <string.h>
#include "backend.h"

/* The device the model describes by default: the H200 of the GPU machine,
   as its CUDA attributes read there on 2026-11-30. */
static const struct device_info modelled_h200 = {
    .name = "NVIDIA H200 (modelled)",
    .major = 9, .minor = 0,
    .sm_count = 132,
    .l2_bytes = 60ull << 20,
    .memory_bytes = 150100000000ull,
    .free_bytes = 150100000000ull,
    .bus_width_bits = 6016,
    .memory_clock_mhz = 3201,
    .peak_gbs = 2 * 3201e6 * 6016 / 8 / 1e9,
    .sm_clock_mhz = 1980,
};

static int sim_open(int ordinal, struct device_info *info, char *why, size_t why_size)
{
    *info = modelled_h200;
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
