/*
** unit_params.c — the registry and parameter checks: lookups, suggestions,
** allowed values and the words that describe them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/params.h"
#include "model/registry.h"
#include "model/common.h"
#include "../lib/tap.h"

static void test_registry(void)
{
    ok(family_count >= 3, "the registry lists the first three families");
    for (int i = 0; i < family_count; i++) {
        const struct family *f = families[i];
        char name[128];
        /* 2-D families (traverse, transpose, conv2d, matmul) declare their own sizes instead of n and block */
        int per_element = f->shape == one_thread_per_element;
        snprintf(name, sizeof name, "%s: %sa summary, a source, a model", f->name,
                 per_element ? "declares n and block first, " : "");
        ok(f->param_count >= 1 && (!per_element || (f->param_count >= 2 && strcmp(f->params[PARAM_N].name, "n") == 0 &&
           strcmp(f->params[PARAM_BLOCK].name, "block") == 0)) && f->summary && f->teaches &&
           f->source && strlen(f->source) > 0 && f->warp_accesses && (f->reference || f->reference_part), name);
        ok(family_find(f->name) == f, "family_find finds each declared name");
    }
    ok(family_find("nope") == NULL, "an unknown name is not found");
}

static void test_suggestions(void)
{
    const struct family *strided = family_find("strided");
    ok(family_nearest("strided2") == strided, "strided2 suggests strided");
    ok(family_nearest("strid") == strided, "a prefix suggests its family");
    ok(family_nearest("ofset") == family_find("offset"), "a typo suggests offset");
    ok(family_nearest("matmulxyz") == NULL, "nothing close: no suggestion");
    is_string(param_nearest(strided, "strid"), "stride", "strid suggests stride");
    is_int(edit_distance("kitten", "sitting"), 3, "edit distance kitten/sitting");
    char names[128];
    param_names(strided, names, sizeof names);
    is_string(names, "n, block, stride, load", "parameter names in declaration order");
}

static void test_checks(void)
{
    const struct family *copy = family_find("copy");
    const struct param_decl *vec = &copy->params[param_index(copy, "vec")];
    const struct param_decl *block = &copy->params[PARAM_BLOCK];
    char why[256], words[128];
    ok(param_check_int(vec, 4, why, sizeof why) == 0, "vec=4 is allowed");
    ok(param_check_int(vec, 3, why, sizeof why) != 0, "vec=3 is not");
    is_string(why, "'vec' must be 1, 2 or 4, got 3", "the message lists the allowed values");
    ok(param_check_int(block, 96, why, sizeof why) == 0, "block=96 is a multiple of 32");
    ok(param_check_int(block, 100, why, sizeof why) != 0, "block=100 is not");
    is_string(why, "'block' must be a multiple of 32 from 32 to 1024, got 100", "multiple-of message");
    ok(param_check_int(block, 2048, why, sizeof why) != 0, "block=2048 is out of range");
    param_describe(&copy->params[PARAM_N], words, sizeof words);
    is_string(words, "an integer from 1 to 2147483647", "n's range in words");
}

/* Slices cover 0..count once, in order, and differ in size by one at most. */
static void test_slices(void)
{
    int good = 1;
    for (long long count = 0; count < 40; count++)
        for (int parts = 1; parts <= 9; parts++) {
            long long next = 0, first, end;
            for (int part = 0; part < parts; part++) {
                reference_slice(count, part, parts, &first, &end);
                good = good && first == next && end >= first && end - first <= count / parts + 1;
                next = end;
            }
            good = good && next == count;
        }
    ok(good, "reference slices cover every item once, for counts 0..39 in 1..9 parts");
}

/* A split reference computes in seven slices what it computes whole, for sizes
   that do not divide evenly (and every parameter at its default otherwise). */
static void test_split_references(void)
{
    for (int i = 0; i < family_count; i++) {
        const struct family *f = families[i];
        if (!f->reference_part)
            continue;
        struct params p;
        size_t bytes[MAX_BUFFERS];
        void *whole[MAX_BUFFERS], *sliced[MAX_BUFFERS];
        params_defaults(f, &p);
        p.v[PARAM_N] = 1001;
        family_buffer_bytes(f, &p, bytes);
        for (int b = 0; b < f->buffer_count; b++) {
            whole[b] = malloc(bytes[b] + 1);
            sliced[b] = malloc(bytes[b] + 1);
            for (size_t k = 0; k < bytes[b]; k++)
                ((unsigned char *)whole[b])[k] = ((unsigned char *)sliced[b])[k] = (unsigned char)(k * 131 + b);
        }
        f->reference_part(&p, whole, 0, 1);
        for (int part = 6; part >= 0; part--)
            f->reference_part(&p, sliced, part, 7);
        int same = 1;
        for (int b = 0; b < f->buffer_count; b++) {
            same = same && memcmp(whole[b], sliced[b], bytes[b]) == 0;
            free(whole[b]);
            free(sliced[b]);
        }
        char name[96];
        snprintf(name, sizeof name, "%s: its reference in 7 slices equals it whole (n = 1001)", f->name);
        ok(same, name);
    }
}

/* Params are declared by slot ([COPY_VEC] = {...}): a slot left out of the
   declarations is an entry without a name, which family_problem finds. */
static void test_declarations(void)
{
    char why[256], name[600];
    registry_enable_test_families();
    for (int i = 0; i < family_count; i++) {
        int problem = family_problem(families[i], why, sizeof why);
        snprintf(name, sizeof name, "%s: every slot declared, named once, documented twice, its default valid%s%s",
                 families[i]->name, problem ? ": " : "", problem ? why : "");
        ok(!problem, name);
    }
}

int main(void)
{
    test_declarations();   /* first: the other tests take the declarations as whole */
    test_registry();
    test_suggestions();
    test_checks();
    test_slices();
    test_split_references();
    return done();
}
