/*
** family_compile.c — a family's own kernels compiled by NVRTC, as PTX for the
** emulator or as CUBIN for the GPU, once each per process (device_compile.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compile/device_compile.h"
#include "model/family.h"
#include "support/text.h"

/* Adds to names and texts the device headers text includes that they lack. */
static void add_included(const char *text, const char **names, const char **texts, int *count, int most)
{
    static const char directive[] = "#include \"";
    for (const char *line = text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        const char *name = line + sizeof directive - 1, *end;
        if (strncmp(line, directive, sizeof directive - 1) != 0 || !(end = strchr(name, '"')))
            continue;
        for (int i = 0; i < device_headers_count; i++) {
            const char *header = device_headers[i].name;
            int known = 0;
            if (strlen(header) != (size_t)(end - name) || strncmp(header, name, (size_t)(end - name)) != 0)
                continue;
            for (int j = 0; j < *count; j++)
                known |= names[j] == header;
            if (!known && *count < most)
                names[*count] = header, texts[(*count)++] = device_headers[i].text;
        }
    }
}

int device_headers_of(const char *source, const char **names, const char **texts, int most)
{
    int count = 0;
    add_included(source, names, texts, &count, most);
    for (int scanned = 0; scanned < count; scanned++)
        add_included(texts[scanned], names, texts, &count, most);
    return count;
}

/* The options of every family compile: the same code as nvcc made of the
   .cu (its defaults: optimised, no fast math; line information, which
   changes no instruction), device code only. -default-device: helpers without a qualifier (the constexpr builders
   of broadcast's and conv2d's constant tables) are the device's. */
static int family_options(const char *target, char *arch, size_t arch_size, const char **options)
{
    int count = 0;
    snprintf(arch, arch_size, "--gpu-architecture=%s", target);
    options[count++] = arch;
    options[count++] = "-DWARPLAB_DEVICE_ONLY";
    options[count++] = "--std=c++17";
    options[count++] = "-default-device";
    options[count++] = "-lineinfo";   /* each instruction's source line, for the emulators' counts by line (the code is the same) */
#ifdef CUDA_DIR
    options[count++] = "-I" CUDA_DIR "/include";   /* cuda_pipeline.h, for prefetch's cp.async */
#endif
    return count;
}

/* f's kernel compiled for target; NULL with why. */
static char *compile_family(const struct family *f, const char *kernel, const char *target, size_t *size, char *lowered,
                            size_t lowered_size, char *why, size_t why_size)
{
    char arch[48], file[64];
    const char *names[16], *texts[16], *options[8];
    struct compile_outcome outcome;
    int header_count = device_headers_of(f->source, names, texts, 16);
    snprintf(file, sizeof file, "%s_kernel.cu", f->name);
    struct compile_job job = { .source = f->source, .name = file, .options = options, .trusted = 1,
                               .option_count = family_options(target, arch, sizeof arch, options),
                               .header_texts = texts, .header_names = names, .header_count = header_count,
                               .expression = kernel, .binary = strncmp(target, "sm_", 3) == 0 };
    if (compile_isolated(&job, &outcome) != 0) {
        snprintf(why, why_size, "%s", outcome.log ? outcome.log : "?");
        compile_outcome_free(&outcome);
        return NULL;
    }
    snprintf(lowered, lowered_size, "%s", outcome.lowered);
    *size = outcome.output_size;
    free(outcome.log);
    return outcome.output;
}

/* The kernels compiled in this process, by family, kernel and target. */
enum { COMPILED_KERNELS = 64 };
static struct compiled_kernel {
    const struct family *f;
    char kernel[64], target[16], lowered[256];
    char *code;
    size_t size;
} compiled[COMPILED_KERNELS];
static int compiled_next;

char *family_code(const struct family *f, const char *kernel, const char *target, size_t *size, char *lowered,
                  size_t lowered_size, char *why, size_t why_size)
{
    for (int i = 0; i < COMPILED_KERNELS; i++) {
        struct compiled_kernel *c = &compiled[i];
        if (c->code && c->f == f && strcmp(c->kernel, kernel) == 0 && strcmp(c->target, target) == 0) {
            snprintf(lowered, lowered_size, "%s", c->lowered);
            *size = c->size;
            return copy_as_text(c->code, c->size);
        }
    }
    char *code = compile_family(f, kernel, target, size, lowered, lowered_size, why, why_size);
    struct compiled_kernel *c = &compiled[compiled_next];
    char *kept = code ? copy_as_text(code, *size) : NULL;
    if (kept) {
        free(c->code);
        *c = (struct compiled_kernel){ .f = f, .code = kept, .size = *size };
        snprintf(c->kernel, sizeof c->kernel, "%s", kernel);
        snprintf(c->target, sizeof c->target, "%s", target);
        snprintf(c->lowered, sizeof c->lowered, "%s", lowered);
        compiled_next = (compiled_next + 1) % COMPILED_KERNELS;
    }
    return code;
}
