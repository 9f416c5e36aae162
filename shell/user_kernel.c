/*
** user_kernel.c — kernels declared while the shell runs (kernel{} in
** lua/kernel.lua): core.declare_kernel(spec) makes one a family like the
** built-ins, modelled by the emulator from its PTX. Its sizes (buffer
** element counts, grid, block, dynamic shared bytes) are a Lua function of
** its params, called on the shell's thread when a launch's params are
** checked (family.derive); the values are kept in the params' slots after
** the declared ones, where the family's callbacks, which run on other
** threads too, read them.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "api.h"
#include "emulate.h"
#include "host_parts.h"
#include "registry.h"
#include "session.h"

enum { MAX_USER_KERNELS = 256, NAME_BYTES = 48 };

/* Where a launch's params keep what derive computed: after the declared
   params, each buffer's element count, then grid x, y, z, block x, y, z and
   the dynamic shared bytes; the kernel's own index in the last slot. */
enum { DERIVED_GRID = 0, DERIVED_BLOCK = 3, DERIVED_SHARED = 6, DERIVED_AFTER_COUNTS = 7, KERNEL_SLOT = MAX_PARAMS - 1 };

enum fill_kind { FILL_RANDOM, FILL_ZERO, FILL_INTEGERS, FILL_INDEX };

static const char *const fill_names[] = { "random", "zero", "integers", "index", NULL };

struct user_buffer {
    char name[NAME_BYTES];
    int is_float, is_signed;
    int scalar_bytes, width;      /* an element: width scalars of scalar_bytes (float4: 4 of 4) */
    enum fill_kind fill;
    long long low, high;          /* FILL_INTEGERS: from low to high */
};

/* A kernel argument: a buffer's address, a param's value, or a constant. */
struct user_arg {
    int buffer, param;            /* -1 when not that */
    long long value;
};

struct user_kernel {
    struct family family;         /* first: the registry holds &family */
    struct param_decl params[MAX_PARAMS];
    struct buffer_decl buffers[MAX_BUFFERS];
    struct user_buffer buffer_info[MAX_BUFFERS];
    struct user_arg args[MAX_KERNEL_ARGS];
    int arg_count, index;
    int derive;                   /* the Lua function computing sizes, in the registry */
    int reference;                /* the Lua reference, in the registry, or LUA_NOREF */
    char name[NAME_BYTES], entry[NAME_BYTES];
    char param_names[MAX_PARAMS][NAME_BYTES];
};

static struct user_kernel *user_kernels[MAX_USER_KERNELS];
static int user_kernel_count;

static const struct user_kernel *kernel_of(const struct params *p)
{
    return user_kernels[p->v[KERNEL_SLOT]];
}

static long long derived(const struct params *p, int slot)
{
    const struct user_kernel *k = kernel_of(p);
    return p->v[k->family.param_count + k->family.buffer_count + slot];
}

static int user_element_bytes(const struct params *p)
{
    return kernel_of(p)->buffers[0].element_bytes;
}

static void user_buffer_elements(const struct params *p, size_t *elements)
{
    const struct user_kernel *k = kernel_of(p);
    for (int i = 0; i < k->family.buffer_count; i++)
        elements[i] = (size_t)p->v[k->family.param_count + i];
}

/* Each buffer once: what a launch must move at the least. */
static uint64_t user_useful_bytes(const struct params *p)
{
    const struct user_kernel *k = kernel_of(p);
    uint64_t bytes = 0;
    for (int i = 0; i < k->family.buffer_count; i++)
        bytes += (uint64_t)p->v[k->family.param_count + i] * (uint64_t)k->buffers[i].element_bytes;
    return bytes;
}

static long long dims_product(const struct params *p, int first)
{
    return derived(p, first) * derived(p, first + 1) * derived(p, first + 2);
}

static struct launch_shape user_shape(const struct params *p)
{
    long long block = dims_product(p, DERIVED_BLOCK);
    return (struct launch_shape){ dims_product(p, DERIVED_GRID) * block, (int)block };
}

static void user_emulated_call(const struct params *p, struct emulated_call *call)
{
    const struct user_kernel *k = kernel_of(p);
    memset(call, 0, sizeof *call);
    snprintf(call->kernel, sizeof call->kernel, "%s", k->entry);
    for (int d = 0; d < 3; d++) {
        call->grid[d] = (unsigned)derived(p, DERIVED_GRID + d);
        call->block[d] = (unsigned)derived(p, DERIVED_BLOCK + d);
    }
    call->shared_bytes = (unsigned)derived(p, DERIVED_SHARED);
    call->arg_count = k->arg_count;
    for (int i = 0; i < k->arg_count; i++) {
        call->args[i].buffer = k->args[i].buffer;
        call->args[i].value = k->args[i].param >= 0 ? p->v[k->args[i].param] : k->args[i].buffer >= 0 ? 0 : k->args[i].value;
    }
}

/* Random integers from low to high, elements of `bytes`, from seed. */
static void random_integers(unsigned char *data, size_t count, int bytes, long long low, long long high, uint64_t seed)
{
    uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull, span = (uint64_t)(high - low) + 1;
    for (size_t i = 0; i < count; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t value = (uint64_t)low + (span ? (state >> 11) % span : state >> 11);
        memcpy(data + i * (size_t)bytes, &value, (size_t)bytes);   /* little-endian: the low bytes */
    }
}

static void user_fill_inputs(const struct params *p, void *const *buffers, uint64_t seed)
{
    const struct user_kernel *k = kernel_of(p);
    size_t elements[MAX_BUFFERS];
    user_buffer_elements(p, elements);
    for (int i = 0; i < k->family.buffer_count; i++) {
        const struct user_buffer *b = &k->buffer_info[i];
        int bytes = k->buffers[i].element_bytes;
        unsigned char *data = buffers[i];
        if (k->buffers[i].role != BUFFER_IN)
            continue;
        if (b->fill == FILL_ZERO)
            fill_in_parts(data, 0, elements[i] * (size_t)bytes);
        else if (b->fill == FILL_RANDOM && b->is_float)
            random_floats_in_parts(data, elements[i] * (size_t)bytes, (uint32_t)(seed + (uint64_t)i));
        else if (b->fill == FILL_INDEX)
            for (size_t e = 0; e < elements[i]; e++)
                memcpy(data + e * (size_t)bytes, &(uint64_t){ e }, (size_t)(bytes < 8 ? bytes : 8));
        else   /* random integers: in the buffer's range, or 0 .. 255 when none was given */
            random_integers(data, elements[i], bytes < 8 ? bytes : 8, b->fill == FILL_INTEGERS ? b->low : 0,
                            b->fill == FILL_INTEGERS ? b->high : 255, seed + (uint64_t)i);
    }
}

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
                                    "内核 '%s'：%s[%d] 必须是 %lld 到 %lld 的整数"), kernel, what, position, low, high);
        *failed = 1;
    }
    return value;
}

/* Calls the kernel's Lua function of its params and keeps what it gives in p's slots. */
static int user_derive(void *lua_state, const struct family *f, struct params *p, char *why, size_t why_size)
{
    lua_State *L = lua_state;
    const struct user_kernel *k = (const struct user_kernel *)f;
    int top = lua_gettop(L), failed = 0;
    p->v[KERNEL_SLOT] = k->index;
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->derive);
    lua_createtable(L, 0, f->param_count);
    for (int i = 0; i < f->param_count; i++) {
        lua_pushinteger(L, (lua_Integer)p->v[i]);
        lua_setfield(L, -2, f->params[i].name);
    }
    if (lua_pcall(L, 1, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
        snprintf(why, why_size, SAY("kernel '%s': its sizes could not be worked out: %s", "内核 '%s'：无法算出它的尺寸：%s"),
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
    p->v[base + f->buffer_count + DERIVED_SHARED] = (long long)luaL_optinteger(L, -1, 0);
    lua_settop(L, top);
    if (!failed && dims_product(p, DERIVED_BLOCK) > 1024) {
        snprintf(why, why_size, SAY("kernel '%s': a block of %lld threads; at most 1024", "内核 '%s'：线程块有 %lld 个线程；至多 1024 个"),
                 f->name, dims_product(p, DERIVED_BLOCK));
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
        for (int f = 0; fill_names[f]; f++)
            if (strcmp(fill, fill_names[f]) == 0)
                b->fill = (enum fill_kind)f;
        b->low = integer_field(L, item, "low", 0);
        b->high = integer_field(L, item, "high", 255);
        lua_getfield(L, item, "output");
        k->buffers[i] = (struct buffer_decl){ .name = b->name, .role = lua_toboolean(L, -1) ? BUFFER_OUT : BUFFER_IN,
                                              .element_bytes = (int)integer_field(L, item, "bytes", 4) };
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
        k->args[i] = (struct user_arg){ (int)integer_field(L, -1, "buffer", 0) - 1, (int)integer_field(L, -1, "param", 0) - 1,
                                        integer_field(L, -1, "value", 0) };
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

enum { MAX_CHECKED_ELEMENTS = 1 << 22 };   /* larger launches are not checked: Lua tables of them take seconds */

static const char *const FIELD_NAMES[] = { "x", "y", "z", "w" };

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

/* Whether the reference's value (on the stack) is the emulator's: floats within a relative 1e-5. */
static int same_value(lua_State *L, const struct user_buffer *b, const unsigned char *data, size_t e, int c)
{
    push_scalar(L, b, data, e, c);
    int same;
    if (b->is_float) {
        double want = lua_tonumber(L, -2), got = lua_tonumber(L, -1), scale = fabs(want) > 1 ? fabs(want) : 1;
        same = lua_isnumber(L, -2) && (fabs(want - got) <= 1e-5 * scale || (want != want && got != got));
    } else {
        same = lua_isnumber(L, -2) && lua_compare(L, -2, -1, LUA_OPEQ);
    }
    lua_pop(L, 1);
    return same;
}

/* Compares output buffer b (the reference's table on the stack) with what the kernel wrote; 0 and mismatch at the first difference. */
static int output_same(lua_State *L, const struct user_buffer *b, const unsigned char *data, size_t count, char *mismatch,
                       size_t mismatch_size)
{
    for (size_t e = 0; e < count; e++) {
        lua_rawgeti(L, -1, (lua_Integer)e);
        for (int c = 0; c < b->width; c++) {
            if (b->width > 1)
                lua_getfield(L, -1, FIELD_NAMES[c]);
            else
                lua_pushvalue(L, -1);
            int same = same_value(L, b, data, e, c);
            if (!same) {
                push_scalar(L, b, data, e, c);
                const char *got = lua_tostring(L, -1), *want = luaL_tolstring(L, -2, NULL);
                snprintf(mismatch, mismatch_size, SAY("%s[%zu]%s%s: the reference says %s, the kernel wrote %s",
                                                      "%s[%zu]%s%s：参考结果是 %s，内核写的是 %s"),
                         b->name, e, b->width > 1 ? "." : "", b->width > 1 ? FIELD_NAMES[c] : "", want, got);
                lua_pop(L, 4);   /* the element, the reference's value, the kernel's, the text */
                return 0;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return 1;
}

static int user_check_outputs(void *lua_state, const struct family *f, const struct params *p, char *mismatch,
                              size_t mismatch_size)
{
    lua_State *L = lua_state;
    const struct user_kernel *k = (const struct user_kernel *)f;
    void *data[MAX_BUFFERS];
    size_t bytes[MAX_BUFFERS], elements[MAX_BUFFERS], total = 0;
    if (k->reference == LUA_NOREF || emulation_buffers(f, p, data, bytes) != f->buffer_count)
        return -1;
    user_buffer_elements(p, elements);
    for (int i = 0; i < f->buffer_count; i++)
        total += elements[i];
    if (total > MAX_CHECKED_ELEMENTS)
        return -1;
    int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, k->reference);
    lua_createtable(L, 0, f->param_count);
    for (int i = 0; i < f->param_count; i++) {
        lua_pushinteger(L, (lua_Integer)p->v[i]);
        lua_setfield(L, -2, f->params[i].name);
    }
    lua_createtable(L, 0, f->buffer_count);
    for (int i = 0; i < f->buffer_count; i++) {
        push_buffer(L, &k->buffer_info[i], data[i], elements[i], f->buffers[i].role == BUFFER_OUT);
        lua_setfield(L, -2, k->buffer_info[i].name);
    }
    lua_pushvalue(L, -1);
    lua_insert(L, top + 1);   /* the buffers stay below the call, for the comparison */
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
        snprintf(mismatch, mismatch_size, SAY("the reference failed: %s", "参考函数出错：%s"),
                 lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
        lua_settop(L, top);
        return 0;
    }
    int same = 1;
    for (int i = 0; i < f->buffer_count && same; i++) {
        if (f->buffers[i].role != BUFFER_OUT)
            continue;
        lua_getfield(L, top + 1, k->buffer_info[i].name);
        same = lua_istable(L, -1) && output_same(L, &k->buffer_info[i], data[i], elements[i], mismatch, mismatch_size);
        lua_settop(L, top + 1);
    }
    lua_settop(L, top);
    return same;
}

/* core.declare_kernel(spec): registers a kernel checked and compiled by
   lua/kernel.lua: {name=, entry=, source=, ptx=, summary=, summary_zh=,
   teaches=, teaches_zh=, params = {{name=, default=, min=, max=, doc=,
   doc_zh=}...}, buffers = {{name=, bytes=, is_float=, output=, fill=, low=,
   high=}...}, args = {...}, sizes = function(p) -> {counts=, grid=, block=,
   shared=}}. true, or nil and why. */
static int core_declare_kernel(lua_State *L)
{
    char why[512];
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "sizes");
    luaL_argcheck(L, lua_isfunction(L, -1), 1, "sizes must be a function");
    luaL_argcheck(L, user_kernel_count < MAX_USER_KERNELS, 1, SAY("too many kernels declared", "声明的内核太多"));
    struct user_kernel *k = calloc(1, sizeof *k);   /* kept for the session: results point at their family */
    if (!k)
        return luaL_error(L, "%s", SAY("out of memory", "内存不足"));
    k->derive = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_getfield(L, 1, "reference");
    k->reference = lua_isfunction(L, -1) ? luaL_ref(L, LUA_REGISTRYINDEX) : (lua_pop(L, 1), LUA_NOREF);
    copy_field(L, 1, "name", k->name, sizeof k->name);
    copy_field(L, 1, "entry", k->entry, sizeof k->entry);
    read_params(L, 1, k);
    read_buffers(L, 1, k);
    read_args(L, 1, k);
    k->index = user_kernel_count;
    k->family = (struct family){
        .name = k->name, .summary = kept_string(L, 1, "summary"), .summary_zh = kept_string(L, 1, "summary_zh"),
        .teaches = kept_string(L, 1, "teaches"), .teaches_zh = kept_string(L, 1, "teaches_zh"),
        .params = k->params, .param_count = k->family.param_count, .buffers = k->buffers,
        .buffer_count = k->family.buffer_count, .element_bytes = user_element_bytes,
        .buffer_elements = user_buffer_elements, .useful_bytes = user_useful_bytes, .shape = user_shape,
        .source = kept_string(L, 1, "source"), .fill_inputs = user_fill_inputs, .emulated_call = user_emulated_call,
        .ptx = kept_string(L, 1, "ptx"), .derive = user_derive, .check_outputs = user_check_outputs,
    };
    if (k->family.param_count + k->family.buffer_count + DERIVED_AFTER_COUNTS > KERNEL_SLOT) {
        lua_pushnil(L);
        lua_pushfstring(L, SAY("kernel '%s': at most %d params and buffers together", "内核 '%s'：参数和缓冲区合计至多 %d 个"),
                        k->name, KERNEL_SLOT - DERIVED_AFTER_COUNTS);
        return 2;
    }
    if (api_add_family(L, &k->family, why, sizeof why)) {
        lua_pushnil(L);
        lua_pushstring(L, why);
        return 2;
    }
    user_kernels[user_kernel_count++] = k;
    lua_pushboolean(L, 1);
    return 1;
}

const luaL_Reg user_kernel_core[] = {
    { "declare_kernel", core_declare_kernel },
    { NULL, NULL },
};
