/*
** backend.h — the two backends behind one interface: the GPU's measures on
** a CUDA device, the model's (named "sim" in results) runs the access model only.
*/
#ifndef WARPLAB_BACKEND_H
#define WARPLAB_BACKEND_H

#include <pthread.h>
#include <stddef.h>
#include "model/family.h"
#include "model/device.h"
#include "emulator/ptx.h"
#include "backend/result.h"



struct device_profile;

/* How the GPU backend measures; config{} sets them, a launch may override. */
struct measure_options {
    int warm;            /* 1: no L2 flush before each sample */
    int min_samples;
    double budget_ms;    /* GPU time the samples may take */
    int check;           /* compare outputs with the CPU reference */
    int counters;        /* read hardware counters in a counted run after the samples */
    const struct device_profile *profile;   /* the device the model's time estimate is for */
    int emulated;        /* 1: the model runs the kernel's own PTX on the emulator, not the formula */
    double kernel_timeout_s;   /* a launch of a kernel declared in Lua still running after this ends its GPU process */
};

/* The most blocks one alloc_alignment experiment makes. */
enum { MAX_ALLOCATIONS = 256 };

enum run_status { RUN_OK = 0, RUN_FAILED = -1, RUN_INTERRUPTED = -2 };

struct backend {
    const char *name;
    int measures;        /* 1: launches are measured on a device; 0: the model stands in for one */
    /* 0 when usable; otherwise why not, in one line. */
    int (*open)(int ordinal, struct device_info *info, char *why, size_t why_size);
    /* Measures a launch into r (model counts are already there). */
    enum run_status (*run)(const struct family *f, const struct params *p,
                           const struct measure_options *options,
                           struct result *r, char *error, size_t error_size);
    /* Reads hardware counters for measured launches, in as few counter
       batches as it can (NULL: no counters on this backend); with count 0
       it only sets the profiler up. */
    void (*read_counters)(struct result *const *results, int count);
    /* Measures the device-to-device copy ceiling now (NULL: no device to measure). */
    int (*measure_copy)(struct device_info *info, char *error, size_t error_size);
    /* Makes count allocations of bytes each, writes their addresses and frees
       them (the alloc_alignment experiment); 0, or -1 with an error. */
    int (*allocate)(int count, size_t bytes, uint64_t *addresses, char *error, size_t error_size);
    /* Whether launches can still run here (NULL: always). */
    int (*usable)(void);
    void (*close)(void);
};

extern const struct backend model_backend;
#ifdef HAVE_CUDA
/* The shell's GPU backend: it starts the GPU process and asks it (gpu_process.c). */
extern const struct backend gpu_backend;
/* What runs in the GPU process: the CUDA calls themselves (cuda_backend.c). */
extern const struct backend cuda_backend;
/* The GPU process had nothing to do for a while (long_idle: a minute): it
   lets go of the profiler when another process waits for it, or anyway. */
void cuda_backend_idle(int long_idle);
/* In the GPU process: loads a kernel declared in Lua (user_kernel_unpack's)
   for its launches; 0, or -1 with why (cuda_kernels.c). */
int cuda_backend_load_kernel(struct family *f, char *why, size_t why_size);
/* Whether f, declared in Lua, is loaded in this GPU process. */
int cuda_backend_kernel_loaded(const struct family *f);

/* A launch made ready in the GPU process: its kernel's function (a
   CUfunction) and its family's kernel_call, with each argument's word, and
   where each of the kernel's parameters starts among them (a struct passed
   by value takes a word per 8 bytes). */
struct ready_launch {
    void *function;
    struct kernel_call call;
    uint64_t words[MAX_KERNEL_ARGS];
    int first_word[MAX_KERNEL_ARGS], param_count;
    void *stream;              /* cudaStream_t */
};
/* Readies f's launch of p over the device buffers on stream: a built-in's
   kernel compiled and loaded the first time (cuda_kernels.c). 0, or -1 with why. */
int cuda_kernel_ready(const struct family *f, const struct params *p, void *const *buffers, void *stream,
                      struct ready_launch *ready, char *why, size_t why_size);
/* Queues the ready launch; a cudaError_t, as a <<<>>> launch's. */
int cuda_kernel_launch(const struct ready_launch *ready);
/* Copies f's constant buffers (f->constants) from host into its module's
   __constant__ variables, on stream; a cudaError_t. */
int cuda_backend_copy_constants(const struct family *f, void *const *host, const size_t *bytes, void *stream);
#endif

/* The access model of one launch, counted on a thread of its own while the
   backend measures (model_backend.c): model_start, then model_finish waits for it and
   returns its status (-1 when Ctrl-C stopped it). */
struct model_job {
    const struct family *family;
    const struct params *params;
    struct model_counts *counts;
    int emulated;         /* on the emulator (model = "emulator"), not the formula */
    const struct device_info *device;   /* on the emulator: whose limits its launch keeps */
    pthread_t thread;
    int started, status;  /* status: 0, -1 when Ctrl-C stopped it, -2 when the emulator failed (why) */
    double ms;   /* how long the model took */
    char why[512];
    struct ptx_printed printed;   /* on the emulator: what the kernel's printf printed (text malloc'd, or NULL) */
    uint64_t shared_float_collisions;   /* on the emulator: its ptx_ran's */
    const char *level;                  /* on the emulator: "sass" or "ptx" (struct emulation's) */
    char level_why[320];
};
void model_start(struct model_job *job);
int model_finish(struct model_job *job);

/* --gpu-command: the GPU process is started as `COMMAND warplab --gpu-server
   ...` (srun, ssh, env), speaking over the launcher's standard input and
   output, instead of forked. 0, or -1 with why (a bad command, or no CUDA). */
int gpu_process_use_command(const char *command, char *why, size_t why_size);
/* --gpu-server: serves one shell's GPU requests on standard input and output. */
int gpu_server_run(int ordinal);

/* After a failure that left the backend unusable, the session goes on with
   the model, and says so in the device's notice. */
void backend_fall_back(const struct backend **backend, struct device_info *info,
                       char *notice_text, size_t notice_size);

/* Opens the GPU when one is usable (and not force_sim), else the model;
   a one-line notice says why the model was chosen. */
const struct backend *backend_choose(int force_sim, int ordinal, struct device_info *info,
                                     char *notice_text, size_t notice_size);

#endif
