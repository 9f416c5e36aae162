/*
** registry.c — the kernel families and lookups over them. The table of
** built-in families is generated from Makefile.am's FAMILIES (kernels/
** family_table.c, by build-aux/families); families written while the shell
** runs join it through registry_add, and are then treated as built-ins.
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "model/params.h"
#include "model/registry.h"
#include "support/text.h"

/* Whether a declared parameter is whole: a name (a slot left out of the
   declarations has none), both docs, and a default its own checks accept. */
static int param_is_whole(const struct param_decl *d)
{
    char why[256];
    int choices = 0;
    if (!d->name || !d->doc || !d->doc_zh)
        return 0;
    switch (d->type) {
    case PARAM_INT:
        return param_check_int(d, d->fallback, why, sizeof why) == 0;
    case PARAM_CHOICE:
        while (d->choices && d->choices[choices])
            choices++;
        return d->fallback >= 0 && d->fallback < choices;
    case PARAM_SHAPE:
        return param_check_shape(d, SHAPE_X(d->fallback), SHAPE_Y(d->fallback), why, sizeof why) == 0;
    case PARAM_FLOAT:
        return param_check_float(d, PARAM_FLOAT_VALUE(d->fallback), why, sizeof why) == 0;
    }
    return 0;
}

static int is_identifier(const char *name)
{
    if (!name || !(islower((unsigned char)name[0]) || name[0] == '_') || strlen(name) > 40)
        return 0;
    for (const char *c = name; *c; c++)
        if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_'))
            return 0;
    return 1;
}

int family_problem(const struct family *f, char *why, size_t why_size)
{
    const char *missing = !f->summary || !f->teaches ? "summary and teaches"
                        : !f->shape ? "shape" : !f->warp_accesses && !f->ptx ? "warp_accesses"
                        : !f->buffer_elements ? "buffer_elements" : !f->useful_bytes ? "useful_bytes"
                        : !f->element_bytes ? "element_bytes" : NULL;
    if (!is_identifier(f->name)) {
        snprintf(why, why_size, SAY("a kernel's name must be lowercase letters, digits and _ (at most 40), got '%s'",
                                    "核函数名只能由小写字母、数字和 _ 组成（至多 40 个），实际为 '%s'"), f->name ? f->name : "");
        return -1;
    }
    if (missing) {
        snprintf(why, why_size, SAY("kernel '%s' declares no %s", "核函数 '%s' 没有声明 %s"), f->name, missing);
        return -1;
    }
    if (f->param_count < 0 || f->param_count > MAX_PARAMS) {
        snprintf(why, why_size, SAY("kernel '%s': params: at most %d, got %d", "核函数 '%s'：params：至多 %d 个，实际为 %d 个"),
                 f->name, MAX_PARAMS, f->param_count);
        return -1;
    }
    if (f->buffer_count < 1 || f->buffer_count > MAX_BUFFERS) {
        snprintf(why, why_size, SAY("kernel '%s': buffers: 1 to %d, got %d", "核函数 '%s'：buffers：1 到 %d 个，实际为 %d 个"),
                 f->name, MAX_BUFFERS, f->buffer_count);
        return -1;
    }
    for (int k = 0; k < f->param_count; k++) {
        for (int j = 0; j < k && param_is_whole(&f->params[k]); j++)
            if (strcmp(f->params[j].name, f->params[k].name) == 0) {
                snprintf(why, why_size, SAY("kernel '%s' declares param '%s' twice", "核函数 '%s' 声明了两次参数 '%s'"),
                         f->name, f->params[k].name);
                return -1;
            }
        if (!param_is_whole(&f->params[k])) {
            snprintf(why, why_size, SAY("kernel '%s': param %d needs a name, a doc in both languages and a valid default",
                                        "核函数 '%s'：第 %d 个参数需要名字、两种语言的说明和有效的默认值"), f->name, k + 1);
            return -1;
        }
    }
    return 0;
}

static int find_index(const char *name)
{
    for (int i = 0; i < family_count; i++)
        if (strcmp(families[i]->name, name) == 0)
            return i;
    return -1;
}

int registry_add(const struct family *f, char *why, size_t why_size)
{
    if (family_problem(f, why, why_size))
        return -1;
    int taken = find_index(f->name);
    if (taken >= 0 && f->ptx && families[taken]->ptx) {   /* a kernel declared again: the new one from now on */
        families[taken] = f;
        return 0;
    }
    if (taken >= 0) {
        snprintf(why, why_size, SAY("a kernel named '%s' exists already", "已经有名为 '%s' 的核函数"), f->name);
        return -1;
    }
    if (family_count == MAX_FAMILIES) {
        snprintf(why, why_size, SAY("at most %d kernels", "核函数至多 %d 个"), MAX_FAMILIES);
        return -1;
    }
    families[family_count++] = f;
    return 0;
}

void registry_enable_test_families(void)
{
    char why[256];
    for (int i = 0; test_families[i]; i++)
        if (find_index(test_families[i]->name) < 0)
            registry_add(test_families[i], why, sizeof why);
}

static const char *family_name(const void *list, int i)
{
    return ((const struct family *const *)list)[i]->name;
}

const char *family_names(char *out, size_t size)
{
    return join_names(out, size, family_count, family_name, families);
}

const struct family *family_find(const char *name)
{
    int i = find_index(name);
    return i >= 0 ? families[i] : NULL;
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

const struct warp_cost *family_warp_cost(const struct family *f, const struct params *p)
{
    static const struct warp_cost copy_cost = { 10, 6, 1 };
    return f->costs ? &f->costs[f->cost_by ? p->v[f->cost_by] : 0] : &copy_cost;
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
