/*
** registry.c — the one table of kernel families.
** Adding a family: write kernels/NAME.c (its declaration) and
** kernels/NAME_kernel.cu (its CUDA code), then list it here.
*/
#include <string.h>
#include "registry.h"

extern const struct family family_copy, family_offset, family_strided;
extern const struct family family_width, family_broadcast;
extern const struct family family_stencil1d, family_store_policy;
extern const struct family family_aos_soa, family_particles;
extern const struct family family_traverse, family_transpose;
extern const struct family family_reuse, family_bank, family_working_set, family_prefetch;
extern const struct family family_gather, family_spmv, family_histogram;
extern const struct family family_conv2d, family_matmul;
extern const struct family family_wrong, family_fault;

const struct family *const families[] = {
    &family_copy,
    &family_offset,
    &family_strided,
    &family_width,
    &family_broadcast,
    &family_stencil1d,
    &family_store_policy,
    &family_aos_soa,
    &family_particles,
    &family_traverse,
    &family_transpose,
    &family_reuse,
    &family_bank,
    &family_working_set,
    &family_prefetch,
    &family_gather,
    &family_spmv,
    &family_histogram,
    &family_conv2d,
    &family_matmul,
    /* test-only families last: hidden unless registry_enable_test_families() */
    &family_wrong,
    &family_fault,
};
enum { TEST_FAMILIES = 2 };
int family_count = COUNT_OF(families) - TEST_FAMILIES;

void registry_enable_test_families(void)
{
    family_count = COUNT_OF(families);
}

const struct family *family_find(const char *name)
{
    for (int i = 0; i < family_count; i++)
        if (strcmp(families[i]->name, name) == 0)
            return families[i];
    return NULL;
}

/* Levenshtein distance over two rows; names are short. */
int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int row[64], prev[64];
    if (la >= 63 || lb >= 63)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int replace = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int insert = row[j - 1] + 1, remove = prev[j] + 1;
            int best = replace < insert ? replace : insert;
            row[j] = best < remove ? best : remove;
        }
        memcpy(prev, row, sizeof row);
    }
    return prev[lb];
}

const struct family *family_nearest(const char *name)
{
    const struct family *best = NULL;
    int best_distance = 3;   /* farther than this is no suggestion */
    for (int i = 0; i < family_count; i++) {
        int d = edit_distance(name, families[i]->name);
        if (strncmp(name, families[i]->name, strlen(name)) == 0 && *name)
            d = 1;   /* a prefix is a near miss */
        if (d < best_distance) {
            best_distance = d;
            best = families[i];
        }
    }
    return best;
}

int param_index(const struct family *f, const char *name)
{
    for (int i = 0; i < f->param_count; i++)
        if (strcmp(f->params[i].name, name) == 0)
            return i;
    return -1;
}

void params_defaults(const struct family *f, struct params *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < f->param_count; i++)
        p->v[i] = f->params[i].fallback;
}

uint64_t family_buffer_bytes(const struct family *f, const struct params *p, size_t *bytes)
{
    size_t elements[MAX_BUFFERS];
    uint64_t total = 0;
    f->buffer_elements(p, elements);
    for (int i = 0; i < f->buffer_count; i++) {
        int size = f->buffers[i].element_bytes ? f->buffers[i].element_bytes
                                               : f->element_bytes(p);
        bytes[i] = elements[i] * (size_t)size;
        total += bytes[i];
    }
    return total;
}
