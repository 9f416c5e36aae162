/*
** api.c — launch(), device() and the core table: argument checking against
** the family declarations, the model run, the backend run.
*/
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lauxlib.h>
#include "api.h"
#include "files.h"
#include "sandbox.h"
#include "counter_table.h"
#include "profiles.h"
#include "progress.h"
#include "repl.h"
#include "interrupt.h"
#include "model.h"
#include "common.h"
#include "output.h"
#include "params.h"
#include "registry.h"
#include "session.h"

/* How many bytes the UTF-8 sequence at s (length bytes left) takes; 0 when it is not one. */
static size_t utf8_sequence(const unsigned char *s, size_t length)
{
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
             : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (n == 0 || n > length)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* Adds the string at idx between marks: control characters, the mark and
   bytes that are not UTF-8 escaped, cut after QUOTED_MAX bytes with "...". */
static void add_quoted_string(luaL_Buffer *b, lua_State *L, int idx, char mark)
{
    static const char *const escapes[32] = { [0] = "\\0", ['\t'] = "\\t", ['\n'] = "\\n", ['\r'] = "\\r" };
    size_t length, i = 0;
    const unsigned char *s = (const unsigned char *)lua_tolstring(L, idx, &length);
    luaL_addchar(b, mark);
    while (i < length && i < QUOTED_MAX) {
        size_t n = s[i] >= 0x80 ? utf8_sequence(s + i, length - i) : 1;
        char code[8];
        if (s[i] < 32 || s[i] == 127)
            luaL_addstring(b, s[i] < 32 && escapes[s[i]] ? escapes[s[i]]
                                                         : (snprintf(code, sizeof code, "\\%d", s[i]), code));
        else if (s[i] == (unsigned char)mark || s[i] == '\\')
            luaL_addchar(b, '\\'), luaL_addchar(b, (char)s[i]);
        else if (n == 0)
            luaL_addstring(b, (snprintf(code, sizeof code, "\\x%02X", s[i]), code));
        else
            luaL_addlstring(b, (const char *)s + i, n);
        i += n ? n : 1;
    }
    luaL_addchar(b, mark);
    if (i < length)
        luaL_addstring(b, "...");
}

const char *push_quoted(lua_State *L, int idx, char mark)
{
    idx = lua_absindex(L, idx);
    int type = lua_type(L, idx);
    if (type == LUA_TSTRING) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        add_quoted_string(&b, L, idx, mark);
        luaL_pushresult(&b);
    } else if (type == LUA_TNUMBER) {
        lua_Number x = lua_tonumber(L, idx);
        lua_pushvalue(L, idx);
        lua_tostring(L, -1);   /* the number as Lua writes it, no metamethod */
        if (x != x) {
            lua_pop(L, 1);
            lua_pushliteral(L, "nan");   /* not "-nan", as printf may write it */
        }
    } else if (type == LUA_TBOOLEAN || type == LUA_TNIL || type == LUA_TNONE) {
        lua_pushstring(L, type == LUA_TBOOLEAN ? (lua_toboolean(L, idx) ? "true" : "false")
                          : type_text(type == LUA_TNIL ? "nil" : "no value"));
    } else {
        int name = luaL_getmetafield(L, idx, "__name");
        if (name != LUA_TSTRING) {
            if (name != LUA_TNIL)
                lua_pop(L, 1);
            lua_pushstring(L, TYPE_TEXT(L, idx));
        }
    }
    return lua_tostring(L, -1);
}

/* Whether the string at idx holds a NUL byte (which C would cut it at). */
static int has_nul(lua_State *L, int idx)
{
    size_t length;
    const char *text = lua_tolstring(L, idx, &length);
    return memchr(text, 0, length) != NULL;
}

/* The value at idx as a C string when it is a string C can read whole, else NULL. */
static const char *whole_string(lua_State *L, int idx)
{
    return lua_type(L, idx) == LUA_TSTRING && !has_nul(L, idx) ? lua_tostring(L, idx) : NULL;
}

/* Finds the kernel named by the value at idx: 0 and *found, or 1 with what
   is wrong pushed ("unknown kernel 'x'; did you mean ...", naming them all). */
static int kernel_problem(lua_State *L, int idx, const struct family **found)
{
    int type = lua_type(L, idx);
    if (type != LUA_TSTRING && type != LUA_TNUMBER) {
        lua_pushfstring(L, SAY("string expected, got %s", "应为字符串，实际为 %s"), push_quoted(L, idx, '\''));
        return 1;
    }
    if (has_nul(L, idx)) {
        lua_pushfstring(L, SAY("kernel name %s contains a NUL byte", "内核名 %s 含有 NUL 字节"), push_quoted(L, idx, '\''));
        return 1;
    }
    const char *name = lua_tostring(L, idx);
    if ((*found = family_find(name)) != NULL)
        return 0;
    const struct family *near = family_nearest(name);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, SAY("unknown kernel %s", "未知内核 %s"), push_quoted(L, idx, '\''));
    lua_remove(L, -2);
    luaL_addvalue(&b);
    if (near) {
        lua_pushfstring(L, SAY("; did you mean '%s'?", "；你是不是想用 '%s'？"), near->name);
        luaL_addvalue(&b);
    }
    luaL_addstring(&b, SAY(" (kernels: ", "（内核："));
    for (int i = 0; i < family_count; i++) {
        luaL_addstring(&b, i ? ", " : "");
        luaL_addstring(&b, families[i]->name);
    }
    luaL_addstring(&b, SAY(")", "）"));
    luaL_pushresult(&b);
    return 1;
}

/* The family named by argument arg, or an argument error naming the nearest ones. */
static const struct family *check_family(lua_State *L, int arg)
{
    const struct family *f = NULL;
    if (kernel_problem(L, arg, &f))
        luaL_argerror(L, arg, lua_tostring(L, -1));
    return f;
}

/* core.kernel_problem(name): nil when name is a kernel, else what is wrong
   with it, for the messages of the API functions written in Lua. */
static int core_kernel_problem(lua_State *L)
{
    const struct family *f;
    lua_settop(L, 1);
    if (!kernel_problem(L, 1, &f))
        lua_pushnil(L);
    return 1;
}

/* core.quote(value [, mark]): the value as a message shows it (see push_quoted). */
static int core_quote(lua_State *L)
{
    const char *mark = luaL_optstring(L, 2, "'");
    lua_settop(L, 1);
    push_quoted(L, 1, mark[0] ? mark[0] : '\'');
    return 1;
}

/* A block shape {x, y} on top of the stack into slot i of p. */
static void read_shape(lua_State *L, int arg, const struct param_decl *d, int i, struct params *p)
{
    char why[256];
    lua_Integer xy[2] = { 0, 0 };
    int ok = lua_type(L, -1) == LUA_TTABLE && lua_rawlen(L, -1) == 2;
    for (int k = 0; ok && k < 2; k++) {
        lua_rawgeti(L, -1, k + 1);
        xy[k] = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
    }
    if (!ok) {
        lua_pushfstring(L, SAY("'%s' must be a block shape such as {32, 8}, got %s", "'%s' 必须是线程块形状，例如 {32, 8}，实际为 %s"), d->name, TYPE_TEXT(L, -1));
        luaL_argerror(L, arg, lua_tostring(L, -1));
    }
    if (param_check_shape(d, xy[0], xy[1], why, sizeof why))
        luaL_argerror(L, arg, why);
    p->v[i] = SHAPE(xy[0], xy[1]);
}

/* Reads the value on top of the stack into slot i of p, checked against its declaration. */
static void read_param(lua_State *L, int arg, const struct family *f, int i, struct params *p)
{
    const struct param_decl *d = &f->params[i];
    char why[512];
    if (d->type == PARAM_CHOICE) {
        char allowed[256];
        const char *text = whole_string(L, -1);
        int index = text ? param_choice_index(d, text) : -1;
        param_describe(d, allowed, sizeof allowed);
        if (index < 0) {
            lua_pushfstring(L, SAY("'%s' must be %s, got %s", "'%s' 必须是 %s，实际为 %s"), d->name, allowed,
                            lua_type(L, -1) == LUA_TSTRING ? push_quoted(L, -1, '"') : TYPE_TEXT(L, -1));
            luaL_argerror(L, arg, lua_tostring(L, -1));
        }
        p->v[i] = index;
        return;
    }
    if (d->type == PARAM_SHAPE) {
        read_shape(L, arg, d, i, p);
        return;
    }
    int is_integer = 0;
    lua_Integer value = lua_tointegerx(L, -1, &is_integer);
    if (!is_integer || lua_type(L, -1) != LUA_TNUMBER) {
        const char *got = lua_type(L, -1) == LUA_TNUMBER
                              ? lua_pushfstring(L, "%s", lua_tostring(L, -1)) : TYPE_TEXT(L, -1);
        lua_pushfstring(L, SAY("'%s' must be an integer, got %s", "'%s' 必须是整数，实际为 %s"), d->name, got);
        luaL_argerror(L, arg, lua_tostring(L, -1));
    }
    if (param_check_int(d, (long long)value, why, sizeof why))
        luaL_argerror(L, arg, why);
    p->v[i] = (long long)value;
}

/* Measurement options: set for the session by config{}, per launch by its params. */
struct option_decl {
    const char *name;
    const char *expected, *expected_zh;
    /* Reads the value on top of the stack into o; 0, or -1 when it is not allowed. */
    int (*read)(lua_State *L, struct measure_options *o);
};

static int read_cache(lua_State *L, struct measure_options *o)
{
    const char *text = whole_string(L, -1);
    if (!text || (strcmp(text, "cold") && strcmp(text, "warm")))
        return -1;
    o->warm = strcmp(text, "warm") == 0;
    return 0;
}

static int read_min_samples(lua_State *L, struct measure_options *o)
{
    int is_integer;
    lua_Integer value = lua_tointegerx(L, -1, &is_integer);
    if (!is_integer || lua_type(L, -1) != LUA_TNUMBER || value < 1 || value > MAX_SAMPLES)
        return -1;
    o->min_samples = (int)value;
    return 0;
}

static int read_budget_ms(lua_State *L, struct measure_options *o)
{
    double ms = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(ms > 0 && ms <= 60000))   /* NaN is neither */
        return -1;
    o->budget_ms = lua_tonumber(L, -1);
    return 0;
}

static int read_check(lua_State *L, struct measure_options *o)
{
    if (lua_type(L, -1) != LUA_TBOOLEAN)
        return -1;
    o->check = lua_toboolean(L, -1);
    return 0;
}

static int read_counters(lua_State *L, struct measure_options *o)
{
    if (lua_type(L, -1) != LUA_TBOOLEAN)
        return -1;
    o->counters = lua_toboolean(L, -1);
    return 0;
}

static int read_profile(lua_State *L, struct measure_options *o)
{
    const char *name = whole_string(L, -1);
    const struct device_profile *profile = name ? profile_find(name) : NULL;
    if (!profile)
        return -1;
    o->profile = profile;
    return 0;
}

static const struct option_decl options[] = {
    { "cache", "\"cold\" (flush L2 before each sample) or \"warm\"", "\"cold\"（每次采样前清空 L2）或 \"warm\"", read_cache },
    { "min_samples", "an integer from 1 to 1000", "从 1 到 1000 的整数", read_min_samples },
    { "budget_ms", "a number of milliseconds above 0, at most 60000", "大于 0、至多 60000 的毫秒数", read_budget_ms },
    { "check", "true or false (compare with the CPU reference)", "true 或 false（与 CPU 参考结果比较）", read_check },
    { "counters", "true or false (read hardware counters)", "true 或 false（读取硬件计数器）", read_counters },
    { "profile", "a device profile such as \"h200\", \"a100\", \"t4\" or \"rtx4090\" (docs/model.md lists them)",
      "设备配置，例如 \"h200\"、\"a100\"、\"t4\" 或 \"rtx4090\"（docs/model.md 列出全部）", read_profile },
};

static const struct option_decl *find_option(const char *name)
{
    for (int i = 0; i < COUNT_OF(options); i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

/* "cache, min_samples, ...": the measurement options, for messages. */
static const char *option_names(char *out, size_t size)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < COUNT_OF(options) && used < size; i++)
        used += snprintf(out + used, size - used, "%s%s", i ? ", " : "", options[i].name);
    return out;
}

/* The parameter name at stack index key is none of f's: an argument error naming the valid ones. */
static void unknown_param(lua_State *L, int arg, const struct family *f, int key)
{
    char names[512], option_list[128];
    const char *near = has_nul(L, key) ? NULL : param_nearest(f, lua_tostring(L, key));
    const char *name = push_quoted(L, key, '\'');
    param_names(f, names, sizeof names);
    option_names(option_list, sizeof option_list);
    if (near)
        lua_pushfstring(L, SAY("unknown parameter %s for '%s'; did you mean '%s'? (valid: %s; options: %s)", "未知参数 %s（内核 '%s'）；你是不是想用 '%s'？（可用参数：%s；选项：%s）"),
                        name, f->name, near, names, option_list);
    else
        lua_pushfstring(L, SAY("unknown parameter %s for '%s' (valid: %s; options: %s)", "未知参数 %s（内核 '%s'）（可用参数：%s；选项：%s）"), name, f->name,
                        names, option_list);
    luaL_argerror(L, arg, lua_tostring(L, -1));
}

/* Reads the option value on top of the stack, or raises an argument error. */
static void read_option(lua_State *L, int arg, const struct option_decl *d, struct measure_options *o)
{
    if (d->read(L, o) == 0)
        return;
    lua_pushfstring(L, SAY("'%s' must be %s, got %s", "'%s' 必须是 %s，实际为 %s"), d->name, SAY(d->expected, d->expected_zh), push_quoted(L, -1, '"'));
    luaL_argerror(L, arg, lua_tostring(L, -1));
}

/* Parameters of a launch from the table at stack index `table` (nil: all
   defaults), errors naming argument `arg`; measurement options in the same
   table override the session's for this launch. */
static void check_params(lua_State *L, int table, int arg, const struct family *f, struct params *p,
                         struct measure_options *o)
{
    params_defaults(f, p);
    *o = session.options;
    if (lua_isnoneornil(L, table))
        return;
    luaL_argexpected(L, lua_type(L, table) == LUA_TTABLE, arg, SAY("table of parameters", "参数表"));
    lua_pushnil(L);
    while (lua_next(L, table)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_argerror(L, arg, SAY("parameter names must be strings, as in {stride=4}", "参数名必须是字符串，例如 {stride=4}"));
        const char *name = has_nul(L, -2) ? "" : lua_tostring(L, -2);   /* "stride\0" is no parameter */
        int i = *name ? param_index(f, name) : -1;
        const struct option_decl *option = i < 0 && *name ? find_option(name) : NULL;
        if (option)
            read_option(L, arg, option, o);
        else if (i < 0)
            unknown_param(L, arg, f, lua_gettop(L) - 1);
        else
            read_param(L, arg, f, i, p);
        lua_pop(L, 1);
    }
}

static void push_options(lua_State *L, const struct measure_options *o)
{
    lua_createtable(L, 0, 4);
    SET_STRING("cache", o->warm ? "warm" : "cold");
    SET_INTEGER("min_samples", o->min_samples);
    SET_NUMBER("budget_ms", o->budget_ms);
    lua_pushboolean(L, o->check);
    lua_setfield(L, -2, "check");
    lua_pushboolean(L, o->counters);
    lua_setfield(L, -2, "counters");
    SET_STRING("profile", o->profile->key);
}

/* config{...}: changes how the session measures; returns the settings now. */
static int api_config(lua_State *L)
{
    struct measure_options o = session.options;
    if (!lua_isnoneornil(L, 1)) {
        luaL_argexpected(L, lua_type(L, 1) == LUA_TTABLE, 1, SAY("table of settings", "设置表"));
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING)
                luaL_argerror(L, 1, SAY("setting names must be strings, as in {cache=\"warm\"}", "设置名必须是字符串，例如 {cache=\"warm\"}"));
            const struct option_decl *option = has_nul(L, -2) ? NULL : find_option(lua_tostring(L, -2));
            char option_list[128];
            if (!option)
                luaL_argerror(L, 1, lua_pushfstring(L, SAY("unknown setting %s (settings: %s)", "未知设置 %s（可用设置：%s）"),
                                                       push_quoted(L, -2, '\''),
                                                       option_names(option_list, sizeof option_list)));
            read_option(L, 1, option, &o);
            lua_pop(L, 1);
        }
    }
    session.options = o;
    session_use_profile(o.profile);
    push_options(L, &o);
    return 1;
}

/* The launch's buffer bytes. A launch whose buffers cannot fit is a caller's
   mistake: an argument error says the sizes. */
static const char modelled_suffix[] = " (modelled)";

/* The session's device name for a message: a profile's " (modelled)" in the
   session's language. */
static const char *device_label(char *out, size_t size)
{
    const char *name = session.device.name;
    size_t length = strlen(name), suffix = sizeof modelled_suffix - 1;
    if (session.lang[0] != 'z' || length < suffix || strcmp(name + length - suffix, modelled_suffix) != 0)
        return name;
    snprintf(out, size, "%.*s（模型估算）", (int)(length - suffix), name);
    return out;
}

/* Whether the launch uses a feature the device (or the profile the model
   describes) does not have; then why, in one line. */
static int device_lacks(const struct family *f, const struct params *p, char *why, size_t why_size)
{
    const struct gpu_need *need = f->needs ? f->needs(p) : NULL;
    const struct device_info *d = &session.device;
    char label[300];
    if (!need || need->compute_capability <= 10 * d->major + d->minor)
        return 0;
    snprintf(why, why_size, SAY("'%s' with %s uses %s, which needs sm_%d or newer; %s is sm_%d%d",
                                "'%s' 在 %s 时使用 %s，需要 sm_%d 或更新的 GPU；%s 是 sm_%d%d"),
             f->name, need->because, need->feature, need->compute_capability,
             device_label(label, sizeof label), d->major, d->minor);
    return 1;
}

/* Such a launch is one clear line, never a failed launch. */
static void check_device_can(lua_State *L, const struct family *f, const struct params *p)
{
    char why[512];
    if (device_lacks(f, p, why, sizeof why))
        luaL_error(L, "%s", why);
}

static uint64_t check_footprint(lua_State *L, int arg, const struct family *f, const struct params *p)
{
    size_t bytes[MAX_BUFFERS];
    char needed[32], memory[32], device[sizeof session.device.name + 32];
    uint64_t total = family_buffer_bytes(f, p, bytes);
    if (total <= session.device.memory_bytes)
        return total;
    lua_pushfstring(L, SAY("%s=%I needs %s of device memory for its buffers; %s has %s", "%s=%I 的缓冲区需要 %s 设备内存；%s 只有 %s"),
                    f->params[0].name, (lua_Integer)p->v[0], format_bytes(total, needed, sizeof needed),
                    device_label(device, sizeof device), format_bytes(session.device.memory_bytes, memory, sizeof memory));
    return (uint64_t)luaL_argerror(L, arg, lua_tostring(L, -1));   /* does not return */
}

enum { MAX_BATCH = 1024 };


static int raise_interrupted(lua_State *L)
{
    interrupt_clear(L);
    return luaL_error(L, "interrupted!");
}

/* Says so when the buffers would largely sit in L2, so time measures the cache. */
static void warn_if_cached(struct result *r)
{
    uint64_t l2 = session.device.l2_bytes;
    int measured = session.backend->measures;
    char footprint[32], cache[32];
    if (r->footprint_bytes < 2 * l2)
        result_warn(r, SAY("the buffers (%s) are under twice the L2 (%s): %s largely measures the cache, not DRAM",
                           "缓冲区（%s）不到 L2（%s）的两倍：%s主要测到的是缓存，而不是 DRAM"),
                    format_bytes(r->footprint_bytes, footprint, sizeof footprint), format_bytes(l2, cache, sizeof cache),
                    measured ? SAY("this", "这次测量") : SAY("on a GPU, a timing", "在 GPU 上，计时"));
}

/* The access model runs on a worker thread while the backend measures. */
struct model_job {
    const struct family *family;
    const struct params *params;
    struct model_counts *counts;
    pthread_t thread;
    int started, status;
    double ms;   /* how long the model took */
};

static void *run_model(void *argument)
{
    struct model_job *job = argument;
    double started = monotonic_ms();
    job->status = model_run(job->family, job->params, job->counts, &interrupt_requested);
    job->ms = monotonic_ms() - started;
    return NULL;
}

static void start_model(struct model_job *job)
{
    job->started = start_worker(&job->thread, run_model, job) == 0;
    if (!job->started)
        run_model(job);
}

/* Waits for the model; its status (-1 when Ctrl-C stopped it). */
static int finish_model(struct model_job *job)
{
    if (job->started)
        pthread_join(job->thread, NULL);
    return job->status;
}

/* Checks one launch's parameters (the table at stack index `table`) into r and o. */
static void prepare_result(lua_State *L, int table, const struct family *f, struct result *r,
                           struct measure_options *o)
{
    memset(r, 0, sizeof *r);
    r->family = f;
    check_params(L, table, 2, f, &r->params, o);
    check_device_can(L, f, &r->params);
    r->footprint_bytes = check_footprint(L, 2, f, &r->params);
    r->backend = session.backend->name;
    r->correct = -1;
    r->useful_bytes = f->useful_bytes(&r->params);
    warn_if_cached(r);
}

/* Runs one prepared launch: the model on a worker thread while the backend
   measures. Ctrl-C raises "interrupted!", or, with keep_partial, returns RUN_INTERRUPTED. */
static enum run_status run_one(lua_State *L, struct result *r, const struct measure_options *o, int keep_partial)
{
    char error[768];
    double started = monotonic_ms();
    struct model_job model = { .family = r->family, .params = &r->params, .counts = &r->model };
    start_model(&model);
    r->cache = o->warm ? "warm" : "cold";   /* what the launch asked for; the model has no cache to heat */
    enum run_status status = session.backend->run(r->family, &r->params, o, r, error, sizeof error);
    if (finish_model(&model) != 0 || status == RUN_INTERRUPTED) {
        if (!keep_partial)
            raise_interrupted(L);
        interrupt_clear(L);
        return RUN_INTERRUPTED;
    }
    r->profile = o->profile;
    r->estimate = estimate_time(o->profile, &r->model, r->family->shape(&r->params).threads);
    if (status == RUN_FAILED) {
        backend_fall_back(&session.backend, &session.device, session.backend_notice,
                          sizeof session.backend_notice);
        luaL_error(L, SAY("launch of '%s' failed: %s", "启动 '%s' 失败：%s"), r->family->name, error);
    }
    r->wall_ms = monotonic_ms() - started;
    if (getenv("WARPLAB_TRACE_TIMES"))   /* the GPU process traces its own phases */
        fprintf(stderr, "warplab: model %.1f ms of the launch's %.1f ms\n", model.ms, r->wall_ms);
    return RUN_OK;
}

/* Counters for every launch that asked for them, in one go (see backend.profile). */
static void profile_launches(struct result *results, const struct measure_options *options, int count)
{
    struct result *wanted[MAX_BATCH];
    int n = 0;
    double started = monotonic_ms();
    for (int i = 0; i < count; i++)
        if (options[i].counters)
            wanted[n++] = &results[i];
    if (n == 0 || !session.backend->profile)
        return;
    session.backend->profile(wanted, n);
    double each = (monotonic_ms() - started) / n;
    for (int i = 0; i < n; i++)
        wanted[i]->wall_ms += each;   /* each launch's share of the profiling */
}

/* Runs the launches in order and reads their counters together; returns how
   many completed (fewer only when keep_partial and Ctrl-C stopped them). */
static int run_all(lua_State *L, struct result *results, struct measure_options *options, int count,
                   int keep_partial, int show_progress)
{
    struct progress bar;
    int done = 0;
    double started = monotonic_ms();
    progress_start(&bar, SAY("launches", "启动"), count, show_progress);
    while (done < count && !(keep_partial && interrupt_requested)) {
        if (run_one(L, &results[done], &options[done], keep_partial) != RUN_OK)
            break;
        done++;
        progress_step(&bar);
    }
    progress_end(&bar);
    if (keep_partial)
        interrupt_clear(L);
    profile_launches(results, options, done);
    sandbox_exclude(monotonic_ms() - started);   /* a lab's budget is for its own code */
    return done;
}


/* Keeps the result on top of the stack (the last one, for a list) for the lab runner. */
static void remember_last_result(lua_State *L)
{
    if (luaL_getmetafield(L, -1, "__name") != LUA_TNIL) {   /* a result */
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
    } else if (lua_rawlen(L, -1) > 0) {
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, LAST_RESULTS_KEY);
        lua_rawgeti(L, -1, (lua_Integer)lua_rawlen(L, -1));
    } else {
        return;
    }
    lua_setfield(L, LUA_REGISTRYINDEX, LAST_RESULT_KEY);
}

/* Checks every launch's parameters; the results and options live in userdata
   (owned by Lua, so that an error anywhere frees them) pushed on the stack. */
static int prepare_all(lua_State *L, const struct family *f, int batch, struct result **results,
                       struct measure_options **options)
{
    int count = batch ? (int)lua_rawlen(L, 2) : 1;
    luaL_argcheck(L, count <= MAX_BATCH, 2, SAY("at most 1024 launches at once", "一次最多 1024 个启动"));
    *results = lua_newuserdatauv(L, count * sizeof **results, 0);
    *options = lua_newuserdatauv(L, count * sizeof **options, 0);
    for (int i = 0; i < count; i++) {
        int table = 2;
        if (batch) {
            lua_rawgeti(L, 2, i + 1);
            table = lua_gettop(L);
        }
        prepare_result(L, table, f, &(*results)[i], &(*options)[i]);
        if (batch)
            lua_pop(L, 1);
    }
    return count;
}

static void push_results(lua_State *L, const struct result *results, int count)
{
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        result_push(L, &results[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/* core.launch_many(name, {params, ...}, progress): like launch with a list, but
   Ctrl-C stops after the current launch and the results so far come back,
   with true as a second value; a progress bar when asked and on a terminal. */
static int core_launch_many(lua_State *L)
{
    lua_settop(L, 3);   /* the userdata below must not land where the params are looked for */
    const struct family *f = check_family(L, 1);
    struct result *results;
    struct measure_options *options;
    luaL_checktype(L, 2, LUA_TTABLE);
    int count = prepare_all(L, f, 1, &results, &options);
    int done = run_all(L, results, options, count, 1, lua_toboolean(L, 3));
    push_results(L, results, done);
    remember_last_result(L);
    lua_pushboolean(L, done < count);
    return 2;
}

/* launch(name, params) runs one launch; launch(name, {params, params, ...})
   runs several and reads their counters in one profiling session. */
static int api_launch(lua_State *L)
{
    lua_settop(L, 2);   /* the userdata below must not land where the params are looked for */
    const struct family *f = check_family(L, 1);
    int batch = lua_type(L, 2) == LUA_TTABLE && lua_rawgeti(L, 2, 1) == LUA_TTABLE;
    if (batch)
        lua_pop(L, 1);
    struct result *results;
    struct measure_options *options;
    int count = prepare_all(L, f, batch, &results, &options);
    run_all(L, results, options, count, 0, 0);
    if (!batch)
        result_push(L, &results[0]);
    else
        push_results(L, results, count);
    remember_last_result(L);
    return 1;
}

/* can(name, params): true when this device can run the launch; else false
   and why (cp_async on a GPU older than sm_80). Bad parameters are errors,
   as in launch(). For experiments that leave out what a GPU cannot run. */
static int api_can(lua_State *L)
{
    struct params p;
    struct measure_options o;
    char why[512];
    lua_settop(L, 2);
    const struct family *f = check_family(L, 1);
    check_params(L, 2, 2, f, &p, &o);
    if (!device_lacks(f, &p, why, sizeof why)) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_pushstring(L, why);
    return 2;
}

static int api_device(lua_State *L)
{
    const struct device_info *d = &session.device;
    lua_createtable(L, 0, 16);
    SET_STRING("backend", session.backend->name);
    SET_STRING("name", d->name);
    lua_pushfstring(L, "%d.%d", d->major, d->minor);
    lua_setfield(L, -2, "compute_capability");
    SET_INTEGER("sm_count", d->sm_count);
    SET_INTEGER("l2_bytes", d->l2_bytes);
    SET_INTEGER("memory_bytes", d->memory_bytes);
    SET_INTEGER("free_bytes", d->free_bytes);
    SET_INTEGER("bus_width_bits", d->bus_width_bits);
    SET_NUMBER("memory_clock_mhz", d->memory_clock_mhz);
    SET_NUMBER("peak_gbs", d->peak_gbs);
    SET_NUMBER("sm_clock_mhz", d->sm_clock_mhz);
    SET_INTEGER("shared_bytes_per_sm", d->shared_bytes_per_sm);
    SET_INTEGER("shared_bytes_per_block", d->shared_bytes_per_block);
    SET_INTEGER("max_threads_per_sm", d->max_threads_per_sm);
    SET_INTEGER("max_blocks_per_sm", d->max_blocks_per_sm);
    if (d->copy_gbs > 0)
        SET_NUMBER("copy_gbs", d->copy_gbs);
    SET_INTEGER("ordinal", d->ordinal);
    if (d->driver_version)
        SET_INTEGER("driver_version", d->driver_version);
    if (session.backend_notice[0])
        SET_STRING("notice", session.backend_notice);
    luaL_setmetatable(L, "warplab.device");
    return 1;
}

/* One parameter's declaration as a table for info(). */
static void push_param(lua_State *L, const struct param_decl *d)
{
    char allowed[256];
    lua_createtable(L, 0, 6);
    SET_STRING("name", d->name);
    static const char *const type_names[] = { "integer", "string", "block shape" };
    SET_STRING("type", type_names[d->type]);
    if (d->type == PARAM_CHOICE)
        SET_STRING("default", d->choices[d->fallback]);
    else if (d->type == PARAM_SHAPE)
        push_shape(L, d->fallback), lua_setfield(L, -2, "default");
    else
        SET_INTEGER("default", d->fallback);
    param_describe(d, allowed, sizeof allowed);
    SET_STRING("allowed", allowed);
    if (d->type == PARAM_CHOICE || d->only) {   /* choices: the allowed values as a list, to iterate */
        lua_newtable(L);
        for (int i = 0; d->type == PARAM_CHOICE ? d->choices[i] != NULL : i < d->only_count; i++) {
            if (d->type == PARAM_CHOICE)
                lua_pushstring(L, d->choices[i]);
            else
                lua_pushinteger(L, d->only[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "choices");
    }
    if (d->type == PARAM_INT && !d->only) {
        SET_INTEGER("min", d->min);
        SET_INTEGER("max", d->max);
    }
    SET_STRING("doc", d->doc);
    SET_STRING("doc_zh", d->doc_zh ? d->doc_zh : d->doc);
}

int api_add_family(lua_State *L, const struct family *f, char *why, size_t why_size)
{
    if (registry_add(f, why, why_size))
        return -1;
    session_push_core(NULL, "families_changed");
    lua_call(L, 0, 0);
    return 0;
}

/* core.families(): every family's declaration as plain tables, in registry order. */
static int core_families(lua_State *L)
{
    lua_createtable(L, family_count, 0);
    for (int i = 0; i < family_count; i++) {
        const struct family *f = families[i];
        lua_createtable(L, 0, 6);
        SET_STRING("name", f->name);
        SET_STRING("summary", f->summary);
        SET_STRING("teaches", f->teaches);
        SET_STRING("summary_zh", f->summary_zh ? f->summary_zh : f->summary);
        SET_STRING("teaches_zh", f->teaches_zh ? f->teaches_zh : f->teaches);
        SET_STRING("source", f->source);
        lua_createtable(L, f->param_count, 0);
        for (int k = 0; k < f->param_count; k++) {
            push_param(L, &f->params[k]);
            lua_rawseti(L, -2, k + 1);
        }
        lua_setfield(L, -2, "params");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* core.warp(kernel, params, warp): one warp's memory instructions, each
   {kind=, buffer=, bytes=, lanes={[lane+1] = byte offset in the buffer}},
   for the warp maps that show() draws. */
static int core_warp(lua_State *L)
{
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    struct warp_access acc[MAX_WARP_ACCESSES];
    uint64_t base[MAX_BUFFERS];
    check_params(L, 2, 2, f, &p, &o);
    long long warps = (f->shape(&p).threads + WARP_SIZE - 1) / WARP_SIZE;
    lua_Integer warp = luaL_optinteger(L, 3, 0);
    luaL_argcheck(L, warp >= 0 && warp < warps, 3,
                  lua_pushfstring(L, SAY("warp must be from 0 to %I", "warp 必须在 0 到 %I 之间"), (lua_Integer)(warps - 1)));
    model_buffer_bases(f->buffer_count, base);
    int count = f->warp_accesses(&p, base, warp, acc);
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        warp_access_expand(&acc[i]);
        lua_createtable(L, 0, 4);
        static const char *const kinds[] = { "load", "store", "shared load", "shared store", "constant load" };
        int shared = acc[i].kind == ACCESS_SHARED_LOAD || acc[i].kind == ACCESS_SHARED_STORE ||
                     acc[i].kind == ACCESS_CONSTANT_LOAD;
        SET_STRING("kind", kinds[acc[i].kind]);
        if (shared)
            SET_INTEGER("wavefronts", shared_wavefronts(&acc[i]));
        SET_INTEGER("bytes", acc[i].bytes);
        lua_createtable(L, WARP_SIZE, 0);
        for (int lane = 0; lane < WARP_SIZE; lane++) {
            if (!(acc[i].active >> lane & 1))
                continue;
            int buffer = shared ? -1 : (int)(acc[i].addr[lane] >> 40) - 1;
            lua_pushinteger(L, (lua_Integer)(acc[i].addr[lane] - (shared ? 0 : base[buffer])));
            lua_rawseti(L, -2, lane + 1);
            if (!lua_getfield(L, -2, "buffer")) {
                lua_pushstring(L, !shared ? f->buffers[buffer].name
                                  : acc[i].kind == ACCESS_CONSTANT_LOAD ? "constant" : "shared");
                lua_setfield(L, -4, "buffer");
            }
            lua_pop(L, 1);
        }
        lua_setfield(L, -2, "lanes");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* print() through the one writer. */
static int api_print(lua_State *L)
{
    int count = lua_gettop(L);
    for (int i = 1; i <= count; i++) {
        size_t length;
        const char *text = luaL_tolstring(L, i, &length);
        if (i > 1)
            out_write("\t", 1);
        out_write(text, length);
        lua_pop(L, 1);
    }
    out_write("\n", 1);
    return 0;
}

/* core.write(text): output without a newline. */
static int core_write(lua_State *L)
{
    size_t length;
    const char *text = luaL_checklstring(L, 1, &length);
    out_write(text, length);
    return 0;
}

/* core.capture(true): from now on the one writer keeps what it gets instead
   of showing it; core.capture(false) stops and returns it (for tests). */
static int core_capture(lua_State *L)
{
    size_t length;
    if (lua_toboolean(L, 1)) {
        out_capture_start();
        return 0;
    }
    const char *text = out_capture_stop(&length);
    lua_pushlstring(L, text, length);
    return 1;
}

/* core.format(): "table", "csv" or "json" (--format). */
static int core_format(lua_State *L)
{
    lua_pushstring(L, session.format[0] ? session.format : "table");
    return 1;
}

/* core.profiles(): the names of the device profiles, in docs/model.md's order. */
static int core_profiles(lua_State *L)
{
    lua_createtable(L, device_profile_count, 0);
    for (int i = 0; i < device_profile_count; i++) {
        lua_pushstring(L, device_profiles[i].key);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* core.lang([lang]): "en" or "zh"; with lang, the session speaks it from now
   on (for tests of both languages in one run) and the one before is returned. */
static int core_lang(lua_State *L)
{
    static const char *const languages[] = { "en", "zh", NULL };
    lua_pushstring(L, session.lang[0] ? session.lang : "en");
    if (!lua_isnoneornil(L, 1))
        snprintf(session.lang, sizeof session.lang, "%s", languages[luaL_checkoption(L, 1, NULL, languages)]);
    return 1;
}

/* core.fancy(): whether output may use Unicode blocks. */
static int core_fancy(lua_State *L)
{
    lua_pushboolean(L, out_is_fancy());
    return 1;
}

/* measure_copy(): measures the copy ceiling again (and caches it); returns GB/s. */
static int api_measure_copy(lua_State *L)
{
    char error[512];
    if (!session.backend->measures)
        return luaL_error(L, SAY("measure_copy needs a GPU: the %s backend has nothing to measure", "measure_copy 需要 GPU：%s 后端没有可测量的设备"),
                          session.backend->name);
    if (session.backend->measure_copy(&session.device, error, sizeof error) != 0)
        return luaL_error(L, SAY("measure_copy failed: %s", "measure_copy 失败：%s"), error);
    lua_pushnumber(L, session.device.copy_gbs);
    return 1;
}

/* The counter or derived term named `name`, or NULL. */
static const struct counter_decl *find_term(const char *name)
{
    for (int i = 0; i < COUNTER_COUNT; i++)
        if (strcmp(counter_table[i].field, name) == 0)
            return &counter_table[i];
    for (int i = 0; i < derived_term_count; i++)
        if (strcmp(derived_terms[i].field, name) == 0)
            return &derived_terms[i];
    return NULL;
}

static void add_term_names(luaL_Buffer *b)
{
    for (int i = 0; i < derived_term_count; i++) {
        luaL_addstring(b, i ? ", " : "");
        luaL_addstring(b, derived_terms[i].field);
    }
    for (int i = 0; i < COUNTER_COUNT; i++) {
        luaL_addstring(b, ", ");
        luaL_addstring(b, counter_table[i].field);
    }
}

/* explain(term): what a counter or derived number means, and its Nsight Compute metric. */
static int api_explain(lua_State *L)
{
    luaL_Buffer b;
    const char *name = luaL_optstring(L, 1, NULL);
    const struct counter_decl *term = name && !has_nul(L, 1) ? find_term(name) : NULL;
    if (term) {
        out_printf(SAY("%s: %s\n  Nsight Compute: %s\n", "%s：%s\n  Nsight Compute：%s\n"), term->field,
                   SAY(term->meaning, term->meaning_zh), term->metric_zh ? SAY(term->metric, term->metric_zh) : term->metric);
        if (term->other_metric)
            out_printf(SAY("  on the GB202 to GB207 chips (the RTX 50 series): %s\n", "  GB202 至 GB207 芯片上：%s\n"), term->other_metric);
        return 0;
    }
    luaL_buffinit(L, &b);
    if (name) {
        lua_pushfstring(L, SAY("unknown term %s (terms: ", "未知术语 %s（术语："), push_quoted(L, 1, '\''));
        lua_remove(L, -2);
        luaL_addvalue(&b);
        add_term_names(&b);
        luaL_addstring(&b, SAY(")", "）"));
        luaL_pushresult(&b);
        return luaL_argerror(L, 1, lua_tostring(L, -1));
    }
    luaL_addstring(&b, SAY("explain(term) knows: ", "explain(term) 能解释："));
    add_term_names(&b);
    luaL_pushresult(&b);
    out_printf("%s\n", lua_tostring(L, -1));
    return 0;
}

/* alloc_alignment(count, bytes): the addresses of count allocations and the
   largest power of two each is aligned to (cudaMalloc promises 256). */
static int api_alloc_alignment(lua_State *L)
{
    lua_Integer count = luaL_checkinteger(L, 1), bytes = luaL_optinteger(L, 2, 1);
    uint64_t addresses[MAX_ALLOCATIONS];
    char error[512];
    luaL_argcheck(L, count >= 1 && count <= MAX_ALLOCATIONS, 1, SAY("count must be from 1 to 256", "count 必须在 1 到 256 之间"));
    luaL_argcheck(L, bytes >= 1 && (uint64_t)bytes <= session.device.memory_bytes / 2, 2,
                  SAY("bytes must be at least 1 and at most half the device memory", "bytes 必须至少为 1，且不超过设备内存的一半"));
    if (session.backend->allocate((int)count, (size_t)bytes, addresses, error, sizeof error) != 0)
        return luaL_error(L, SAY("alloc_alignment failed: %s", "alloc_alignment 失败：%s"), error);
    lua_createtable(L, (int)count, 1);
    for (int i = 0; i < count; i++) {
        lua_createtable(L, 0, 2);
        lua_pushfstring(L, "%p", (void *)(uintptr_t)addresses[i]);
        lua_setfield(L, -2, "address");
        SET_INTEGER("alignment", addresses[i] & (~addresses[i] + 1));
        lua_rawseti(L, -2, i + 1);
    }
    lua_pushboolean(L, !session.backend->measures);
    lua_setfield(L, -2, "modelled");
    luaL_setmetatable(L, "warplab.allocations");
    return 1;
}

static const luaL_Reg globals[] = {
    { "alloc_alignment", api_alloc_alignment },
    { "explain", api_explain },
    { "launch", api_launch },
    { "can", api_can },
    { "config", api_config },
    { "measure_copy", api_measure_copy },
    { "device", api_device },
    { "print", api_print },
    { NULL, NULL },
};

static const luaL_Reg core_functions[] = {
    { "families", core_families },
    { "warp", core_warp },
    { "launch_many", core_launch_many },
    { "write", core_write },
    { "capture", core_capture },
    { "kernel_problem", core_kernel_problem },
    { "quote", core_quote },
    { "fancy", core_fancy },
    { "lang", core_lang },
    { "format", core_format },
    { "command", command_lua },
    { "profiles", core_profiles },
    { NULL, NULL },
};

void api_open(lua_State *L)
{
    lua_pushglobaltable(L);
    luaL_setfuncs(L, globals, 0);
    lua_pop(L, 1);
    luaL_newlib(L, core_functions);
    labs_open(L);
    sandbox_open(L);
    files_open(L);
    SET_STRING("version", PACKAGE_VERSION);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);
    luaL_newmetatable(L, RESULT_METATABLE);
    lua_setfield(L, -2, "Result");
    luaL_newmetatable(L, "warplab.device");
    lua_setfield(L, -2, "Device");
    luaL_newmetatable(L, "warplab.allocations");
    lua_setfield(L, -2, "Allocations");
}
