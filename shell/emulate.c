/*
** emulate.c — core.emulate(ptx, kernel, launch): a kernel's PTX run on the
** emulator (kernels/emulator/ptx.c) over buffers of its own, counted by the model's
** one accounting. For the tests and, next, for kernels students write.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "arguments.h"
#include "model/common.h"
#include "compile/device_compile.h"
#include "emulate.h"
#include "host_parts.h"
#include "interrupt.h"
#include "model/model.h"
#include "emulator/ptx.h"
#include "model/registry.h"
#include "sandbox.h"
#include "support/memory.h"
#include "session.h"

/* The headers the kernels' device code includes, as text (kernels/families/device_headers.c). */
extern const struct {
    const char *name;
    const char *text;
} device_headers[];
extern const int device_headers_count;

/* The warp-instructions a launch may run on the emulator, however many of a
   warp's lanes run each: a few seconds of one core's work (about 10 million
   a second where a single lane spins), and more for each warp of the grid,
   so that an infinite loop in a small grid stops in seconds and a large grid
   has room for a long loop in each warp. */
static const uint64_t INSTRUCTIONS_A_LAUNCH = 1ull << 25, INSTRUCTIONS_A_WARP = 1ull << 14;

static uint64_t instruction_budget(const unsigned *grid, const unsigned *block)
{
    uint64_t warps_a_block = ((uint64_t)block[0] * block[1] * block[2] + 31) / 32;
    return INSTRUCTIONS_A_LAUNCH + INSTRUCTIONS_A_WARP * warps_a_block * grid[0] * grid[1] * grid[2];
}

enum { MAX_EMULATED_BUFFERS = 8, MAX_ARGS = 32 };

struct counting {
    struct model_counts counts;
    struct dram_tracker *dram;   /* the DRAM estimate's, or NULL */
};

static void count(void *user, const struct warp_access *a)
{
    struct counting *c = user;
    model_count_access(&c->counts, c->dram, a);
}

/* A dimension list {x [, y [, z]]} at field name of the table at idx. */
static void read_dims(lua_State *L, int idx, const char *name, unsigned *dims)
{
    dims[0] = dims[1] = dims[2] = 1;
    lua_getfield(L, idx, name);
    luaL_argcheck(L, lua_istable(L, -1), 3, lua_pushfstring(L, "%s = {x [, y [, z]]} expected", name));
    for (int i = 0; i < 3; i++) {
        if (lua_rawgeti(L, -1, i + 1) != LUA_TNIL) {
            lua_Integer v = luaL_checkinteger(L, -1);
            luaL_argcheck(L, v >= 1 && v <= (1 << 30), 3, lua_pushfstring(L, "%s[%d] must be from 1 to 2^30", name, i + 1));
            dims[i] = (unsigned)v;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

enum { MAX_EMULATOR_THREADS = 16 };   /* model_threads_wanted's most */

/* buffers = {{bytes = N [, fill = "zero" | "random" | STRING]}, ...}, at the
   model's addresses; their memory is userdata kept in the table at anchor. */
static int read_buffers(lua_State *L, int options, int anchor, struct ptx_buffer *buffers)
{
    uint64_t base[MAX_EMULATED_BUFFERS];
    lua_getfield(L, options, "buffers");
    int list = lua_gettop(L), count = lua_istable(L, list) ? (int)lua_rawlen(L, list) : 0;
    luaL_argcheck(L, count <= MAX_EMULATED_BUFFERS, 3, "at most 8 buffers");
    model_buffer_bases(count, base);
    for (int i = 0; i < count; i++) {
        lua_rawgeti(L, list, i + 1);
        int item = lua_gettop(L);
        luaL_argcheck(L, lua_istable(L, item), 3, "each buffer is {bytes = N [, fill = ...]}");
        lua_getfield(L, item, "bytes");
        lua_Integer bytes = luaL_checkinteger(L, -1);
        luaL_argcheck(L, bytes >= 1 && bytes <= (1ll << 32), 3, "a buffer's bytes must be from 1 to 2^32");
        lua_pop(L, 1);
        unsigned char *data = lua_newuserdatauv(L, (size_t)bytes, 0);
        lua_rawseti(L, anchor, i + 1);
        buffers[i] = (struct ptx_buffer){ base[i], data, (size_t)bytes, NULL };
        lua_getfield(L, item, "fill");
        size_t length = 0;
        const char *fill = lua_tolstring(L, -1, &length);
        memset(data, 0, (size_t)bytes);
        if (fill && strcmp(fill, "random") == 0) {
            random_floats_in_parts(data, (size_t)bytes, 0x12345678u + (uint32_t)i);
        } else if (fill && strcmp(fill, "zero") != 0) {
            memcpy(data, fill, length < (size_t)bytes ? length : (size_t)bytes);
        }
        lua_pop(L, 2);   /* fill, item */
    }
    lua_pop(L, 1);
    return count;
}

static void push_counts(lua_State *L, const struct model_counts *c)
{
    const struct { const char *name; const struct traffic *t; } traffic[] = { { "load", &c->load }, { "store", &c->store } };
    const struct { const char *name; const struct shared_traffic *t; } shared[] = { { "shared_load", &c->shared_load },
                                                                                   { "shared_store", &c->shared_store } };
    for (int i = 0; i < 2; i++) {
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, (lua_Integer)traffic[i].t->requests), lua_setfield(L, -2, "requests");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->sectors), lua_setfield(L, -2, "sectors");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->lines), lua_setfield(L, -2, "lines");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->bytes), lua_setfield(L, -2, "bytes");
        lua_pushinteger(L, (lua_Integer)traffic[i].t->l2_sectors), lua_setfield(L, -2, "l2_sectors");
        lua_setfield(L, -2, traffic[i].name);
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, (lua_Integer)shared[i].t->requests), lua_setfield(L, -2, "requests");
        lua_pushinteger(L, (lua_Integer)shared[i].t->wavefronts), lua_setfield(L, -2, "wavefronts");
        lua_setfield(L, -2, shared[i].name);
    }
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)c->constant.requests), lua_setfield(L, -2, "requests");
    lua_pushinteger(L, (lua_Integer)c->constant.passes), lua_setfield(L, -2, "passes");
    lua_setfield(L, -2, "constant");
    const struct { const char *name; const struct atomic_traffic *t; } atomics[] = {
        { "atomic", &c->atomic }, { "reduction", &c->reduction }, { "shared_atomic", &c->shared_atomic } };
    for (int i = 0; i < COUNT_OF(atomics); i++) {
        lua_createtable(L, 0, 6);
        lua_pushinteger(L, (lua_Integer)atomics[i].t->requests), lua_setfield(L, -2, "requests");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->sectors), lua_setfield(L, -2, "sectors");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->operations), lua_setfield(L, -2, "operations");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->same_address_lanes), lua_setfield(L, -2, "same_address_lanes");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->hottest_operations), lua_setfield(L, -2, "hottest_operations");
        lua_pushinteger(L, (lua_Integer)atomics[i].t->addresses), lua_setfield(L, -2, "addresses");
        lua_setfield(L, -2, atomics[i].name);
    }
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, (lua_Integer)c->ldgsts.requests), lua_setfield(L, -2, "requests");
    lua_pushinteger(L, (lua_Integer)c->ldgsts.sectors), lua_setfield(L, -2, "sectors");
    lua_setfield(L, -2, "ldgsts");
    lua_pushinteger(L, (lua_Integer)c->instructions), lua_setfield(L, -2, "instructions");
}

/* printf's output into the table on top: printf (the text, when there is
   any) and printf_not_shown (the lines left out); the text is freed. */
static void push_printed(lua_State *L, struct ptx_printed *printed)
{
    if (printed->text && printed->text[0]) {
        lua_pushstring(L, printed->text);
        lua_setfield(L, -2, "printf");
    }
    lua_pushinteger(L, (lua_Integer)printed->lines_not_shown);
    lua_setfield(L, -2, "printf_not_shown");
    free(printed->text);
    printed->text = NULL;
}

/* core.emulate(ptx, kernel, {grid=, block=, buffers=, args= [, shared=, printf_lines=]}): the kernel run
   on the emulator: {load=, store=, shared_load=, shared_store=, instructions= (warp-instructions), lane_instructions=,
   buffers = {contents...}, printf = what its printf printed (the first printf_lines lines, 64 unless told), printf_not_shown}. args: integers, floats, or {buffer = i} for buffer i's address. */
static int core_emulate(lua_State *L)
{
    char why[512];
    const char *text = luaL_checkstring(L, 1), *kernel = luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    struct ptx_buffer buffers[MAX_EMULATED_BUFFERS];
    uint64_t args[MAX_ARGS];
    struct counting counting = { 0 };
    struct ptx_launch launch = { .kernel = kernel, .args = args, .buffers = buffers, .on_access = count, .user = &counting,
                                 .interrupted = &interrupt_requested };
    read_dims(L, 3, "grid", launch.grid);
    read_dims(L, 3, "block", launch.block);
    launch.instruction_budget = instruction_budget(launch.grid, launch.block);
    lua_getfield(L, 3, "shared");   /* extern __shared__ bytes, as <<<grid, block, shared>>> */
    lua_Integer shared = luaL_optinteger(L, -1, 0);
    luaL_argcheck(L, shared >= 0 && shared <= (1 << 20), 3, "shared must be from 0 to 2^20 bytes");
    launch.dynamic_shared_bytes = (unsigned)shared;
    lua_pop(L, 1);
    struct ptx_printed printed;
    lua_getfield(L, 3, "printf_lines");
    launch.printed_lines = (int)luaL_optinteger(L, -1, PRINTF_LINES_SHOWN);
    launch.printed = &printed;
    lua_pop(L, 1);
    lua_newtable(L);   /* the buffers' memory, kept alive until the results are pushed */
    launch.buffer_count = read_buffers(L, 3, lua_gettop(L), buffers);
    struct ptx_module *m = ptx_parse(text, why, sizeof why);
    if (!m)
        return luaL_error(L, "%s", why);
    lua_getfield(L, 3, "args");
    launch.arg_count = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
    for (int i = 0; i < launch.arg_count && i < MAX_ARGS; i++) {
        int size = ptx_param_size(m, kernel, i);
        lua_rawgeti(L, -1, i + 1);
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "buffer");
            lua_Integer k = lua_tointeger(L, -1);
            args[i] = k >= 1 && k <= launch.buffer_count ? buffers[k - 1].address : 0;
            lua_pop(L, 1);
        } else if (lua_isinteger(L, -1)) {
            args[i] = (uint64_t)lua_tointeger(L, -1);
        } else {
            double d = lua_tonumber(L, -1);
            float f = (float)d;
            args[i] = 0;
            if (size == 4)
                memcpy(&args[i], &f, 4);
            else
                memcpy(&args[i], &d, 8);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    struct ptx_ran ran;
    counting.counts.l1 = l1_cache_new();
    int failed = ptx_run(m, &launch, &ran, why, sizeof why);
    l1_cache_free(counting.counts.l1);
    counting.counts.l1 = NULL;
    ptx_free(m);
    model_counts_finish(&counting.counts);   /* frees the atomics' address map, before an error can skip it */
    if (failed)
        return luaL_error(L, "%s", why);
    counting.counts.instructions = ran.issued;
    lua_createtable(L, 0, 8);
    push_printed(L, &printed);
    push_counts(L, &counting.counts);
    lua_pushinteger(L, (lua_Integer)ran.lane_instructions);
    lua_setfield(L, -2, "lane_instructions");
    lua_createtable(L, launch.buffer_count, 0);
    for (int i = 0; i < launch.buffer_count; i++) {
        lua_pushlstring(L, buffers[i].data, buffers[i].bytes);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "buffers");
    return 1;
}


/* The family's own kernel to PTX, device code only, as its launcher would run it. */
static char *compile_family(const struct family *f, int compute_capability, const struct emulated_call *call, char *lowered,
                            size_t lowered_size, char *why, size_t why_size)
{
    /* -default-device: helpers without a qualifier (the constexpr builders of
       broadcast's and conv2d's constant tables) are the device's */
    char arch[48];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d", compute_capability);
    const char *names[16], *texts[16], *options[] = { arch, "-DWARPLAB_DEVICE_ONLY", "--std=c++17", "-default-device",
#ifdef CUDA_DIR
                                                      "-I" CUDA_DIR "/include",   /* cuda_pipeline.h, for prefetch's cp.async */
#endif
                                                    };
    char file[64], *ptx, *log;
    for (int i = 0; i < device_headers_count && i < 16; i++)
        names[i] = device_headers[i].name, texts[i] = device_headers[i].text;
    snprintf(file, sizeof file, "%s_kernel.cu", f->name);
    struct compile_job job = { .source = f->source, .name = file, .options = options, .trusted = 1,
                             .option_count = (int)(sizeof options / sizeof options[0]),
                             .header_texts = texts, .header_names = names, .header_count = device_headers_count,
                             .expression = call->kernel };
    if (nvrtc_compile(&job, &ptx, lowered, lowered_size, &log) != 0) {
        snprintf(why, why_size, "%s", log);
        free(log);
        return NULL;
    }
    return ptx;
}

/* Family kernels compiled in this process, by family, kernel and
   architecture: a sweep or a repeated launch compiles each one once. */
enum { COMPILED_KERNELS = 64 };
static struct compiled_kernel {
    const struct family *f;
    char call[sizeof ((struct emulated_call *)0)->kernel];
    int compute_capability;
    char lowered[256];
    char *ptx;
} compiled[COMPILED_KERNELS];
static int compiled_next;

/* The family's kernel as PTX (the caller's to free) and its lowered name, compiled or remembered. */
/* The architecture f's kernel is compiled for: sm_75, warplab's oldest, or what p's feature needs (cp.async: 80). */
static int family_compute_capability(const struct family *f, const struct params *p)
{
    const struct gpu_need *need = f->needs ? f->needs(p) : NULL;
    return need && need->compute_capability > 75 ? need->compute_capability : 75;
}

static char *family_ptx(const struct family *f, const struct params *p, const struct emulated_call *call, char *lowered,
                        size_t lowered_size, char *why, size_t why_size)
{
    int compute_capability = family_compute_capability(f, p);
    for (int i = 0; i < COMPILED_KERNELS; i++) {
        struct compiled_kernel *c = &compiled[i];
        if (c->ptx && c->f == f && strcmp(c->call, call->kernel) == 0 && c->compute_capability == compute_capability) {
            snprintf(lowered, lowered_size, "%s", c->lowered);
            return strdup(c->ptx);
        }
    }
    char *ptx = compile_family(f, compute_capability, call, lowered, lowered_size, why, why_size);
    struct compiled_kernel *c = &compiled[compiled_next];
    char *kept = ptx ? strdup(ptx) : NULL;
    if (kept) {
        free(c->ptx);
        *c = (struct compiled_kernel){ .f = f, .compute_capability = compute_capability, .ptx = kept };
        snprintf(c->call, sizeof c->call, "%s", call->kernel);
        snprintf(c->lowered, sizeof c->lowered, "%s", lowered);
        compiled_next = (compiled_next + 1) % COMPILED_KERNELS;
    }
    return ptx;
}

/* The emulator's buffers, kept from launch to launch, so that a sweep's or
   a repeated launch's memory is faulted in once: its own contents, slot by
   slot, then the reference's. A launch that needs far less gives them back. */
static struct kept_buffer {
    void *data;
    size_t bytes;
} kept[2 * MAX_BUFFERS];
static pthread_mutex_t keeping = PTHREAD_MUTEX_INITIALIZER;
static struct {   /* the launch whose contents the kept buffers hold, if any */
    const struct family *f;
    struct params p;
    size_t bytes[MAX_BUFFERS];
    struct atomic_sums sums;   /* what its float atomic adds summed */
} kept_launch;

/* Gives slot's memory back (it counts against the session's memory cap while kept). */
static void free_kept(struct kept_buffer *k)
{
    if (!k->data)
        return;
    zeroed_free(k->data, k->bytes);
    sandbox_hold_c_bytes(-(long long)k->bytes);
    k->data = NULL;
    k->bytes = 0;
}

/* Slot's memory of at least bytes, zeroed unless the caller writes it all. */
static void *kept_buffer(int slot, size_t bytes, int zero)
{
    struct kept_buffer *k = &kept[slot];
    if (k->data && (k->bytes < bytes || k->bytes / 4 > bytes))
        free_kept(k);
    if (!k->data) {   /* new memory comes zeroed */
        k->data = zeroed_new(bytes);
        k->bytes = k->data ? bytes : 0;
        sandbox_hold_c_bytes((long long)k->bytes);
    } else if (zero) {
        fill_in_parts(k->data, 0, bytes);
    }
    return k->data;
}

/* The launch's buffers: inputs filled as its GPU runs fill them (random
   floats, or the family's own), outputs and the reference's zeroed; 0, or -1
   when memory is short. Called with keeping held. */
static int prepare_buffers(const struct family *f, const struct params *p, const size_t *bytes, void **data, void **expected)
{
    for (int i = 0; i < 2 * MAX_BUFFERS; i++)   /* what this launch does not use goes back */
        if (i % MAX_BUFFERS >= f->buffer_count || (i >= MAX_BUFFERS && f->buffers[i - MAX_BUFFERS].role != BUFFER_OUT))
            free_kept(&kept[i]);
    for (int i = 0; i < f->buffer_count; i++) {
        int random = f->buffers[i].role == BUFFER_IN && !f->fill_inputs;
        data[i] = kept_buffer(i, bytes[i] + 1, !random);
        expected[i] = f->buffers[i].role == BUFFER_OUT ? kept_buffer(MAX_BUFFERS + i, bytes[i] + 1, 1) : NULL;
        if (!data[i] || (f->buffers[i].role == BUFFER_OUT && !expected[i]))
            return -1;
        if (random) {
            random_floats_in_parts(data[i], bytes[i], 0x9e3779b9u + (uint32_t)i);
            memset((char *)data[i] + bytes[i] / 4 * 4, 0, bytes[i] % 4 + 1);   /* the bytes past the last float */
        }
    }
    if (f->fill_inputs)
        f->fill_inputs(p, data, EMULATION_SEED);
    return 0;
}

/* The entry of m for a kernel expression ("copy<float4>"): the one named
   as the expression (extern "C") or whose mangled name starts with it
   (_Z4copy...), put in name; -1 with why unless there is exactly one. */
static int find_entry(const struct ptx_module *m, const char *expression, char *name, size_t name_size, char *why,
                      size_t why_size)
{
    int length = (int)strcspn(expression, "<"), found = 0;
    char mangled[96];
    snprintf(mangled, sizeof mangled, "_Z%d%.*s", length, length, expression);
    for (int i = 0; i < ptx_kernel_count(m); i++) {
        const char *entry = ptx_kernel_name(m, i);
        int same = ((int)strlen(entry) == length && strncmp(entry, expression, (size_t)length) == 0) ||
                   strncmp(entry, mangled, strlen(mangled)) == 0;
        if (same && found++ == 0)
            snprintf(name, name_size, "%s", entry);
    }
    if (found == 1)
        return 0;
    snprintf(why, why_size, SAY("the PTX holds %d kernels for '%s', not one", "PTX 中 '%2$s' 的内核有 %1$d 个，而不是一个"), found,
             expression);
    return -1;
}

/* The family's kernel parsed, and its name in the PTX: the PTX given (clang's, say), or f's own compiled by NVRTC. */
static struct ptx_module *family_module(const struct family *f, const struct params *p, const struct emulated_call *call,
                                        const char *given, char *kernel, size_t kernel_size, char *why, size_t why_size)
{
    given = given ? given : f->ptx;   /* a kernel declared in Lua comes compiled */
    char *compiled = given ? NULL : family_ptx(f, p, call, kernel, kernel_size, why, why_size);
    struct ptx_module *m = given || compiled ? ptx_parse(given ? given : compiled, why, why_size) : NULL;
    free(compiled);
    if (m && given && find_entry(m, call->kernel, kernel, kernel_size, why, why_size)) {
        ptx_free(m);
        return NULL;
    }
    return m;
}

/* The buffers that are __constant__ variables, written into the module's
   bank as cudaMemcpyToSymbol would before the launch. 0, or -1 with why. */
static int write_constants(const struct family *f, struct ptx_module *m, void *const *data, const size_t *bytes, char *why,
                           size_t why_size)
{
    for (int i = 0; f->constants && i < f->buffer_count; i++)
        if (f->constants[i] && ptx_write_constant(m, f->constants[i], data[i], bytes[i])) {
            snprintf(why, why_size, SAY("'%s' has no __constant__ variable '%s' of %zu bytes or more",
                                        "'%1$s' 没有至少 %3$zu 字节的 __constant__ 变量 '%2$s'"), f->name, f->constants[i], bytes[i]);
            return -1;
        }
    return 0;
}

/* The emulator's launch of call over the buffers at base (args: room for
   the call's arguments, which it fills); the caller sets how accesses are counted. */
static struct ptx_launch launch_of(const struct emulated_call *call, const char *kernel, const uint64_t *base, uint64_t *args,
                                   struct ptx_buffer *buffers, int buffer_count, volatile sig_atomic_t *interrupted)
{
    for (int i = 0; i < call->arg_count; i++)
        args[i] = (call->args[i].buffer >= 0 ? base[call->args[i].buffer] : 0) + (uint64_t)call->args[i].value;
    struct ptx_launch launch = { .kernel = kernel, .args = args, .arg_count = call->arg_count, .buffers = buffers,
                                 .buffer_count = buffer_count, .instruction_budget = instruction_budget(call->grid, call->block),
                                 .shared_bytes_most = session.device.shared_bytes_per_block,
                                 .interrupted = interrupted, .dynamic_shared_bytes = call->shared_bytes };
    memcpy(launch.grid, call->grid, sizeof launch.grid);
    memcpy(launch.block, call->block, sizeof launch.block);
    return launch;
}

int emulate_family(const struct family *f, const struct params *p, const char *ptx, volatile sig_atomic_t *interrupted,
                   struct emulation *out, char *why, size_t why_size)
{
    struct emulated_call call;
    memset(out, 0, sizeof *out);
    out->correct = 1;
    if (!f->emulated_call) {
        snprintf(why, why_size, SAY("'%s' does not tell the emulator its kernel yet", "'%s' 还没有告诉模拟器它的内核"), f->name);
        return -1;
    }
    f->emulated_call(p, &call);
    struct ptx_module *m = family_module(f, p, &call, ptx, out->kernel, sizeof out->kernel, why, why_size);
    if (!m)
        return -1;
    size_t bytes[MAX_BUFFERS];
    uint64_t base[MAX_BUFFERS], args[MAX_KERNEL_ARGS];
    void *data[MAX_BUFFERS] = { 0 }, *expected[MAX_BUFFERS] = { 0 };
    struct ptx_buffer buffers[MAX_BUFFERS];
    family_buffer_bytes(f, p, bytes);
    model_buffer_bases(f->buffer_count, base);
    pthread_mutex_lock(&keeping);
    kept_launch.f = NULL;
    atomic_sums_free(&kept_launch.sums);
    int failed = prepare_buffers(f, p, bytes, data, expected);
    for (int i = 0; i < f->buffer_count; i++)
        buffers[i] = (struct ptx_buffer){ base[i], data[i], bytes[i], f->buffers[i].name };
    /* a count per thread, added up after: the threads share only the DRAM tracker, which takes that */
    struct counting counting[MAX_EMULATOR_THREADS] = { { .dram = NULL } };
    void *users[MAX_EMULATOR_THREADS];
    struct dram_tracker *dram = dram_tracker_new(f->buffer_count, bytes, 0);   /* threads run blocks out of warp order: once each */
    int threads = model_threads_wanted();
    for (int i = 0; i < threads; i++)
        counting[i].dram = dram, counting[i].counts.l1 = l1_cache_new(), users[i] = &counting[i];
    struct ptx_launch launch = launch_of(&call, out->kernel, base, args, buffers, f->buffer_count, interrupted);
    launch.on_access = count;
    launch.user = &counting[0];
    launch.threads = threads;
    launch.users = users;
    launch.printed = &out->printed;
    launch.printed_lines = PRINTF_LINES_SHOWN;
    launch.sums = &kept_launch.sums;
    if (failed)
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
    failed = failed || write_constants(f, m, data, bytes, why, why_size) ||
             ptx_run(m, &launch, &out->ran, why, why_size);
    ptx_free(m);
    for (int i = 0; i < threads; i++) {   /* failed too: the threads' address maps and L1s are freed here */
        l1_cache_free(counting[i].counts.l1);
        counting[i].counts.l1 = NULL;
        model_counts_add(&out->counts, &counting[i].counts);
    }
    model_counts_finish(&out->counts);
    out->counts.instructions = out->ran.issued;
    if (!failed) {
        out->counts.dram.estimated = dram != NULL;
        if (dram)
            dram_tracker_finish(dram, &out->counts.dram);
        void *reference[MAX_BUFFERS];   /* the reference computes the outputs from the same inputs */
        size_t total = 0;
        for (int i = 0; i < f->buffer_count; i++) {
            reference[i] = f->buffers[i].role == BUFFER_IN ? data[i] : expected[i];
            total += bytes[i];
        }
        int has_reference = f->reference || f->reference_part;   /* a kernel declared in Lua may have none */
        if (has_reference)
            reference_in_parts(f, p, reference, total);
        for (int i = 0; i < f->buffer_count && out->correct && has_reference; i++)
            if (f->buffers[i].role == BUFFER_OUT && !same_bytes(data[i], expected[i], bytes[i]))
                out->correct = output_matches(f, i, data[i], expected[i], bytes[i], &kept_launch.sums, out->mismatch,
                                              sizeof out->mismatch);
    }
    dram_tracker_free(dram);
    if (!failed) {
        kept_launch.f = f;
        kept_launch.p = *p;
        memcpy(kept_launch.bytes, bytes, sizeof bytes);
    }
    pthread_mutex_unlock(&keeping);
    return failed ? -1 : 0;
}

static void count_nothing(void *user, const struct warp_access *a)
{
    (void)user, (void)a;
}

/* f's launch p over the caller's buffers (data, in the family's order):
   each access told to on_access with user (only warp only_warp - 1's when
   only_warp, on one thread; else on every model thread); float atomic adds
   tallied in sums unless NULL. 0, or -1 with why. */
static int run_over(const struct family *f, const struct params *p, void *const *data,
                    void (*on_access)(void *, const struct warp_access *), void *user, long long only_warp,
                    struct atomic_sums *sums, volatile sig_atomic_t *interrupted, char *why, size_t why_size)
{
    struct emulated_call call;
    char kernel[256];
    f->emulated_call(p, &call);
    struct ptx_module *m = family_module(f, p, &call, NULL, kernel, sizeof kernel, why, why_size);
    if (!m)
        return -1;
    size_t bytes[MAX_BUFFERS];
    uint64_t base[MAX_BUFFERS], args[MAX_KERNEL_ARGS];
    struct ptx_ran ran;
    struct ptx_buffer buffers[MAX_BUFFERS];
    void *users[MAX_EMULATOR_THREADS];
    family_buffer_bytes(f, p, bytes);
    model_buffer_bases(f->buffer_count, base);
    for (int i = 0; i < f->buffer_count; i++)
        buffers[i] = (struct ptx_buffer){ base[i], data[i], bytes[i], f->buffers[i].name };
    for (int i = 0; i < MAX_EMULATOR_THREADS; i++)
        users[i] = user;
    struct ptx_launch launch = launch_of(&call, kernel, base, args, buffers, f->buffer_count, interrupted);
    launch.on_access = on_access;
    launch.user = user;
    launch.only_warp = only_warp;
    launch.threads = only_warp ? 1 : model_threads_wanted();
    launch.users = users;
    launch.sums = sums;
    int failed = write_constants(f, m, data, bytes, why, why_size) || ptx_run(m, &launch, &ran, why, why_size);
    ptx_free(m);
    return failed ? -1 : 0;
}

int emulate_outputs(const struct family *f, const struct params *p, void *const *data, struct atomic_sums *sums,
                    volatile sig_atomic_t *interrupted, char *why, size_t why_size)
{
    return run_over(f, p, data, count_nothing, NULL, 0, sums, interrupted, why, why_size);
}

/* The first MAX_WARP_ACCESSES accesses of one warp, as on_access hears them. */
struct collected {
    struct warp_access *acc;
    int count;
};

static void collect(void *user, const struct warp_access *a)
{
    struct collected *c = user;
    if (c->count < MAX_WARP_ACCESSES)
        c->acc[c->count++] = *a;
}

int emulate_warp(const struct family *f, const struct params *p, long long warp, struct warp_access *acc, char *why,
                 size_t why_size)
{
    size_t bytes[MAX_BUFFERS];
    void *data[MAX_BUFFERS] = { NULL };
    int failed = 0;
    family_buffer_bytes(f, p, bytes);
    for (int i = 0; i < f->buffer_count && !failed; i++)
        failed = !(data[i] = zeroed_new(bytes[i] + 1));
    if (failed)
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
    if (!failed && f->fill_inputs)
        f->fill_inputs(p, data, EMULATION_SEED);
    struct collected collected = { acc, 0 };
    failed = failed || run_over(f, p, data, collect, &collected, warp + 1, NULL, &interrupt_requested, why, why_size);
    for (int i = 0; i < f->buffer_count; i++)
        if (data[i])
            zeroed_free(data[i], bytes[i] + 1);
    return failed ? -1 : collected.count;
}

int emulation_buffers(const struct family *f, const struct params *p, void **data, size_t *bytes,
                      const struct atomic_sums **sums)
{
    pthread_mutex_lock(&keeping);
    int count = kept_launch.f == f && memcmp(&kept_launch.p, p, sizeof *p) == 0 ? f->buffer_count : 0;
    *sums = &kept_launch.sums;
    for (int i = 0; i < count; i++) {
        data[i] = kept[i].data;
        bytes[i] = kept_launch.bytes[i];
    }
    pthread_mutex_unlock(&keeping);
    return count;
}

/* core.emulate_family(name, params [, {ptx = TEXT}]): emulate_family's counts
   {load=, store=, shared_load=, shared_store=}, lane_instructions, kernel
   (the mangled name), and correct (and mismatch) against the CPU reference.
   ptx: the family's kernel as another compiler made it (core.family_device's source). */
static int core_emulate_family(lua_State *L)
{
    char why[2048];
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    struct emulation emulation, *e = &emulation;
    check_params(L, 2, 2, f, &p, &o);
    const char *ptx = NULL;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_getfield(L, 3, "ptx");
        ptx = luaL_checkstring(L, -1);   /* the table keeps it alive */
    }
    if (emulate_family(f, &p, ptx, &interrupt_requested, e, why, sizeof why))
        return luaL_error(L, "%s", why);
    lua_createtable(L, 0, 10);
    push_printed(L, &e->printed);
    push_counts(L, &e->counts);
    lua_pushinteger(L, (lua_Integer)e->ran.lane_instructions);
    lua_setfield(L, -2, "lane_instructions");
    lua_pushstring(L, e->kernel);
    lua_setfield(L, -2, "kernel");
    lua_pushboolean(L, e->correct);
    lua_setfield(L, -2, "correct");
    if (!e->correct) {
        lua_pushstring(L, e->mismatch);
        lua_setfield(L, -2, "mismatch");
    }
    return 1;
}

/* core.family_device(name, params): what the emulator compiles for the launch:
   {source = the .cu, headers = {NAME = text}, kernel = "copy<float4>", arch = "sm_75",
   defines = {"WARPLAB_DEVICE_ONLY"}}, for another compiler to make the same PTX. */
static int core_family_device(lua_State *L)
{
    const struct family *f = check_family(L, 1);
    struct params p;
    struct measure_options o;
    struct emulated_call call;
    check_params(L, 2, 2, f, &p, &o);
    if (!f->emulated_call)
        return luaL_error(L, SAY("'%s' does not tell the emulator its kernel yet", "'%s' 还没有告诉模拟器它的内核"), f->name);
    f->emulated_call(&p, &call);
    lua_createtable(L, 0, 5);
    lua_pushstring(L, f->source);
    lua_setfield(L, -2, "source");
    lua_createtable(L, 0, device_headers_count);
    for (int i = 0; i < device_headers_count; i++) {
        lua_pushstring(L, device_headers[i].text);
        lua_setfield(L, -2, device_headers[i].name);
    }
    lua_setfield(L, -2, "headers");
    lua_pushstring(L, call.kernel);
    lua_setfield(L, -2, "kernel");
    lua_pushfstring(L, "sm_%d", family_compute_capability(f, &p));
    lua_setfield(L, -2, "arch");
    lua_createtable(L, 1, 0);
    lua_pushstring(L, "WARPLAB_DEVICE_ONLY");
    lua_rawseti(L, -2, 1);
    lua_setfield(L, -2, "defines");
    return 1;
}

const luaL_Reg emulate_core[] = {
    { "emulate", core_emulate },
    { "emulate_family", core_emulate_family },
    { "family_device", core_family_device },
    { NULL, NULL },
};
