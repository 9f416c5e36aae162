/*
** registry.h — the list of kernel families and lookups over it.
*/
#ifndef WARPLAB_REGISTRY_H
#define WARPLAB_REGISTRY_H

#include "model/family.h"

enum { MAX_FAMILIES = 256 };

/* The families of this session: the built-ins (kernels/families/family_table.c,
   generated from Makefile.am's FAMILIES), then those added since. */
extern const struct family *families[MAX_FAMILIES];
extern int family_count;
/* The test suite's own families (wrong, fault), NULL-ended: not in families until enabled. */
extern const struct family *const test_families[];

/* Makes the test suite's own families visible too. */
void registry_enable_test_families(void);

/* Adds a family while the shell runs (a kernel written at the prompt), to be
   treated as a built-in from then on: 0, or -1 with why (a name taken, a
   declaration missing a part). A kernel declared so (with ptx) replaces one
   of its name declared so before. The family must outlive the session. */
int registry_add(const struct family *f, char *why, size_t why_size);
/* What is wrong with a family's declaration, or 0 when nothing is. */
int family_problem(const struct family *f, char *why, size_t why_size);

const struct family *family_find(const char *name);
/* "copy, offset, ...": the session's families, for messages. */
const char *family_names(char *out, size_t size);
/* The family whose name is closest to `name` (edit distance), or NULL when none is close. */
const struct family *family_nearest(const char *name);
int param_index(const struct family *f, const char *name);
/* Fills p with every parameter's default. */
void params_defaults(const struct family *f, struct params *p);
/* Buffer sizes in bytes, in declaration order; returns their sum. */
/* What a warp of f costs for p besides its memory traffic (f->costs' row, or copy's). */
const struct warp_cost *family_warp_cost(const struct family *f, const struct params *p);
uint64_t family_buffer_bytes(const struct family *f, const struct params *p, size_t *bytes);

#endif
