/*
** params.h — checking parameter values against their declarations.
** The messages are fragments for "bad argument #2 to 'launch' (...)".
*/
#ifndef WARPLAB_PARAMS_H
#define WARPLAB_PARAMS_H

#include <stddef.h>
#include "model/family.h"

/* What values d allows, in words: "1 to 1024", "1, 2 or 4", "\"aos\" or \"soa\"". */
void param_describe(const struct param_decl *d, char *out, size_t size);
/* 0 when value is allowed; otherwise -1 and a reason in why. */
int param_check_int(const struct param_decl *d, long long value, char *why, size_t why_size);
/* 0 when value is within a PARAM_FLOAT's range; otherwise -1 and a reason. */
int param_check_float(const struct param_decl *d, double value, char *why, size_t why_size);
/* 0 when {x, y} is an allowed block shape; otherwise -1 and a reason. */
int param_check_shape(const struct param_decl *d, long long x, long long y, char *why, size_t why_size);
/* Index of choice `name`, or -1. */
int param_choice_index(const struct param_decl *d, const char *name);
/* Comma-separated parameter names of f, for "valid: n, block, stride". */
void param_names(const struct family *f, char *out, size_t size);
/* The name of the parameter of f closest to name, or NULL. */
const char *param_nearest(const struct family *f, const char *name);

#endif
