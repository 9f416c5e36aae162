/*
** registry.h — the list of kernel families and lookups over it.
*/
#ifndef WARPLAB_REGISTRY_H
#define WARPLAB_REGISTRY_H

#include "family.h"

extern const struct family *const families[];
extern int family_count;   /* the families visible in this session */

/* Makes the test suite's own families (wrong, fault) visible too. */
void registry_enable_test_families(void);

const struct family *family_find(const char *name);
/* The family whose name is closest to `name` (edit distance), or NULL when none is close. */
const struct family *family_nearest(const char *name);
int param_index(const struct family *f, const char *name);
/* Fills p with every parameter's default. */
void params_defaults(const struct family *f, struct params *p);
/* Edit distance between two short names; used for "did you mean". */
int edit_distance(const char *a, const char *b);
/* Buffer sizes in bytes, in declaration order; returns their sum. */
uint64_t family_buffer_bytes(const struct family *f, const struct params *p, size_t *bytes);

#endif
