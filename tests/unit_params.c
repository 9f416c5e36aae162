/*
** unit_params.c — the registry and parameter checks: lookups, suggestions,
** allowed values and the words that describe them.
*/
#include "params.h"
#include "registry.h"
#include "common.h"
#include "tap.h"

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
           f->source && strlen(f->source) > 0 && f->warp_accesses && f->reference, name);
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

int main(void)
{
    test_registry();
    test_suggestions();
    test_checks();
    return done();
}
