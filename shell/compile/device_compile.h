/*
** device_compile.h — CUDA C to PTX (or a CUBIN) in a child process with
** limits (compile_child.c): through NVRTC, which the child loads
** (nvrtc.c), or a compiler program such as clang. The emulator's compiles
** of the families' own kernels, core.compile's and the GPU's all come here.
*/
#ifndef WARPLAB_DEVICE_COMPILE_H
#define WARPLAB_DEVICE_COMPILE_H

#include <stddef.h>
#include <lauxlib.h>

/* The hidden option that makes warplab the compile child (main.c). */
#define COMPILE_CHILD_OPTION "--compile-child"

struct compile_job {
    const char *source, *name;          /* the text, and what messages call it */
    const char *const *options;
    int option_count;
    const char *const *header_texts, *const *header_names;   /* #include "NAME" served from memory */
    int header_count;
    const char *expression;             /* a kernel as a C++ name ("copy<float4>"), or NULL */
    int binary;                         /* 1: the CUBIN for the real architecture the options name, not PTX */
    int trusted;                        /* warplab's own source (a built-in family): its includes are not checked */
    const char *const *program;         /* NULL: NVRTC; else a compiler's argument vector, NULL-terminated, run
                                           where the source (as name) and headers are files */
    const char *prelude;                /* with program: warplab's own text, as the file warplab-prelude.h */
    const char *output_file;            /* with program: the file it writes its output to */
    int output_on_stdout;               /* with program: it prints its output, kept in output_file */
    size_t source_size;                 /* nonzero: source is that many bytes of data, such as a CUBIN for a
                                           disassembler, passed as they are (no include check) */
};

enum compile_status {
    COMPILED,          /* output holds the PTX or CUBIN */
    COMPILE_FAILED,    /* log holds the compiler's messages, cut to the source's own files */
    COMPILE_STOPPED,   /* log holds warplab's one line: a refused include, a limit, Ctrl-C */
    NO_COMPILER,       /* log says why there is no NVRTC here */
};

struct compile_outcome {
    enum compile_status status;
    char *output, *log;        /* malloc'd */
    size_t output_size;        /* a CUBIN holds NUL bytes */
    char lowered[256];         /* the job's expression's mangled name */
    char version[32];          /* "NVRTC 13.0", from NVRTC's compiles */
    int interrupted;           /* stopped by Ctrl-C */
};

/* Checks job's includes, then compiles it in a child under limits; 0 when it compiled. */
int compile_isolated(const struct compile_job *job, struct compile_outcome *outcome);
void compile_outcome_free(struct compile_outcome *outcome);

/* The same for callers in C that want the PTX (malloc'd in *ptx) or the messages (*log). */
int nvrtc_compile(const struct compile_job *job, char **ptx, char *lowered, size_t lowered_size, char **log);

/* The child's side: `warplab --compile-child FOLDER PID LANG`; its exit status. */
int compile_child_main(int argc, char **argv);
/* Whether a compile's memory is limited (not in a build with AddressSanitizer). */
extern const int compile_memory_limited;

/* In the child: compiles job through NVRTC in this process (nvrtc.c). 0 with
   *output (malloc'd, its size in *size) and, for job->expression, its mangled
   name in lowered; or -1 with *log (malloc'd). */
int nvrtc_compile_here(const struct compile_job *job, char **output, size_t *size, char *lowered, size_t lowered_size, char **log);

/* "NVRTC 13.0", or NULL when there is none here (then nvrtc_unavailable() says why). */
const char *nvrtc_version(void);
const char *nvrtc_unavailable(void);
/* The folder the NVRTC library was loaded from (its builtins are loaded from there later), or NULL. */
const char *nvrtc_library_folder(void);
/* Loads NVRTC's builtins library now, before the child shuts off its files. */
void nvrtc_load_builtins(void);

/* The headers the kernels' device code includes, as text (kernels/families/device_headers.c). */
extern const struct device_header {
    const char *name;
    const char *text;
} device_headers[];
extern const int device_headers_count;
/* Those of them that source includes ("NAME" lines), and those they include,
   into names and texts (at most `most`): how many. A family's compile is
   given only its own, not every family's. */
int device_headers_of(const char *source, const char **names, const char **texts, int most);

struct family;
/* f's kernel (kernel, a C++ name expression: "copy<float4>") compiled by
   NVRTC from f's source, device code only, for target: "compute_75", PTX
   (the emulator's, or what the driver compiles), or "sm_90", that GPU's
   CUBIN; remembered by family, kernel and target, so that a sweep or a
   repeated launch compiles each once. The code (malloc'd, the caller's; its
   size in *size) with the kernel's mangled name in lowered, or NULL with why. */
char *family_code(const struct family *f, const char *kernel, const char *target, size_t *size, char *lowered,
                  size_t lowered_size, char *why, size_t why_size);

/* Whether this NVRTC makes machine code for compute capability cc (90: sm_90). */
int nvrtc_knows_arch(int cc);

/* What nvrtc.c adds to the core table: nvrtc, hash, cache_path (for lua/compile.lua). */
extern const luaL_Reg compile_core[];
/* What disassemble.c adds: disassemble (a CUBIN's SASS, as tables) and disassembler (its path). */
extern const luaL_Reg disassemble_core[];

#endif
