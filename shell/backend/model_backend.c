/*
** model_backend.c — the model backend, and the model's run behind every launch: on
** either backend launch.c starts the access model on a thread of its own
** (model_start) while the backend measures, and waits for it (model_finish).
** The model backend itself has nothing to measure: the counts are the model's.
*/
#include <stdio.h>
#include <string.h>
#include "backend/backend.h"
#include "backend/emulate.h"
#include "interrupt.h"
#include "model/profiles.h"
#include "support/clock.h"

/* The emulator's counts for the job, as the formula's would be: 0, -1 (Ctrl-C) or -2 (why). */
static int run_emulated(struct model_job *job)
{
    struct emulation e;
    int status = emulate_family(job->family, job->params, job->device, NULL, &interrupt_requested, &e, job->why, sizeof job->why);
    if (status == 0)
        *job->counts = e.counts;
    job->printed = e.printed;
    job->shared_float_collisions = e.ran.shared_float_collisions;
    job->level = e.level;
    snprintf(job->level_why, sizeof job->level_why, "%s", e.level_why);
    return status == 0 ? 0 : interrupt_requested ? -1 : -2;
}

static void *run_model(void *argument)
{
    struct model_job *job = argument;
    double started = monotonic_ms();
    job->status = job->emulated ? run_emulated(job) : model_run(job->family, job->params, job->counts, &interrupt_requested);
    job->ms = monotonic_ms() - started;
    return NULL;
}

void model_start(struct model_job *job)
{
    job->started = start_worker(&job->thread, run_model, job) == 0;
    if (!job->started)
        run_model(job);
}

int model_finish(struct model_job *job)
{
    if (job->started)
        pthread_join(job->thread, NULL);
    return job->status;
}

static int model_backend_open(int ordinal, struct device_info *info, char *why, size_t why_size)
{
    *info = device_profiles[0].info;   /* the session may pick another profile */
    info->ordinal = ordinal;
    return 0;
}

static enum run_status model_backend_run(const struct family *f, const struct params *p,
                                         const struct measure_options *options,
                                         struct result *r, char *error, size_t error_size)
{
    r->measured = 0;
    r->correct = -1;
    return RUN_OK;
}

/* Modelled cudaMalloc: 256-byte aligned blocks from a 2 MiB-aligned start,
   each rounded up to 512 bytes (what the model assumes, not what a driver does). */
static int model_backend_allocate(int count, size_t bytes, uint64_t *addresses, char *error, size_t error_size)
{
    uint64_t next = 0x7f0000000000ull, step = (bytes + 511) / 512 * 512;
    for (int i = 0; i < count; i++, next += step)
        addresses[i] = next;
    return 0;
}

static void model_backend_close(void)
{
}

const struct backend model_backend = {
    .name = "sim",   /* the backend's name in results and submissions (and --sim): kept, see docs/internals.md */
    .measures = 0, .open = model_backend_open, .run = model_backend_run,
    .allocate = model_backend_allocate, .close = model_backend_close,
};
