/*
** declare_kernel.c — core.declare_kernel(spec), what kernel{} in
** lua/kernel.lua calls: reads a checked declaration from Lua into a
** user_kernel (user_kernel.h), and gives its family the two callbacks that
** call its Lua functions on the shell's thread: derive (its sizes, a Lua
** function of the params) and check_outputs (the outputs the emulator kept,
** against its Lua reference, whole or sampled).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "model/atomic_sums.h"
#include "model/output_check.h"
#include "api/declare_kernel.h"
#include "backend/emulate.h"
#include "families/indirect.h"
#include "emulator/ptx.h"
#include "model/registry.h"
#include "api/api.h"
#include "api/result_lua.h"
#include "api/session.h"
#include "sandbox.h"
#include "support/text.h"
#include "backend/user_kernel.h"

static const char *const FIELD_NAMES[] = { "x", "y", "z", "w" };   /* a vector element's scalars, as Lua names them */

/* Item position of the list at idx, an integer between low and high; the first that is not says why. */
static long long dimension(lua_State *L, int idx, int position, long long low, long long high, const char *kernel,
                           const char *what, char *why, size_t why_size, int *failed)
{
    long long value = 0;
    int is_integer = lua_rawgeti(L, idx, position) == LUA_TNUMBER && lua_isinteger(L, -1);
    if (is_integer)
        value = (long long)lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (!*failed && (!is_integer || value < low || value > high)) {
        snprintf(why, why_size, SAY("kernel '%s': %s[%d] must be an integer from %lld to %lld",
                                    "核函数 '%s'：%s[%d] 必须是 %lld 到 %lld 的整数"), kernel, what, position, low, high);
        *failed = 1;
    }
    return value;
}

/* Scalar c of element e set from the Lua number at idx; 0, or -1 when it is none the buffer can hold. */
static int store_scalar(lua_State *L, int idx, const struct user_buffer *b, unsigned char *data, size_t e, int c)
{
    unsigned char *at = data + (e * (size_t)b->width + (size_t)c) * (size_t)b->scalar_bytes;
    int is_integer;
    lua_Integer integer = lua_tointegerx(L, idx, &is_integer);
    if (lua_type(L, idx) != LUA_TNUMBER || (!b->is_float && !is_integer))
        return -1;
    if (b->is_float && b->scalar_bytes == 4)
        memcpy(at, &(float){ (float)lua_tonumber(L, idx) }, 4);
    else if (b->is_float)
        memcpy(at, &(double){ lua_tonumber(L, idx) }, 8);
    else
        memcpy(at, &integer, (size_t)b->scalar_bytes);   /* little-endian: the low bytes, wrapped */
    return 0;
}

/* Element e from the value on top of the stack: a number, or for a vector {x=, y=, ...} or {v1, v2, ...}. */
static int store_element(lua_State *L, const struct user_buffer *b, unsigned char *data, size_t e)
{
    if (b->width == 1)
        return store_scalar(L, -1, b, data, e, 0);
    if (!lua_istable(L, -1))
        return -1;
    int failed = 0;
    for (int c = 0; c < b->width && !failed; c++) {
        if (lua_getfield(L, -1, FIELD_NAMES[c]) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_rawgeti(L, -1, c + 1);
        }
        failed = store_scalar(L, -1, b, data, e, c);
        lua_pop(L, 1);
    }
    return failed ? -1 : 0;
}

/* Makes buffer i's function have given count elements: it is called for
   each index not asked for before. 0, or -1 with why. */
static int grow_given(lua_State *L, struct user_kernel *k, int i, size_t count, char *why, size_t why_size)
{
    struct user_buffer *b = &k->buffer_info[i];
    size_t bytes = (size_t)(b->scalar_bytes * b->width);
    char what[160];
    if (count <= b->given_count)
        return 0;
    snprintf(what, sizeof what, SAY("kernel '%s': buffers.%s.fill", "核函数 '%s'：buffers.%s.fill"), k->name, b->name);
    if (sandbox_memory_refuses((double)count * (double)bytes, what, why, why_size))
        return -1;
    unsigned char *grown = realloc(b->given, count * bytes);
    if (!grown) {
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
        return -1;
    }
    b->given = grown;
    for (size_t e = b->given_count; e < count; e++) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, b->function);
        lua_pushinteger(L, (lua_Integer)e);
        if (lua_pcall(L, 1, 1, 0) != LUA_OK || store_element(L, b, b->given, e)) {
            snprintf(why, why_size, SAY("kernel '%s': buffers.%s.fill(%zu) %s %s", "核函数 '%s'：buffers.%s.fill(%zu) %s %s"), k->name,
                     b->name, e, lua_type(L, -1) == LUA_TSTRING ? SAY("failed:", "出错：") : SAY("gave", "给出了"),
                     lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                    : SAY("what the buffer cannot hold (a number, or a vector's fields)",
                                                          "缓冲区装不下的值（应为数，或向量的各个分量）"));
            lua_pop(L, 1);
            b->given_count = e;   /* what was given stays good */
            return -1;
        }
        lua_pop(L, 1);
    }
    b->given_count = count;
    k->version++;
    return 0;
}

/* Calls the kernel's Lua function of its params and keeps what it gives in p's slots. */
/* The kernel's SASS listing (or why it has none), asked of its listing
   function at its first launch on an sm_90 GPU or profile, the one the SASS
   engine runs, and kept with it. The work (a compile, the disassembler) is
   warplab's own, not lab code's: the sandbox's budget pauses for it. */
static void keep_listing(lua_State *L, struct user_kernel *k)
{
    if (k->family.sass || k->family.sass_why || k->listing == LUA_NOREF || !sass_engine_runs(&session.device))
        return;
    struct sandbox_pause pause;
    sandbox_pause_begin(L, &pause);
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->listing);
    int failed = lua_pcall(L, 0, 2, 0) != LUA_OK;
    const char **kept[] = { &k->family.sass, &k->family.sass_why };
    for (int i = 0; i < 2; i++) {
        size_t length;
        const char *text = lua_type(L, -2 + i) == LUA_TSTRING ? lua_tolstring(L, -2 + i, &length) : NULL;
        if (text && !failed)
            *kept[i] = copy_as_text(text, length);
    }
    if (failed) {   /* its error, as why */
        const char *error = lua_tostring(L, -1) ? lua_tostring(L, -1) : "?";
        k->family.sass_why = copy_as_text(error, strlen(error));
    }
    lua_pop(L, failed ? 1 : 2);
    sandbox_pause_end(L, &pause);
}

static int user_derive(void *lua_state, const struct family *f, struct params *p, char *why, size_t why_size)
{
    lua_State *L = lua_state;
    const struct user_kernel *k = (const struct user_kernel *)f;
    int top = lua_gettop(L), failed = 0;
    p->v[KERNEL_SLOT] = k->index;
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->derive);
    result_push_params(L, f, p);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
        snprintf(why, why_size, SAY("kernel '%s': its sizes could not be worked out: %s", "核函数 '%s'：无法算出它的尺寸：%s"),
                 f->name, lua_isstring(L, -1) ? lua_tostring(L, -1) : SAY("no table of sizes", "没有尺寸表"));
        lua_settop(L, top);
        return -1;
    }
    int sizes = lua_gettop(L), base = f->param_count;
    static const struct { const char *field, *what; int count, slot; long long most; } parts[] = {
        { "grid", "grid", 3, DERIVED_GRID, 2147483647 }, { "block", "block", 3, DERIVED_BLOCK, 1024 },
    };
    lua_getfield(L, sizes, "counts");
    for (int i = 0; i < f->buffer_count; i++)
        p->v[base + i] = dimension(L, lua_gettop(L), i + 1, 1, 1ll << 34, f->name, f->buffers[i].name, why, why_size, &failed);
    lua_pop(L, 1);
    for (size_t part = 0; part < sizeof parts / sizeof parts[0]; part++) {
        lua_getfield(L, sizes, parts[part].field);
        for (int d = 0; d < parts[part].count; d++)
            p->v[base + f->buffer_count + parts[part].slot + d] =
                dimension(L, lua_gettop(L), d + 1, 1, d == 0 ? parts[part].most : 65535, f->name, parts[part].what, why, why_size,
                          &failed);
        lua_pop(L, 1);
    }
    lua_getfield(L, sizes, "shared");
    long long shared = (long long)luaL_optinteger(L, -1, 0);
    p->v[base + f->buffer_count + DERIVED_SHARED] = shared;
    if (!failed && (shared < 0 || shared > UINT32_MAX)) {   /* the device's own limit is launch.c's to check */
        snprintf(why, why_size, SAY("kernel '%s': shared must be an integer from 0 to %u", "核函数 '%s'：shared 必须是 0 到 %u 的整数"),
                 f->name, UINT32_MAX);
        failed = 1;
    }
    lua_settop(L, top);
    keep_listing(L, (struct user_kernel *)k);
    for (int i = 0; i < f->buffer_count && !failed; i++) {
        const struct user_buffer *b = &k->buffer_info[i];
        long long bytes = p->v[base + i] * b->scalar_bytes * b->width;
        if (b->constant_bytes && bytes > b->constant_bytes) {
            snprintf(why, why_size, SAY("kernel '%s': buffers.%s holds %lld bytes, more than its __constant__ variable's %lld",
                                        "核函数 '%s'：buffers.%s 有 %lld 字节，超过其 __constant__ 变量的 %lld 字节"),
                     f->name, b->name, bytes, b->constant_bytes);
            failed = 1;
        }
    }
    struct user_kernel *mutable = (struct user_kernel *)k;   /* what the functions gave is kept with the kernel */
    for (int i = 0; i < f->buffer_count && !failed; i++)
        if (k->buffer_info[i].fill == FILL_FUNCTION)
            failed = grow_given(L, mutable, i, (size_t)p->v[base + i], why, why_size) != 0;
    if (!failed && user_kernel_dims(p, DERIVED_BLOCK) > 1024) {
        snprintf(why, why_size, SAY("kernel '%s': a block of %lld threads; at most 1024", "核函数 '%s'：线程块有 %lld 个线程；至多 1024 个"),
                 f->name, user_kernel_dims(p, DERIVED_BLOCK));
        failed = 1;
    }
    return failed ? -1 : 0;
}

/* Copies the string field name of the table at idx into out (the empty string when absent). */
static void copy_field(lua_State *L, int idx, const char *name, char *out, size_t size)
{
    lua_getfield(L, idx, name);
    snprintf(out, size, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "");
    lua_pop(L, 1);
}

static long long integer_field(lua_State *L, int idx, const char *name, long long fallback)
{
    lua_getfield(L, idx, name);
    long long value = lua_isinteger(L, -1) ? (long long)lua_tointeger(L, -1) : fallback;
    lua_pop(L, 1);
    return value;
}

static double number_field(lua_State *L, int idx, const char *name)
{
    lua_getfield(L, idx, name);
    double value = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return value;
}

/* A string that lives as long as the session: the family's texts. */
static const char *kept_string(lua_State *L, int idx, const char *name)
{
    lua_getfield(L, idx, name);
    const char *text = lua_isstring(L, -1) ? strdup(lua_tostring(L, -1)) : NULL;
    lua_pop(L, 1);
    return text;
}

static void read_params(lua_State *L, int spec, struct user_kernel *k)
{
    lua_getfield(L, spec, "params");
    int list = lua_gettop(L), count = (int)lua_rawlen(L, list);
    for (int i = 0; i < count && i < MAX_PARAMS; i++) {
        lua_rawgeti(L, list, i + 1);
        int item = lua_gettop(L);
        copy_field(L, item, "name", k->param_names[i], sizeof k->param_names[i]);
        k->params[i] = (struct param_decl){ .name = k->param_names[i], .type = PARAM_INT,
                                            .fallback = integer_field(L, item, "default", 0),
                                            .min = integer_field(L, item, "min", 0), .max = integer_field(L, item, "max", 0),
                                            .doc = kept_string(L, item, "doc"), .doc_zh = kept_string(L, item, "doc_zh") };
        if (integer_field(L, item, "float", 0)) {   /* a number: its bounds and default as floats */
            k->params[i].type = PARAM_FLOAT;
            k->params[i].low = number_field(L, item, "min");
            k->params[i].high = number_field(L, item, "max");
            k->params[i].fallback = PARAM_FLOAT_BITS(number_field(L, item, "default"));
        }
        lua_pop(L, 1);
    }
    k->family.param_count = count;
    lua_pop(L, 1);
}

static void read_buffers(lua_State *L, int spec, struct user_kernel *k)
{
    lua_getfield(L, spec, "buffers");
    int list = lua_gettop(L), count = (int)lua_rawlen(L, list);
    for (int i = 0; i < count && i < MAX_BUFFERS; i++) {
        struct user_buffer *b = &k->buffer_info[i];
        lua_rawgeti(L, list, i + 1);
        int item = lua_gettop(L);
        char fill[16];
        copy_field(L, item, "name", b->name, sizeof b->name);
        copy_field(L, item, "fill", fill, sizeof fill);
        b->is_float = integer_field(L, item, "is_float", 0) != 0;
        b->is_signed = integer_field(L, item, "is_signed", 0) != 0;
        b->scalar_bytes = (int)integer_field(L, item, "scalar_bytes", 4);
        b->width = (int)integer_field(L, item, "width", 1);
        b->fill = FILL_RANDOM;
        for (int f = 0; user_fill_names[f]; f++)
            if (strcmp(fill, user_fill_names[f]) == 0)
                b->fill = (enum fill_kind)f;
        b->low = integer_field(L, item, "low", 0);
        b->high = integer_field(L, item, "high", 255);
        b->constant_bytes = integer_field(L, item, "constant", 0) ? -1 : 0;   /* its size comes from the PTX */
        lua_getfield(L, item, "fill_function");
        b->function = lua_isfunction(L, -1) ? luaL_ref(L, LUA_REGISTRYINDEX) : (lua_pop(L, 1), LUA_NOREF);
        lua_getfield(L, item, "output");
        int output = lua_toboolean(L, -1);
        k->buffers[i] = (struct buffer_decl){ .name = b->name, .role = output ? BUFFER_OUT : BUFFER_IN,
                                              .element_bytes = (int)integer_field(L, item, "bytes", 4) };
        k->family.filled |= (unsigned)(output && fill[0]) << i;
        lua_pop(L, 2);
    }
    k->family.buffer_count = count;
    lua_pop(L, 1);
}

/* args = {{buffer = i} | {param = i} | {value = v}, ...}, 1-based indices. */
static void read_args(lua_State *L, int spec, struct user_kernel *k)
{
    lua_getfield(L, spec, "args");
    int list = lua_gettop(L);
    k->arg_count = (int)lua_rawlen(L, list);
    for (int i = 0; i < k->arg_count && i < MAX_KERNEL_ARGS; i++) {
        lua_rawgeti(L, list, i + 1);
        k->args[i] = (struct user_arg){ .buffer = (int)integer_field(L, -1, "buffer", 0) - 1,
                                        .param = (int)integer_field(L, -1, "param", 0) - 1,
                                        .value = integer_field(L, -1, "value", 0), .bytes = 8 };
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* A launch whose buffers hold more elements than MAX_CHECKED_ELEMENTS, all
   together, is checked on a sample of its outputs (Lua tables of them all
   would take seconds and gigabytes): SAMPLE_ELEMENTS of them at the most, and
   of each output at least MIN_SAMPLE_ELEMENTS (or all it has). */
enum { MAX_CHECKED_ELEMENTS = 1 << 22, SAMPLE_ELEMENTS = 1 << 20, MIN_SAMPLE_ELEMENTS = 1 << 12 };
/* A lab's reference runs over every element of a launch of any size: the
   sandbox grants it this many instructions (or their CPU time) an element of
   the launch's buffers, beyond a call's budget: a 64 Mi-element launch's
   reference may take up to about a minute, and a loop that never ends still ends. */
enum { REFERENCE_INSTRUCTIONS_PER_ELEMENT = 48 };

/* Scalar c of element e of a buffer, pushed as a Lua number. */
static void push_scalar(lua_State *L, const struct user_buffer *b, const unsigned char *data, size_t e, int c)
{
    const unsigned char *at = data + (e * (size_t)b->width + (size_t)c) * (size_t)b->scalar_bytes;
    uint64_t bits = 0;
    memcpy(&bits, at, (size_t)b->scalar_bytes);
    if (b->is_float && b->scalar_bytes == 4) {
        float f;
        memcpy(&f, at, 4);
        lua_pushnumber(L, f);
    } else if (b->is_float) {
        double d;
        memcpy(&d, at, 8);
        lua_pushnumber(L, d);
    } else if (b->is_signed && b->scalar_bytes < 8) {
        uint64_t sign = 1ull << (8 * b->scalar_bytes - 1);
        lua_pushinteger(L, (lua_Integer)((bits ^ sign) - sign));
    } else {
        lua_pushinteger(L, (lua_Integer)bits);
    }
}

/* Element e of a buffer pushed as Lua sees it: a number, or {x=, y=, ...} for a vector. */
static void push_element(lua_State *L, const struct user_buffer *b, const unsigned char *data, size_t e)
{
    if (b->width == 1) {
        push_scalar(L, b, data, e, 0);
        return;
    }
    lua_createtable(L, 0, b->width);
    for (int c = 0; c < b->width; c++) {
        push_scalar(L, b, data, e, c);
        lua_setfield(L, -2, FIELD_NAMES[c]);
    }
}

/* A buffer as a Lua table from index 0, its contents (zeros for an output, as the kernel found it). */
static void push_buffer(lua_State *L, const struct user_buffer *b, const unsigned char *data, size_t count, int zeros)
{
    static const unsigned char zero[16];
    lua_createtable(L, (int)count, 1);
    for (size_t e = 0; e < count; e++) {
        push_element(L, b, zeros ? zero : data, zeros ? 0 : e);
        lua_rawseti(L, -2, (lua_Integer)e);
    }
}

/* An output that starts filled, as the kernel found it: filled again as
   the emulator's launch filled it (from EMULATION_SEED), since the kernel has
   written over it since. 0, or -1 when memory is short. */
static int push_initial(lua_State *L, const struct user_buffer *b, size_t count, uint64_t seed)
{
    unsigned char *initial = malloc(count * (size_t)(b->scalar_bytes * b->width) + 1);
    if (!initial)
        return -1;
    user_buffer_fill(b, initial, count, seed);
    push_buffer(L, b, initial, count, 0);
    free(initial);
    return 0;
}

/* An output as the kernel left it: its buffer, its bytes, and what float
   atomic adds summed in it (sums' buffer `buffer`), whose rounding the check allows. */
struct written {
    const struct user_buffer *b;
    const unsigned char *data;
    const struct atomic_sums *sums;
    int buffer;
};

/* The float atomic sum that scalar c of element e holds, or NULL. */
static const struct atomic_sum *sum_of(const struct written *w, size_t e, int c)
{
    size_t offset = (e * (size_t)w->b->width + (size_t)c) * (size_t)w->b->scalar_bytes;
    return w->b->is_float ? atomic_sum_at(w->sums, w->buffer, offset) : NULL;
}

/* Whether the reference's value (on the stack) is the emulator's: integers
   exactly; floats within a relative 1e-5, or, where float atomic adds summed
   the value, within the rounding of its terms in any order if that is wider. */
static int same_value(lua_State *L, const struct written *w, size_t e, int c)
{
    push_scalar(L, w->b, w->data, e, c);
    int same;
    if (w->b->is_float) {
        double want = lua_tonumber(L, -2), got = lua_tonumber(L, -1);
        same = lua_isnumber(L, -2) && (value_matches(got, want, 1e-5, sum_of(w, e, c)) || (want != want && got != got));
    } else {
        same = lua_isnumber(L, -2) && lua_compare(L, -2, -1, LUA_OPEQ);
    }
    lua_pop(L, 1);
    return same;
}

/* What a mismatch at a value float atomics summed adds: the rounding its terms allowed. */
static void say_allowed(const struct atomic_sum *sum, char *text, size_t text_size)
{
    if (!sum) {
        text[0] = '\0';
        return;
    }
    snprintf(text, text_size, SAY(", further apart than the tolerance of %.3g that rounding its %u float atomic terms allows",
                                  "，相差超过其 %2$u 项浮点原子操作之和的舍入所允许的容差 %1$.3g"),
             atomic_sum_tolerance(sum), sum->terms);
}

/* Whether the element the reference left (on top of the stack, kept there)
   is what the kernel wrote at e; else the difference, in mismatch. */
static int element_same(lua_State *L, const struct written *w, size_t e, char *mismatch, size_t mismatch_size)
{
    const struct user_buffer *b = w->b;
    for (int c = 0; c < b->width; c++) {
        if (b->width == 1)
            lua_pushvalue(L, -1);
        else if (lua_istable(L, -1) && (lua_pushstring(L, FIELD_NAMES[c]), 1))
            lua_rawget(L, -2);
        else
            lua_pushnil(L);   /* a vector's element that is no table: no scalar is the kernel's */
        if (!same_value(L, w, e, c)) {
            char allowed[160];
            say_allowed(sum_of(w, e, c), allowed, sizeof allowed);
            push_scalar(L, b, w->data, e, c);
            const char *got = lua_tostring(L, -1), *want = luaL_tolstring(L, -2, NULL);
            snprintf(mismatch, mismatch_size, SAY("%s[%zu]%s%s: the reference says %s, the kernel wrote %s%s",
                                                  "%s[%zu]%s%s：参考结果是 %s，核函数写的是 %s%s"),
                     b->name, e, b->width > 1 ? "." : "", b->width > 1 ? FIELD_NAMES[c] : "", want, got, allowed);
            lua_pop(L, 3);   /* the reference's value, the kernel's, the text */
            return 0;
        }
        lua_pop(L, 1);
    }
    return 1;
}

/* Compares an output (the reference's table on the stack) with what the kernel wrote; 0 and mismatch at the first difference. */
static int output_same(lua_State *L, const struct written *w, size_t count, char *mismatch, size_t mismatch_size)
{
    for (size_t e = 0; e < count; e++) {
        lua_rawgeti(L, -1, (lua_Integer)e);
        int same = element_same(L, w, e, mismatch, mismatch_size);
        lua_pop(L, 1);
        if (!same)
            return 0;
    }
    return 1;
}

/* Calls the kernel's reference with the launch's params and the buffers
   table on top of the stack (left there); 1, or 0 with why in mismatch. */
static int call_reference(lua_State *L, const struct user_kernel *k, const struct params *p, struct output_check *check)
{
    int buffers = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->reference);
    result_push_params(L, &k->family, p);
    lua_pushvalue(L, buffers);
    if (lua_pcall(L, 2, 0, 0) == LUA_OK)
        return 1;
    snprintf(check->mismatch, sizeof check->mismatch, SAY("the reference failed: %s", "参考函数出错：%s"),
             lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_settop(L, buffers);
    return 0;
}

/* Every element of every output against the reference, which gets each
   buffer whole as a Lua table. */
static int check_whole(lua_State *L, const struct user_kernel *k, const struct params *p, void **data, const size_t *elements,
                       const struct atomic_sums *sums, struct output_check *check)
{
    const struct family *f = &k->family;
    int top = lua_gettop(L);
    lua_createtable(L, 0, f->buffer_count);
    for (int i = 0; i < f->buffer_count; i++) {
        int filled = f->filled >> i & 1;
        if (filled && push_initial(L, &k->buffer_info[i], elements[i], EMULATION_SEED + (uint64_t)i)) {
            lua_settop(L, top);
            snprintf(check->unchecked, sizeof check->unchecked, "%s", SAY("out of memory", "内存不足"));
            return -1;
        }
        if (!filled)
            push_buffer(L, &k->buffer_info[i], data[i], elements[i], f->buffers[i].role == BUFFER_OUT);
        lua_setfield(L, -2, k->buffer_info[i].name);
    }
    int same = call_reference(L, k, p, check);
    for (int i = 0; i < f->buffer_count && same; i++) {
        if (f->buffers[i].role != BUFFER_OUT)
            continue;
        struct written w = { &k->buffer_info[i], data[i], sums, i };
        lua_getfield(L, top + 1, k->buffer_info[i].name);
        same = lua_istable(L, -1) && output_same(L, &w, elements[i], check->mismatch, sizeof check->mismatch);
        lua_settop(L, top + 1);
    }
    lua_settop(L, top);
    check->checked = check->elements;
    return same;
}

/* One buffer as the reference sees it in a sampled check: a table whose
   elements are read from the launch's memory when asked for, and whose
   writes are kept only at the sampled elements of an output. An output's
   sampled element reads as the reference left it (as the kernel found it
   before its first write); any other, as the kernel left it. */
struct proxy {
    const struct user_buffer *b;
    const unsigned char *data;      /* the buffer after the launch */
    const unsigned char *initial;   /* an output's contents before it; NULL: zeros */
    const uint64_t *sampled;        /* an output's sampled elements, a bit each; NULL for an input */
    const uint32_t *ranks;          /* the sampled elements before each word of sampled: a sampled element's slot */
    size_t count, sampled_count;
    int alive;                      /* 0 once the check is over: a proxy the reference kept reads nothing */
    const struct atomic_sums *sums; /* what float atomic adds summed, at buffer index `buffer` */
    int buffer;
};

static int sampled_at(const uint64_t *bits, size_t e)
{
    return bits && (bits[e >> 6] >> (e & 63) & 1);
}

/* Where the reference's value of sampled element e is kept: its rank among the sampled, from 1. */
static lua_Integer slot_of(const struct proxy *x, size_t e)
{
    uint64_t before = x->sampled[e >> 6] & ((1ull << (e & 63)) - 1);
    return (lua_Integer)x->ranks[e >> 6] + __builtin_popcountll(before) + 1;
}

/* The element a key names, or -1 when it names none. */
static long long proxy_element(lua_State *L, const struct proxy *x, int key)
{
    int is_integer = 0;
    lua_Integer e = lua_type(L, key) == LUA_TNUMBER ? lua_tointegerx(L, key, &is_integer) : -1;
    return x->alive && is_integer && e >= 0 && (lua_Unsigned)e < x->count ? (long long)e : -1;
}

/* An output's element as it starts: its initial fill, or zeros. */
static void push_initial_element(lua_State *L, const struct proxy *x, size_t e)
{
    static const unsigned char zero[16];
    push_element(L, x->b, x->initial ? x->initial : zero, x->initial ? e : 0);
}

/* proxy[key]; upvalues: the proxy, the table of the sampled elements' values. */
static int proxy_read(lua_State *L)
{
    const struct proxy *x = lua_touserdata(L, lua_upvalueindex(1));
    long long e = proxy_element(L, x, 2);
    if (e < 0)
        return 0;
    if (!sampled_at(x->sampled, (size_t)e)) {
        push_element(L, x->b, x->data, (size_t)e);
        return 1;
    }
    if (lua_rawgeti(L, lua_upvalueindex(2), slot_of(x, (size_t)e)) != LUA_TNIL)
        return 1;
    lua_pop(L, 1);
    push_initial_element(L, x, (size_t)e);
    lua_pushvalue(L, -1);   /* kept: a vector's table is the same at every read, so the reference may set its fields */
    lua_rawseti(L, lua_upvalueindex(2), slot_of(x, (size_t)e));
    return 1;
}

/* proxy[key] = value: kept at a sampled element; an input's, or a key that names no element, kept as a table keeps it. */
static int proxy_write(lua_State *L)
{
    const struct proxy *x = lua_touserdata(L, lua_upvalueindex(1));
    long long e = proxy_element(L, x, 2);
    lua_settop(L, 3);
    if (e >= 0 && sampled_at(x->sampled, (size_t)e))
        lua_rawseti(L, lua_upvalueindex(2), slot_of(x, (size_t)e));
    else if (e < 0 || !x->sampled)
        lua_rawset(L, 1);
    return 0;   /* an output's element outside the sample: neither compared nor kept */
}

/* #proxy: as # of a table from 0 to count - 1. */
static int proxy_length(lua_State *L)
{
    const struct proxy *x = lua_touserdata(L, lua_upvalueindex(1));
    lua_pushinteger(L, (lua_Integer)x->count - 1);
    return 1;
}

/* Pushes a proxy of x's buffer, its sampled values' table stored as
   values[slot]; returns the proxy's state, for the check to end it. */
static struct proxy *push_proxy(lua_State *L, const struct proxy *x, int values, int slot)
{
    static const struct { const char *event; lua_CFunction fn; } events[] = {
        { "__index", proxy_read }, { "__newindex", proxy_write }, { "__len", proxy_length },
    };
    lua_newtable(L);
    int proxy = lua_gettop(L);
    struct proxy *state = lua_newuserdatauv(L, sizeof *state, 0);
    *state = *x;
    lua_createtable(L, x->sampled_count < INT32_MAX ? (int)x->sampled_count : 0, 0);   /* each sampled element's slot, from 1 */
    lua_pushvalue(L, -1);
    lua_rawseti(L, values, slot);
    lua_createtable(L, 0, 3);
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
        lua_pushvalue(L, proxy + 1);
        lua_pushvalue(L, proxy + 2);
        lua_pushcclosure(L, events[i].fn, 2);
        lua_setfield(L, -2, events[i].event);
    }
    lua_setmetatable(L, proxy);
    lua_settop(L, proxy);
    return state;
}

static int sample_add(uint64_t *bits, size_t e)
{
    int added = !sampled_at(bits, e);
    bits[e >> 6] |= 1ull << (e & 63);
    return added;
}

/* Chooses at most budget of an output's count elements, a bit each in
   bits: the first and the last budget / 8; the first and last element of
   each block of block_elements (of as many blocks, evenly spread, as
   budget / 4 allows); random ones, from seed, for the rest. How many. */
static size_t choose_sample(uint64_t *bits, size_t count, size_t budget, size_t block_elements, uint64_t seed)
{
    size_t chosen = 0, edge = budget / 8, blocks = (count + block_elements - 1) / block_elements;
    size_t block_step = blocks * 2 > budget / 4 ? (blocks * 2 + budget / 4 - 1) / (budget / 4) : 1;
    uint64_t key = indirect_mix(seed);
    if (budget >= count) {
        for (size_t e = 0; e < count; e++)
            chosen += sample_add(bits, e);
        return chosen;
    }
    for (size_t e = 0; e < edge; e++)
        chosen += sample_add(bits, e) + sample_add(bits, count - 1 - e);
    for (size_t block = indirect_below(key, block_step); block < blocks; block += block_step) {
        size_t last = (block + 1) * block_elements - 1;
        chosen += sample_add(bits, block * block_elements) + sample_add(bits, last < count ? last : count - 1);
    }
    for (uint64_t j = 1; chosen < budget && j <= 4 * (uint64_t)budget; j++)
        chosen += sample_add(bits, (size_t)indirect_below(indirect_hash_keyed(key, j), count));
    return chosen;
}

/* What the sample draws from: the launch's params, its sizes and kernel included. */
static uint64_t launch_seed(const struct params *p)
{
    uint64_t seed = 0;
    for (int i = 0; i < MAX_PARAMS; i++)
        seed = indirect_mix(seed ^ (uint64_t)p->v[i]);
    return seed;
}

/* The sampled elements of output i, each as the reference left it, against the kernel's; values: the proxies' tables. */
static int sample_same(lua_State *L, const struct proxy *x, int values, int slot, char *mismatch, size_t mismatch_size)
{
    int same = 1;
    lua_Integer at = 0;   /* the slot of e: sampled elements in order */
    lua_rawgeti(L, values, slot);
    for (size_t word = 0; same && word < (x->count + 63) / 64; word++)
        for (uint64_t rest = x->sampled[word]; same && rest; rest &= rest - 1) {
            size_t e = word * 64 + (size_t)__builtin_ctzll(rest);
            if (lua_rawgeti(L, -1, ++at) == LUA_TNIL) {
                lua_pop(L, 1);
                push_initial_element(L, x, e);
            }
            struct written w = { x->b, x->data, x->sums, x->buffer };
            same = element_same(L, &w, e, mismatch, mismatch_size);
            lua_pop(L, 1);
        }
    lua_pop(L, 1);
    return same;
}

/* Parts of a sampled check that live in C, made and freed together. */
struct sample_parts {
    struct proxy *proxies[MAX_BUFFERS];
    uint64_t *bits[MAX_BUFFERS];
    uint32_t *ranks[MAX_BUFFERS];
    size_t sampled[MAX_BUFFERS];
    unsigned char *initial[MAX_BUFFERS];
};

static void free_sample_parts(struct sample_parts *parts, int count)
{
    for (int i = 0; i < count; i++) {
        if (parts->proxies[i])
            parts->proxies[i]->alive = 0;
        free(parts->bits[i]);
        free(parts->ranks[i]);
        free(parts->initial[i]);
    }
}

/* Output i's sample and its initial contents (when it starts filled); 0, or -1 when memory is short. */
static int prepare_output(const struct user_kernel *k, int i, size_t count, size_t budget, const struct params *p,
                          struct sample_parts *parts, struct output_check *check)
{
    const struct user_buffer *b = &k->buffer_info[i];
    size_t words = count / 64 + 1;
    parts->bits[i] = calloc(words, sizeof(uint64_t));
    parts->ranks[i] = malloc(words * sizeof(uint32_t));
    if (k->family.filled >> i & 1) {
        parts->initial[i] = malloc(count * (size_t)(b->scalar_bytes * b->width) + 1);
        if (parts->initial[i])
            user_buffer_fill(b, parts->initial[i], count, EMULATION_SEED + (uint64_t)i);
    }
    if (!parts->bits[i] || !parts->ranks[i] || ((k->family.filled >> i & 1) && !parts->initial[i]))
        return -1;
    parts->sampled[i] = choose_sample(parts->bits[i], count, budget, (size_t)user_kernel_dims(p, DERIVED_BLOCK), launch_seed(p) + (uint64_t)i);
    for (size_t word = 0, before = 0; word < words; before += (size_t)__builtin_popcountll(parts->bits[i][word++]))
        parts->ranks[i][word] = (uint32_t)before;
    check->checked += (long long)parts->sampled[i];
    return 0;
}

/* A sample of each output against the reference, which gets each buffer as
   a proxy (struct proxy): what it reads comes from the launch's memory, and
   what it writes is kept at the sampled elements alone. */
static int check_sample(lua_State *L, const struct user_kernel *k, const struct params *p, void **data, const size_t *elements,
                        const struct atomic_sums *sums, struct output_check *check)
{
    const struct family *f = &k->family;
    struct sample_parts parts;
    memset(&parts, 0, sizeof parts);
    int top = lua_gettop(L), values = top + 1, failed = 0, same = 1;
    lua_createtable(L, f->buffer_count, 0);
    lua_createtable(L, 0, f->buffer_count);
    for (int i = 0; i < f->buffer_count && !failed; i++) {
        int output = f->buffers[i].role == BUFFER_OUT;
        size_t share = output ? (size_t)((double)SAMPLE_ELEMENTS * (double)elements[i] / (double)check->elements) : 0;
        failed = output && prepare_output(k, i, elements[i], share > MIN_SAMPLE_ELEMENTS ? share : MIN_SAMPLE_ELEMENTS, p, &parts, check);
        struct proxy x = { &k->buffer_info[i], data[i], parts.initial[i], parts.bits[i], parts.ranks[i], elements[i], parts.sampled[i], 1,
                           sums, i };
        parts.proxies[i] = failed ? NULL : push_proxy(L, &x, values, i + 1);
        if (!failed)
            lua_setfield(L, values + 1, k->buffer_info[i].name);
    }
    if (failed)
        snprintf(check->unchecked, sizeof check->unchecked, "%s", SAY("out of memory", "内存不足"));
    else
        same = call_reference(L, k, p, check);
    for (int i = 0; i < f->buffer_count && !failed && same; i++)
        if (f->buffers[i].role == BUFFER_OUT)
            same = sample_same(L, parts.proxies[i], values, i + 1, check->mismatch, sizeof check->mismatch);
    free_sample_parts(&parts, f->buffer_count);
    lua_settop(L, top);
    return failed ? -1 : same;
}

static int user_check_outputs(void *lua_state, const struct family *f, const struct params *p, struct output_check *check)
{
    lua_State *L = lua_state;
    const struct user_kernel *k = (const struct user_kernel *)f;
    void *data[MAX_BUFFERS];
    size_t bytes[MAX_BUFFERS], elements[MAX_BUFFERS], total = 0;
    const struct atomic_sums *sums;
    if (k->reference == LUA_NOREF) {
        snprintf(check->unchecked, sizeof check->unchecked, "%s",
                 SAY("the kernel declares no reference to check it against", "这个核函数没有声明参考函数，无从检查"));
        return -1;
    }
    if (emulation_buffers(f, p, data, bytes, &sums) != f->buffer_count) {
        snprintf(check->unchecked, sizeof check->unchecked, "%s",
                 SAY("the emulator kept no outputs of this launch", "模拟器没有保留这次启动的输出"));
        return -1;
    }
    user_kernel_elements(p, elements);
    for (int i = 0; i < f->buffer_count; i++) {
        total += elements[i];
        check->elements += f->buffers[i].role == BUFFER_OUT ? (long long)elements[i] : 0;
        if (f->buffers[i].role == BUFFER_OUT)
            atomic_sums_summarize(sums, i, &check->summed);
    }
    sandbox_grant_begin((long long)total * REFERENCE_INSTRUCTIONS_PER_ELEMENT);
    int same = total > MAX_CHECKED_ELEMENTS ? check_sample(L, k, p, data, elements, sums, check)
                                            : check_whole(L, k, p, data, elements, sums, check);
    sandbox_grant_end();
    return same;
}

/* Links k's family, with derive and check_outputs made of its Lua functions. */
static void link_declared(struct user_kernel *k)
{
    user_kernel_link(k);
    k->family.derive = user_derive;
    k->family.check_outputs = user_check_outputs;
}

/* The launch's arguments must be the entry's: as many, none wider than 8
   bytes; and each constant buffer a __constant__ variable (its size kept). 0, or -1 with why. */
static int check_arguments(struct user_kernel *k, char *why, size_t why_size)
{
    struct ptx_module *m = ptx_parse(k->family.ptx, why, why_size);
    int count = m ? ptx_param_count(m, k->symbol) : -1, wide = -1, missing = -1;
    for (int i = 0; i < count && wide < 0; i++) {
        wide = ptx_param_size(m, k->symbol, i) > 8 ? i : -1;
        if (i < k->arg_count)
            k->args[i].bytes = ptx_param_size(m, k->symbol, i);
    }
    for (int i = 0; m && i < k->family.buffer_count && missing < 0; i++)
        if (k->buffer_info[i].constant_bytes && (k->buffer_info[i].constant_bytes = ptx_constant_size(m, k->buffer_info[i].name)) <= 0)
            missing = i;
    ptx_free(m);
    if (missing >= 0) {
        snprintf(why, why_size, SAY("kernel '%s': buffers.%s is constant, and the source has no __constant__ variable '%s'",
                                    "核函数 '%s'：buffers.%s 是常量缓冲区，但源代码中没有 __constant__ 变量 '%s'"),
                 k->name, k->buffer_info[missing].name, k->buffer_info[missing].name);
        return -1;
    }
    if (m && count != k->arg_count)
        snprintf(why, why_size, SAY("kernel '%s': its entry takes %d arguments, and args lists %d",
                                    "核函数 '%s'：它的入口函数有 %d 个参数，而 args 列出了 %d 个"), k->name, count, k->arg_count);
    else if (wide >= 0)
        snprintf(why, why_size, SAY("kernel '%s': argument %d is wider than 8 bytes (a struct passed by value), which args cannot give",
                                    "核函数 '%s'：第 %d 个参数宽于 8 字节（按值传递的结构体），args 无法给出"), k->name, wide + 1);
    return m && count == k->arg_count && wide < 0 ? 0 : -1;
}

/* Whether the PTX uses instructions that round differently on every GPU
   (.approx, div.full): the check then allows a relative 1e-5. */
static double tolerance_for(const char *ptx)
{
    return strstr(ptx, ".approx.") || strstr(ptx, "div.full.") ? 1e-5 : 0;
}

/* Gives back what a declaration that failed holds (it never joined the
   registry): its strings, its image, its Lua functions and itself. */
static void discard_kernel(lua_State *L, struct user_kernel *k)
{
    const char *texts[] = { k->family.summary, k->family.summary_zh, k->family.teaches, k->family.teaches_zh,
                            k->family.source, k->family.ptx, k->image, k->family.sass, k->family.sass_why };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        free((void *)texts[i]);
    for (int i = 0; i < k->family.param_count && i < MAX_PARAMS; i++) {
        free((void *)k->params[i].doc);
        free((void *)k->params[i].doc_zh);
    }
    for (int i = 0; i < k->family.buffer_count && i < MAX_BUFFERS; i++)
        luaL_unref(L, LUA_REGISTRYINDEX, k->buffer_info[i].function);
    luaL_unref(L, LUA_REGISTRYINDEX, k->derive);
    luaL_unref(L, LUA_REGISTRYINDEX, k->listing);
    luaL_unref(L, LUA_REGISTRYINDEX, k->reference);
    free(k);
}

/* core.declare_kernel(spec): registers a kernel checked and compiled by
   lua/kernel.lua: {name=, entry=, source=, ptx=, summary=, summary_zh=,
   teaches=, teaches_zh=, params = {{name=, default=, min=, max=, doc=,
   doc_zh=}...}, buffers = {{name=, bytes=, is_float=, output=, fill=, low=,
   high=}...}, args = {...}, sizes = function(p) -> {counts=, grid=, block=,
   shared=}, symbol = the entry's name in the PTX, image = what a GPU loads
   (or nil)}. true, or nil and why. */
static int core_declare_kernel(lua_State *L)
{
    char why[512];
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "sizes");
    luaL_argcheck(L, lua_isfunction(L, -1), 1, "sizes must be a function");
    luaL_argcheck(L, user_kernel_count() < MAX_USER_KERNELS, 1, SAY("too many kernels declared", "声明的核函数太多"));
    struct user_kernel *k = calloc(1, sizeof *k);   /* kept for the session: results point at their family */
    if (!k)
        return luaL_error(L, "%s", SAY("out of memory", "内存不足"));
    k->derive = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_getfield(L, 1, "reference");
    k->reference = lua_isfunction(L, -1) ? luaL_ref(L, LUA_REGISTRYINDEX) : (lua_pop(L, 1), LUA_NOREF);
    lua_getfield(L, 1, "listing");
    k->listing = lua_isfunction(L, -1) ? luaL_ref(L, LUA_REGISTRYINDEX) : (lua_pop(L, 1), LUA_NOREF);
    copy_field(L, 1, "name", k->name, sizeof k->name);
    copy_field(L, 1, "entry", k->entry, sizeof k->entry);
    copy_field(L, 1, "symbol", k->symbol, sizeof k->symbol);
    read_params(L, 1, k);
    read_buffers(L, 1, k);
    if (k->family.param_count + k->family.buffer_count + DERIVED_AFTER_COUNTS > KERNEL_SLOT) {   /* before anything walks the arrays by these counts */
        lua_pushnil(L);
        lua_pushfstring(L, SAY("kernel '%s': at most %d params and buffers together", "核函数 '%s'：参数和缓冲区合计至多 %d 个"),
                        k->name, KERNEL_SLOT - DERIVED_AFTER_COUNTS);
        discard_kernel(L, k);
        return 2;
    }
    read_args(L, 1, k);
    k->index = user_kernel_count();
    k->family.summary = kept_string(L, 1, "summary");
    k->family.summary_zh = kept_string(L, 1, "summary_zh");
    k->family.teaches = kept_string(L, 1, "teaches");
    k->family.teaches_zh = kept_string(L, 1, "teaches_zh");
    k->family.source = kept_string(L, 1, "source");
    k->family.ptx = kept_string(L, 1, "ptx");
    k->ptx_bytes = k->family.ptx ? strlen(k->family.ptx) : 0;
    lua_getfield(L, 1, "image");
    const char *image = lua_tolstring(L, -1, &k->image_bytes);
    k->image = image ? memcpy(malloc(k->image_bytes + 1), image, k->image_bytes + 1) : NULL;   /* with the NUL a PTX image needs */
    lua_pop(L, 1);
    link_declared(k);
    k->family.tolerance = k->family.ptx ? tolerance_for(k->family.ptx) : 0;
    if (!k->family.ptx || (image && !k->image) || check_arguments(k, why, sizeof why) || api_add_family(L, &k->family, why, sizeof why)) {
        lua_pushnil(L);
        lua_pushstring(L, k->family.ptx && (!image || k->image) ? why : SAY("out of memory", "内存不足"));
        discard_kernel(L, k);
        return 2;
    }
    user_kernel_keep(k);
    lua_pushboolean(L, 1);
    return 1;
}

const luaL_Reg declare_kernel_core[] = {
    { "declare_kernel", core_declare_kernel },
    { NULL, NULL },
};
