/*
** device_compile.h — CUDA C to PTX through NVRTC, in this process (nvrtc.c), for the
** emulator's compiles of the families' own kernels.
*/
#ifndef WARPLAB_DEVICE_COMPILE_H
#define WARPLAB_DEVICE_COMPILE_H

#include <stddef.h>

struct nvrtc_job {
    const char *source, *name;          /* the text, and what messages call it */
    const char *const *options;
    int option_count;
    const char *const *header_texts, *const *header_names;   /* #include "NAME" served from memory */
    int header_count;
    const char *expression;             /* a kernel as a C++ name ("copy<float4>"), or NULL */
    int binary;                         /* 1: the CUBIN for the real architecture the options name, not PTX */
};

/* Compiles job: 0 with *ptx (malloc'd) and, for job->expression, its mangled
   name in lowered; or -1 with *log (malloc'd): NVRTC's messages, or why there is none. */
int nvrtc_compile(const struct nvrtc_job *job, char **ptx, char *lowered, size_t lowered_size, char **log);
/* The same, with the output's size in *size (a CUBIN holds NUL bytes). */
int nvrtc_compile_sized(const struct nvrtc_job *job, char **output, size_t *size, char *lowered, size_t lowered_size,
                        char **log);

/* "NVRTC 13.0", or NULL when there is none here. */
const char *nvrtc_version(void);

#endif
