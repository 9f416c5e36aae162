/*
** params.c — range and choice checks with messages that say what was expected.
*/
#include <stdio.h>
#include <string.h>
#include "model/params.h"
#include "model/registry.h"
#include "support/text.h"

/* Joins quoted or plain items as "a, b or c". */
static void join_alternatives(char *out, size_t size, int count,
                              const char *(*item)(const struct param_decl *, int, char *),
                              const struct param_decl *d)
{
    char buffer[64];
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < count && used < size; i++) {
        const char *separator = i == 0 ? "" : i == count - 1 ? SAY(" or ", " 或 ") : ", ";
        used += snprintf(out + used, size - used, "%s%s", separator, item(d, i, buffer));
    }
}

static const char *int_item(const struct param_decl *d, int i, char *buffer)
{
    snprintf(buffer, 64, "%lld", d->only[i]);
    return buffer;
}

static const char *choice_item(const struct param_decl *d, int i, char *buffer)
{
    snprintf(buffer, 64, "\"%s\"", d->choices[i]);
    return buffer;
}

static int count_choices(const struct param_decl *d)
{
    int count = 0;
    while (d->choices[count])
        count++;
    return count;
}

void param_describe(const struct param_decl *d, char *out, size_t size)
{
    if (d->type == PARAM_SHAPE)
        snprintf(out, size, SAY("a block shape {x, y} of at most %lld threads, a multiple of 32",
                                "线程块形状 {x, y}，至多 %lld 个线程，且为 32 的倍数"), d->max);
    else if (d->type == PARAM_CHOICE)
        join_alternatives(out, size, count_choices(d), choice_item, d);
    else if (d->only)
        join_alternatives(out, size, d->only_count, int_item, d);
    else if (d->type == PARAM_FLOAT)
        snprintf(out, size, SAY("a number from %g to %g", "从 %g 到 %g 的数"), d->low, d->high);
    else if (d->multiple_of > 1)
        snprintf(out, size, SAY("a multiple of %lld from %lld to %lld", "%lld 的倍数，从 %lld 到 %lld"), d->multiple_of,
                 d->min, d->max);
    else
        snprintf(out, size, SAY("an integer from %lld to %lld", "从 %lld 到 %lld 的整数"), d->min, d->max);
}

int param_check_float(const struct param_decl *d, double value, char *why, size_t why_size)
{
    char allowed[128];
    if (value >= d->low && value <= d->high)   /* NaN is neither */
        return 0;
    param_describe(d, allowed, sizeof allowed);
    snprintf(why, why_size, SAY("'%s' must be %s, got %g", "'%s' 必须是 %s，实际为 %g"), d->name, allowed, value);
    return -1;
}

int param_check_shape(const struct param_decl *d, long long x, long long y, char *why, size_t why_size)
{
    if (x >= 1 && y >= 1 && x <= d->max && y <= d->max && x * y <= d->max && (x * y) % 32 == 0)
        return 0;
    snprintf(why, why_size, SAY("'%s' must be a block shape {x, y} with x*y a multiple of 32 and at most "
                                "%lld threads, got {%lld, %lld}",
                                "'%s' 必须是线程块形状 {x, y}，x*y 为 32 的倍数且至多 %lld 个线程，实际为 {%lld, %lld}"),
             d->name, d->max, x, y);
    return -1;
}

int param_check_int(const struct param_decl *d, long long value, char *why, size_t why_size)
{
    char allowed[256];
    int ok = value >= d->min && value <= d->max &&
             (d->multiple_of <= 1 || value % d->multiple_of == 0);
    if (ok && d->only) {
        ok = 0;
        for (int i = 0; i < d->only_count; i++)
            ok |= d->only[i] == value;
    }
    if (ok)
        return 0;
    param_describe(d, allowed, sizeof allowed);
    snprintf(why, why_size, SAY("'%s' must be %s, got %lld", "'%s' 必须是 %s，实际为 %lld"), d->name, allowed, value);
    return -1;
}

int param_choice_index(const struct param_decl *d, const char *name)
{
    for (int i = 0; d->choices[i]; i++)
        if (strcmp(d->choices[i], name) == 0)
            return i;
    return -1;
}

static const char *param_name(const void *list, int i)
{
    return ((const struct param_decl *)list)[i].name;
}

void param_names(const struct family *f, char *out, size_t size)
{
    join_names(out, size, f->param_count, param_name, f->params);
}

const char *param_nearest(const struct family *f, const char *name)
{
    const char *best = NULL;
    int best_distance = 3;
    for (int i = 0; i < f->param_count; i++) {
        int d = edit_distance(name, f->params[i].name);
        if (d < best_distance) {
            best_distance = d;
            best = f->params[i].name;
        }
    }
    return best;
}
