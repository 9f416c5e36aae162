/*
** arguments.c — what a student passes, checked against the declarations:
** kernel names (with a "did you mean"), parameters by name, type and range,
** and the measuring options a launch or config{} may set. Every mistake is
** one argument error that names the argument and says what was expected.
*/
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>
#include "api/lua_keys.h"
#include "api/arguments.h"
#include "output.h"
#include "model/params.h"
#include "model/profiles.h"
#include "model/registry.h"
#include "api/session.h"

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
int has_nul(lua_State *L, int idx)
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
        lua_pushfstring(L, SAY("kernel name %s contains a NUL byte", "核函数名 %s 含有 NUL 字节"), push_quoted(L, idx, '\''));
        return 1;
    }
    const char *name = lua_tostring(L, idx);
    if ((*found = family_find(name)) != NULL)
        return 0;
    const struct family *near = family_nearest(name);
    char names[MAX_FAMILIES * 42];
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, SAY("unknown kernel %s", "未知核函数 %s"), push_quoted(L, idx, '\''));
    lua_remove(L, -2);
    luaL_addvalue(&b);
    if (near) {
        lua_pushfstring(L, SAY("; did you mean '%s'?", "；你是不是想用 '%s'？"), near->name);
        luaL_addvalue(&b);
    }
    luaL_addstring(&b, SAY(" (kernels: ", "（核函数："));
    luaL_addstring(&b, family_names(names, sizeof names));
    luaL_addstring(&b, SAY(")", "）"));
    luaL_pushresult(&b);
    return 1;
}

/* The family named by argument arg, or an argument error naming the nearest ones. */
const struct family *check_family(lua_State *L, int arg)
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
    if (d->type == PARAM_FLOAT) {
        if (lua_type(L, -1) != LUA_TNUMBER) {
            lua_pushfstring(L, SAY("'%s' must be a number, got %s", "'%s' 必须是数，实际为 %s"), d->name, TYPE_TEXT(L, -1));
            luaL_argerror(L, arg, lua_tostring(L, -1));
        }
        if (param_check_float(d, lua_tonumber(L, -1), why, sizeof why))
            luaL_argerror(L, arg, why);
        p->v[i] = PARAM_FLOAT_BITS(lua_tonumber(L, -1));
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

static int read_kernel_timeout(lua_State *L, struct measure_options *o)
{
    double seconds = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(seconds > 0 && seconds <= 3600))
        return -1;
    o->kernel_timeout_s = seconds;
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

static int read_model(lua_State *L, struct measure_options *o)
{
    const char *text = whole_string(L, -1);
    if (!text || (strcmp(text, "formula") && strcmp(text, "emulator")))
        return -1;
    o->emulated = strcmp(text, "emulator") == 0;
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
    { "model", "\"formula\" (the hand-written model) or \"emulator\" (the kernel's own PTX, emulated)",
      "\"formula\"（手写的模型）或 \"emulator\"（模拟执行核函数自己的 PTX）", read_model },
    { "kernel_timeout", "a number of seconds above 0, at most 3600 (how long a launch of a kernel declared in Lua may run on the GPU)",
      "大于 0、至多 3600 的秒数（在 Lua 中声明的核函数一次启动在 GPU 上最多可运行多久）", read_kernel_timeout },
};

static const struct option_decl *find_option(const char *name)
{
    for (int i = 0; i < COUNT_OF(options); i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

static const char *option_name(const void *list, int i)
{
    return ((const struct option_decl *)list)[i].name;
}

/* "cache, min_samples, ...": the measurement options, for messages. */
static const char *option_names(char *out, size_t size)
{
    return join_names(out, size, COUNT_OF(options), option_name, options);
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
        lua_pushfstring(L, SAY("unknown parameter %s for '%s'; did you mean '%s'? (valid: %s; options: %s)", "未知参数 %s（核函数 '%s'）；你是不是想用 '%s'？（可用参数：%s；选项：%s）"),
                        name, f->name, near, names, option_list);
    else
        lua_pushfstring(L, SAY("unknown parameter %s for '%s' (valid: %s; options: %s)", "未知参数 %s（核函数 '%s'）（可用参数：%s；选项：%s）"), name, f->name,
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

/* The params and options of the table at `table`, as check_params says. */
static void read_params(lua_State *L, int table, int arg, const struct family *f, struct params *p,
                        struct measure_options *o)
{
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

/* Parameters of a launch from the table at stack index `table` (nil: all
   defaults), errors naming argument `arg`; measurement options in the same
   table override the session's for this launch. A kernel without a
   formula runs on the emulator, and a kernel declared in Lua
   derives its sizes from its params here. */
void check_params(lua_State *L, int table, int arg, const struct family *f, struct params *p,
                         struct measure_options *o)
{
    char why[512];
    params_defaults(f, p);
    *o = session.options;
    read_params(L, table, arg, f, p, o);
    if (!f->warp_accesses)
        o->emulated = 1;
    if (f->derive && f->derive(L, f, p, why, sizeof why))
        luaL_argerror(L, arg, why);
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
    SET_STRING("model", o->emulated ? "emulator" : "formula");
    SET_NUMBER("kernel_timeout", o->kernel_timeout_s);
}

/* config{...}: changes how the session measures; returns the options now. */
static int api_config(lua_State *L)
{
    struct measure_options o = session.options;
    if (!lua_isnoneornil(L, 1)) {
        luaL_argexpected(L, lua_type(L, 1) == LUA_TTABLE, 1, SAY("table of options", "选项表"));
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING)
                luaL_argerror(L, 1, SAY("setting names must be strings, as in {cache=\"warm\"}", "设置名必须是字符串，例如 {cache=\"warm\"}"));
            const struct option_decl *option = has_nul(L, -2) ? NULL : find_option(lua_tostring(L, -2));
            char option_list[128];
            if (!option)
                luaL_argerror(L, 1, lua_pushfstring(L, SAY("unknown option %s (options: %s)", "未知选项 %s（可用选项：%s）"),
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

const luaL_Reg argument_globals[] = {
    { "config", api_config },
    { NULL, NULL },
};

/* core.option_names(): the measurement options a launch's params may hold, for completion. */
static int core_option_names(lua_State *L)
{
    lua_createtable(L, COUNT_OF(options), 0);
    for (int i = 0; i < COUNT_OF(options); i++) {
        lua_pushstring(L, options[i].name);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

const luaL_Reg argument_core[] = {
    { "kernel_problem", core_kernel_problem },
    { "option_names", core_option_names },
    { "quote", core_quote },
    { NULL, NULL },
};
