/*
** emulate.c — a family's own kernel, or a kernel declared in Lua, run on the
** emulator (kernels/emulator/ptx.h) over the buffers and inputs its GPU runs
** would have, counted by the model's one accounting: the model behind a
** launch with model = "emulator", the check of a GPU's outputs, a warp's map.
** Lua's side of it is emulate_core.c.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/common.h"
#include "compile/device_compile.h"
#include "compile/disassemble.h"
#include "backend/emulate.h"
#include "backend/host_parts.h"
#include "interrupt.h"
#include "model/model.h"
#include "model/output_check.h"
#include "emulator/ptx.h"
#include "emulator/sass_run.h"
#include "model/registry.h"
#include "sandbox.h"
#include "support/memory.h"
#include "support/text.h"

/* The warp-instructions a launch may run on the emulator, however many of a
   warp's lanes run each: a few seconds of one core's work (about 10 million
   a second where a single lane spins), and more for each warp of the grid,
   so that an infinite loop in a small grid stops in seconds and a large grid
   has room for a long loop in each warp. One block may take twice a small
   launch's and BLOCK_SHARE_MOST times its warps' part, and no more: a loop
   that never ends is stopped in the first blocks of a large grid (in about
   5 s here, after the bar has asked whether it is one), not after the whole
   grid's budget, while a block that does much more than the others (one
   thread summing everything) still has room. */
static const uint64_t INSTRUCTIONS_A_LAUNCH = 1ull << 25, INSTRUCTIONS_A_WARP = 1ull << 14, BLOCK_SHARE_MOST = 64;
enum { MAX_EMULATOR_THREADS = 16 };   /* model_threads_wanted's most */

void emulation_set_budget(struct ptx_launch *launch)
{
    const unsigned *grid = launch->grid, *block = launch->block;
    uint64_t warps_a_block = ((uint64_t)block[0] * block[1] * block[2] + 31) / 32;
    launch->instruction_budget = INSTRUCTIONS_A_LAUNCH + INSTRUCTIONS_A_WARP * warps_a_block * grid[0] * grid[1] * grid[2];
    launch->block_instruction_budget = 2 * INSTRUCTIONS_A_LAUNCH + INSTRUCTIONS_A_WARP * warps_a_block * BLOCK_SHARE_MOST;
}

void emulation_count(void *user, const struct warp_access *a)
{
    struct emulation_counting *c = user;
    model_count_access(&c->counts, c->dram, a);
}

/* The architecture f's kernel is compiled for: sm_75, warplab's oldest, or what p's feature needs (cp.async: 80). */
int emulation_compute_capability(const struct family *f, const struct params *p)
{
    const struct gpu_need *need = f->needs ? f->needs(p) : NULL;
    return need && need->compute_capability > 75 ? need->compute_capability : 75;
}

/* The family's kernel as PTX (the caller's to free) and its lowered name,
   compiled for emulation_compute_capability or remembered (family_code). */
static char *family_ptx(const struct family *f, const struct params *p, const struct kernel_call *call, char *lowered,
                        size_t lowered_size, char *why, size_t why_size)
{
    char target[32];
    size_t size;
    snprintf(target, sizeof target, "compute_%d", emulation_compute_capability(f, p));
    return family_code(f, call->kernel, target, &size, lowered, lowered_size, why, why_size);
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
    snprintf(why, why_size, SAY("the PTX holds %d kernels for '%s', not one", "PTX 中 '%2$s' 的核函数有 %1$d 个，而不是一个"), found,
             expression);
    return -1;
}

/* The family's kernel parsed, and its name in the PTX: the PTX given (clang's, say), or f's own compiled by NVRTC. */
static struct ptx_module *family_module(const struct family *f, const struct params *p, const struct kernel_call *call,
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

/* ---- the SASS level: the machine code the GPU runs, where the engine can ---- */

/* The one architecture the SASS engine runs (its constant bank's layout, its opcodes'). */
enum { SASS_ENGINE_CC = 90 };
/* The most warps a launch runs on the SASS engine: it runs each lane of each
   instruction where the PTX emulator works on whole warps' affine values, so
   it takes about 9 µs a warp of a short kernel on this project's machines
   (2026-12-07: 262,144 warps of y = 2x in 2.2 s, 17 times the PTX
   emulator's): 2^15 warps, a million threads, take a third of a second. A
   larger launch runs at PTX level, and the card says so. */
enum { SASS_WARPS_MOST = 1 << 15 };

int sass_engine_runs(const struct device_info *device)
{
    return device && 10 * device->major + device->minor == SASS_ENGINE_CC;
}

/* A built-in family's kernels' listings, made once a process (NVRTC's sm_90
   CUBIN through the disassembler, about half a second): by family and kernel. */
enum { KEPT_LISTINGS = 32 };
static struct kept_listing {
    const struct family *f;
    char kernel[64];
    char *text;
} listings[KEPT_LISTINGS];
static int listings_next;

/* The listing of f's kernel (a declared kernel's own; a built-in's made
   here), or NULL with why. The text stays until KEPT_LISTINGS more are made. */
static const char *listing_of(const struct family *f, const char *kernel, char *why, size_t why_size)
{
    static pthread_mutex_t listing = PTHREAD_MUTEX_INITIALIZER;
    if (f->ptx) {
        if (!f->sass)
            snprintf(why, why_size, "%s", f->sass_why ? f->sass_why : SAY("no SASS listing of it", "没有它的 SASS 列表"));
        return f->sass;
    }
    pthread_mutex_lock(&listing);
    const char *text = NULL;
    for (int i = 0; i < KEPT_LISTINGS && !text; i++)
        if (listings[i].text && listings[i].f == f && strcmp(listings[i].kernel, kernel) == 0)
            text = listings[i].text;
    if (!text) {
        char lowered[256];
        size_t size;
        char *cubin = family_code(f, kernel, "sm_90", &size, lowered, sizeof lowered, why, why_size);
        char *made = cubin ? disassemble_cubin(cubin, size, why, why_size) : NULL;
        free(cubin);
        if (made) {
            struct kept_listing *k = &listings[listings_next];
            free(k->text);
            *k = (struct kept_listing){ .f = f, .text = made };
            snprintf(k->kernel, sizeof k->kernel, "%s", kernel);
            listings_next = (listings_next + 1) % KEPT_LISTINGS;
            text = made;
        }
    }
    pthread_mutex_unlock(&listing);
    return text;
}

const char *emulation_listing(const struct family *f, const struct params *p, char *kernel, size_t kernel_size,
                              char *why, size_t why_size)
{
    struct kernel_call call;
    if (!f->kernel_call) {
        snprintf(why, why_size, SAY("'%s' does not tell the emulator its kernel yet", "'%s' 还没有告诉模拟器它的核函数"), f->name);
        return NULL;
    }
    f->kernel_call(p, &call);
    snprintf(kernel, kernel_size, "%s", call.kernel);
    return listing_of(f, call.kernel, why, why_size);
}

/* Whether a kernel adds floats atomically: the PTX emulator tallies their
   rounding for the output check (atomic_sums.h), the SASS engine does not yet. */
static int adds_floats_atomically(const char *listing)
{
    static const char *const marks[] = { ".ADD.F32", ".ADD.F64", ".ADD.FTZ", "ATOMS.CAS" };
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(listing, marks[i]))
            return 1;
    return 0;
}

/* The SASS engine's program of f's kernel, its constants written, or NULL
   with why (the PTX emulator then runs it). */
static struct sass_program *sass_program_for(const struct family *f, const struct device_info *device, const char *expression,
                                             const struct ptx_launch *launch, void *const *data, const size_t *bytes,
                                             char *why, size_t why_size)
{
    unsigned long long warps = (unsigned long long)launch->grid[0] * launch->grid[1] * launch->grid[2] *
                               (((unsigned long long)launch->block[0] * launch->block[1] * launch->block[2] + 31) / 32);
    if (!sass_engine_runs(device)) {
        snprintf(why, why_size, SAY("the SASS engine runs sm_90's machine code, and this GPU is sm_%d",
                                    "SASS 引擎运行 sm_90 的机器码，而这块 GPU 是 sm_%d"),
                 device ? 10 * device->major + device->minor : 0);
        return NULL;
    }
    if (warps > SASS_WARPS_MOST) {
        snprintf(why, why_size, SAY("%llu warps, more than the %d the SASS engine runs in reasonable time: a smaller launch runs "
                                    "at SASS level", "%llu 个 warp，超过 SASS 引擎能在合理时间内运行的 %d 个：较小的启动会以 SASS 级别运行"),
                 warps, SASS_WARPS_MOST);
        return NULL;
    }
    const char *listing = listing_of(f, expression, why, why_size);
    if (!listing)
        return NULL;
    if (adds_floats_atomically(listing)) {
        snprintf(why, why_size, "%s", SAY("it adds floats atomically, whose rounding the PTX emulator keeps for the check",
                                          "它以原子操作累加浮点数，PTX 模拟器为检查记下其舍入"));
        return NULL;
    }
    struct sass_program *p = sass_decode(listing, launch->kernel, why, why_size);
    for (int i = 0; p && f->constants && i < f->buffer_count; i++)
        if (f->constants[i] && sass_write_constant(p, f->constants[i], data[i], bytes[i]) != 0) {
            snprintf(why, why_size, SAY("its SASS has no __constant__ variable '%s'", "它的 SASS 中没有 __constant__ 变量 '%s'"),
                     f->constants[i]);
            sass_program_free(p);
            p = NULL;
        }
    return p;
}

/* Each of the kernel's parameters' bytes, as its PTX entry declares them. */
static void argument_bytes(const struct ptx_module *m, const char *kernel, int count, int *bytes)
{
    for (int i = 0; i < count; i++)
        bytes[i] = ptx_param_size(m, kernel, i);
}

/* Runs the launch at SASS level when the engine can; 0, or -1 with why; 1
   when it cannot (why in level_why), for the PTX emulator to run instead. */
static int run_sass(const struct family *f, const struct device_info *device, const char *expression,
                    const struct ptx_module *m, const struct ptx_launch *launch, void *const *data, const size_t *bytes,
                    struct emulation *out, char *why, size_t why_size)
{
    struct sass_program *p = sass_program_for(f, device, expression, launch, data, bytes, out->level_why,
                                              sizeof out->level_why);
    if (!p)
        return 1;
    int arg_bytes[MAX_KERNEL_ARGS];
    argument_bytes(m, launch->kernel, launch->arg_count, arg_bytes);
    for (int i = 0; i < launch->arg_count; i++)
        if (arg_bytes[i] > 8) {   /* a struct by value: the launch holds a word for each argument */
            snprintf(out->level_why, sizeof out->level_why, SAY("parameter %d is a struct of %d bytes passed by value, which "
                                                                "the SASS engine does not lay out yet",
                                                                "参数 %d 是按值传递的 %d 字节结构体，SASS 引擎尚不能排布它"),
                     i + 1, arg_bytes[i]);
            sass_program_free(p);
            return 1;
        }
    struct sass_ran ran;
    int failed = sass_run(p, launch, arg_bytes, &ran, why, why_size);
    sass_program_free(p);
    out->ran.issued = ran.warp_instructions;
    out->ran.lane_instructions = ran.lane_instructions;
    out->level = "sass";
    return failed ? -1 : 0;
}

/* The emulator's launch of call over the buffers at base (args: room for
   the call's arguments, which it fills); the caller sets how accesses are counted. */
static struct ptx_launch launch_of(const struct kernel_call *call, const struct device_info *device, const char *kernel,
                                   const uint64_t *base, uint64_t *args, struct ptx_buffer *buffers, int buffer_count,
                                   volatile sig_atomic_t *interrupted)
{
    for (int i = 0; i < call->arg_count; i++)
        args[i] = (call->args[i].buffer >= 0 ? base[call->args[i].buffer] : 0) + (uint64_t)call->args[i].value;
    struct ptx_launch launch = { .kernel = kernel, .args = args, .arg_count = call->arg_count, .buffers = buffers,
                                 .buffer_count = buffer_count,
                                 .shared_bytes_most = device ? device->shared_bytes_per_block : 0,
                                 .interrupted = interrupted, .dynamic_shared_bytes = call->shared_bytes };
    memcpy(launch.grid, call->grid, sizeof launch.grid);
    memcpy(launch.block, call->block, sizeof launch.block);
    emulation_set_budget(&launch);
    return launch;
}

int emulate_family(const struct family *f, const struct params *p, const struct device_info *device, const char *ptx,
                   volatile sig_atomic_t *interrupted, struct emulation *out, char *why, size_t why_size)
{
    struct kernel_call call;
    memset(out, 0, sizeof *out);
    out->correct = 1;
    if (!f->kernel_call) {
        snprintf(why, why_size, SAY("'%s' does not tell the emulator its kernel yet", "'%s' 还没有告诉模拟器它的核函数"), f->name);
        return -1;
    }
    f->kernel_call(p, &call);
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
    struct emulation_counting counting[MAX_EMULATOR_THREADS] = { { .dram = NULL } };
    void *users[MAX_EMULATOR_THREADS];
    struct dram_tracker *dram = dram_tracker_new(f->buffer_count, bytes, 0);   /* threads run blocks out of warp order: once each */
    int threads = model_threads_wanted();
    for (int i = 0; i < threads; i++)
        counting[i].dram = dram, counting[i].counts.l1 = l1_cache_new(), users[i] = &counting[i];
    struct ptx_launch launch = launch_of(&call, device, out->kernel, base, args, buffers, f->buffer_count, interrupted);
    launch.on_access = emulation_count;
    launch.user = &counting[0];
    launch.threads = threads;
    launch.users = users;
    launch.printed = &out->printed;
    launch.printed_lines = PRINTF_LINES_SHOWN;
    launch.sums = &kept_launch.sums;
    if (failed)
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
    int level = failed ? -1 : ptx ? 1 : run_sass(f, device, call.kernel, m, &launch, data, bytes, out, why, why_size);
    if (ptx && !failed)   /* the caller's PTX, from another compiler: that is what runs */
        snprintf(out->level_why, sizeof out->level_why, "%s", SAY("the PTX given", "给定的 PTX"));
    if (level == 1)
        out->level = "ptx";
    failed = failed || level == -1 ||
             (level == 1 && (write_constants(f, m, data, bytes, why, why_size) || ptx_run(m, &launch, &out->ran, why, why_size)));
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
        if (has_reference)
            out->correct = outputs_match(f, data, expected, bytes, &kept_launch.sums, out->mismatch, sizeof out->mismatch);
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
static int run_over(const struct family *f, const struct params *p, const struct device_info *device, void *const *data,
                    void (*on_access)(void *, const struct warp_access *), void *user, long long only_warp,
                    struct atomic_sums *sums, volatile sig_atomic_t *interrupted, struct emulation_level *level_ran, char *why,
                    size_t why_size)
{
    struct kernel_call call;
    char kernel[256];
    f->kernel_call(p, &call);
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
    struct ptx_launch launch = launch_of(&call, device, kernel, base, args, buffers, f->buffer_count, interrupted);
    launch.on_access = on_access;
    launch.user = user;
    launch.only_warp = only_warp;
    launch.threads = only_warp ? 1 : model_threads_wanted();
    launch.users = users;
    launch.sums = sums;
    /* the SASS engine where the launch's own run had it (lines and warp maps, as the card counted
       them); a GPU's output check (whose float sums the PTX emulator keeps) at PTX level */
    struct emulation scratch = { .level = NULL };
    int level = sums ? 1 : run_sass(f, device, call.kernel, m, &launch, data, bytes, &scratch, why, why_size);
    int failed = level == -1 ||
                 (level == 1 && (write_constants(f, m, data, bytes, why, why_size) || ptx_run(m, &launch, &ran, why, why_size)));
    ptx_free(m);
    if (level_ran) {
        level_ran->level = level == 0 ? "sass" : "ptx";
        snprintf(level_ran->why, sizeof level_ran->why, "%s", level == 0 ? "" : sums ? SAY("a GPU's output check", "GPU 的输出检查")
                                                                               : scratch.level_why);
    }
    return failed ? -1 : 0;
}

int emulate_outputs(const struct family *f, const struct params *p, const struct device_info *device, void *const *data,
                    struct atomic_sums *sums, volatile sig_atomic_t *interrupted, char *why, size_t why_size)
{
    return run_over(f, p, device, data, count_nothing, NULL, 0, sums, interrupted, NULL, why, why_size);
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

/* f's launch p run over the inputs an emulated launch fills (zeroed buffers,
   then the family's fill_inputs), each access told to on_access: 0, or -1 with why. */
static int run_on_inputs(const struct family *f, const struct params *p, const struct device_info *device,
                         void (*on_access)(void *, const struct warp_access *), void *user, long long only_warp,
                         struct emulation_level *level_ran, char *why, size_t why_size)
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
    failed = failed || run_over(f, p, device, data, on_access, user, only_warp, NULL, &interrupt_requested, level_ran, why,
                                why_size);
    for (int i = 0; i < f->buffer_count; i++)
        if (data[i])
            zeroed_free(data[i], bytes[i] + 1);
    return failed ? -1 : 0;
}

int emulate_warp(const struct family *f, const struct params *p, const struct device_info *device, long long warp,
                 struct warp_access *acc, char *why, size_t why_size)
{
    struct collected collected = { acc, 0 };
    return run_on_inputs(f, p, device, collect, &collected, warp + 1, NULL, why, why_size) ? -1 : collected.count;
}

/* The lines' counts while a launch runs on several threads. */
struct line_counting {
    pthread_mutex_t lock;
    struct line_counts *lines;
    int count, most;
    int by_instruction;
};

static struct line_counts *line_bucket(struct line_counting *c, const struct warp_access *a)
{
    int instruction = c->by_instruction ? a->instruction : 0;
    for (int i = 0; i < c->count; i++)
        if (c->lines[i].line == a->line && c->lines[i].instruction == instruction)
            return &c->lines[i];
    if (c->count == c->most)
        return NULL;
    struct line_counts *bucket = &c->lines[c->count++];
    memset(bucket, 0, sizeof *bucket);
    bucket->line = a->line, bucket->instruction = instruction;
    return bucket;
}

/* A line keeps, of each kind, the costliest of its first accesses: the one a diagnosis is made from. */
enum { SAMPLES_WEIGHED = 64 };

/* What an access costs, as the model counts it: shared wavefronts, or sectors. */
static int access_cost(const struct warp_access *a)
{
    if (a->kind == ACCESS_SHARED_LOAD || a->kind == ACCESS_SHARED_STORE || a->kind == ACCESS_SHARED_ATOMIC)
        return shared_wavefronts(a);
    struct traffic t = { 0 };
    traffic_add(&t, a);
    return (int)t.sectors;
}

static void weigh_sample(struct line_counts *bucket, const struct warp_access *a)
{
    int cost = access_cost(a), k = a->kind;
    if (!(bucket->sampled & 1u << k) || cost > bucket->sample_cost[k]) {
        bucket->sample[k] = *a;
        warp_access_expand(&bucket->sample[k]);   /* each lane's address, for the diagnosis */
        bucket->sample_cost[k] = cost;
        bucket->sampled |= 1u << k;
    }
    bucket->looked[k]++;
}

static void count_by_line(void *user, const struct warp_access *a)
{
    struct line_counting *c = user;
    pthread_mutex_lock(&c->lock);
    struct line_counts *bucket = line_bucket(c, a);
    if (bucket) {
        model_count_access(&bucket->counts, NULL, a);
        if (bucket->looked[a->kind] < SAMPLES_WEIGHED && (a->affine ? a->lane_count > 0 : a->active != 0))
            weigh_sample(bucket, a);
    }
    pthread_mutex_unlock(&c->lock);
}

static int by_line(const void *a, const void *b)
{
    const struct line_counts *l = a, *m = b;
    int x = l->line, y = m->line;
    if (x != y)
        return (x == 0) - (y == 0) ? (x == 0) - (y == 0) : (x > y) - (x < y);   /* line 0 (unknown) last */
    return (l->instruction > m->instruction) - (l->instruction < m->instruction);
}

static int by_instruction(const void *a, const void *b)
{
    int x = ((const struct line_counts *)a)->instruction, y = ((const struct line_counts *)b)->instruction;
    return x != y ? (x > y) - (x < y) : by_line(a, b);
}

int emulate_lines(const struct family *f, const struct params *p, const struct device_info *device, int by_instructions,
                  struct line_counts *lines, int most, struct emulation_level *level, char *why, size_t why_size)
{
    struct line_counting counting = { .lines = lines, .most = most, .by_instruction = by_instructions };
    pthread_mutex_init(&counting.lock, NULL);
    int failed = run_on_inputs(f, p, device, count_by_line, &counting, 0, level, why, why_size);
    pthread_mutex_destroy(&counting.lock);
    if (failed)
        return -1;
    qsort(lines, (size_t)counting.count, sizeof *lines, by_instructions ? by_instruction : by_line);
    return counting.count;
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

