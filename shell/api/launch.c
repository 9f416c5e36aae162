/*
** launch.c — launch() and can(): each launch's parameters checked (and
** whether this device can run them), the access model on a thread of its
** own while the backend measures, every launch's counters read together,
** and the results pushed as Lua tables.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "api/result_lua.h"
#include "api/lua_keys.h"
#include "api/arguments.h"
#include "backend/backend.h"
#include "backend/emulate.h"
#include "interrupt.h"
#include "output.h"
#include "model/profiles.h"
#include "progress_bar.h"
#include "support/clock.h"
#include "model/registry.h"
#include "sandbox.h"
#include "api/session.h"
#include "backend/user_kernel.h"

/* The launch's buffer bytes. A launch whose buffers cannot fit is a caller's
   mistake: an argument error says the sizes. */
static const char modelled_suffix[] = " (modelled)";

/* The session's device name for a message: a profile's " (modelled)" in the
   session's language. */
static const char *device_label(char *out, size_t size)
{
    const char *name = session.device.name;
    size_t length = strlen(name), suffix = sizeof modelled_suffix - 1;
    if (text_language[0] != 'z' || length < suffix || strcmp(name + length - suffix, modelled_suffix) != 0)
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
    lua_pushfstring(L, SAY("%s=%I needs %s of device memory for its buffers; %s has %s", "%s=%I 的缓冲区需要 %s 显存；%s 只有 %s"),
                    f->params[0].name, (lua_Integer)p->v[0], format_bytes(total, needed, sizeof needed),
                    device_label(device, sizeof device), format_bytes(session.device.memory_bytes, memory, sizeof memory));
    return (uint64_t)luaL_argerror(L, arg, lua_tostring(L, -1));   /* does not return */
}

/* What the model holds on this machine for a launch: on the emulator each
   buffer (and a byte past it) and each output again, for the reference's;
   and the DRAM estimate's maps (a bit per 64-byte block and per 32-byte
   sector, a word per sector stored). */
static double host_bytes(const struct family *f, const struct params *p, const struct measure_options *o)
{
    size_t bytes[MAX_BUFFERS];
    double total = 0;
    family_buffer_bytes(f, p, bytes);
    for (int i = 0; i < f->buffer_count; i++) {
        int output = f->buffers[i].role == BUFFER_OUT;
        total += (double)bytes[i] * (3.0 / 512 + (output ? 1.0 / 8 : 0));
        if (o->emulated)
            total += (double)(bytes[i] + 1) * (output ? 2 : 1);
    }
    return total;
}

/* A launch whose buffers would take the session past its memory cap: an argument error says the sizes. */
static void check_host_memory(lua_State *L, const struct family *f, const struct params *p, const struct measure_options *o)
{
    char what[128], why[512];
    snprintf(what, sizeof what, SAY("the model's launch of '%s'", "模型启动 '%s'"), f->name);
    if (sandbox_memory_refuses(host_bytes(f, p, o), what, why, sizeof why))
        luaL_argerror(L, 2, why);
}

/* CUDA's limits on a launch's shape, the same on every compute capability
   warplab knows; the shared memory a block may have is the device's own. */
static const unsigned long long GRID_MOST[3] = { 2147483647ull, 65535, 65535 }, BLOCK_MOST[3] = { 1024, 1024, 64 };
enum { THREADS_PER_BLOCK_MOST = 1024 };

/* The launch's grid, block and dynamic shared memory (as the emulator's
   call has them: a kernel declared in Lua works them out from its
   functions) within the device's limits; else an argument error naming
   which and the limit. */
static void check_shape(lua_State *L, const struct family *f, const struct params *p)
{
    struct kernel_call call;
    char why[512], label[300];
    if (!f->kernel_call)
        return;
    f->kernel_call(p, &call);
    const struct {
        const char *what;
        unsigned long long value, most;
    } limits[] = {
        { "grid.x", call.grid[0], GRID_MOST[0] },    { "grid.y", call.grid[1], GRID_MOST[1] },
        { "grid.z", call.grid[2], GRID_MOST[2] },    { "block.x", call.block[0], BLOCK_MOST[0] },
        { "block.y", call.block[1], BLOCK_MOST[1] }, { "block.z", call.block[2], BLOCK_MOST[2] },
        { SAY("threads a block", "每块线程数"), (unsigned long long)call.block[0] * call.block[1] * call.block[2],
          THREADS_PER_BLOCK_MOST },
        { SAY("shared (dynamic shared memory a block, in bytes)", "shared（每块动态共享内存字节数）"), call.shared_bytes,
          session.device.shared_bytes_per_block },
    };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i].value > limits[i].most) {
            snprintf(why, sizeof why, SAY("'%s': %s = %llu, over the limit of %s: %llu", "'%s'：%s = %llu，超过 %s 的上限 %llu"),
                     f->name, limits[i].what, limits[i].value, device_label(label, sizeof label), limits[i].most);
            luaL_argerror(L, 2, why);
        }
}

enum { MAX_BATCH = 1024 };

/* A kernel declared in Lua: its registers a thread and static shared
   memory on the device's architecture, from NVRTC's machine code for it
   (core.kernel_resources); left unknown where that cannot say. warplab's
   own work, not lab code's: the sandbox does not charge it. */
static void add_compiled_resources(lua_State *L, const struct family *f, const struct device_info *d,
                                   struct launch_geometry *g)
{
    if (user_kernel_index(f) < 0)
        return;
    int top = lua_gettop(L);
    struct sandbox_pause pause;
    sandbox_pause_begin(L, &pause);
    lua_getfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);
    lua_getfield(L, -1, "kernel_resources");
    lua_pushstring(L, f->name);
    lua_pushfstring(L, "sm_%d%d", d->major, d->minor);
    if (lua_pcall(L, 2, 2, 0) == LUA_OK && lua_isinteger(L, -2) && lua_isinteger(L, -1)) {
        g->registers = (int)lua_tointeger(L, -2);
        g->shared_bytes += (unsigned)lua_tointeger(L, -1);
    }
    lua_settop(L, top);
    sandbox_pause_end(L, &pause);
}

/* What the time estimate needs of the launch's shape: its threads, a
   block's, a block's shared memory (dynamic where the emulator's call says,
   static and registers where the machine code does: kernels declared in
   Lua), and its chain of dependent loads (a kernel declared in Lua: none
   known). */
static struct launch_geometry launch_geometry(lua_State *L, const struct family *f, const struct params *p,
                                              const struct device_profile *profile)
{
    struct launch_shape shape = f->shape(p);
    struct launch_geometry g = { .threads = shape.threads, .block_threads = shape.block,
                                 .load_chain = family_warp_cost(f, p)->load_chain };
    struct kernel_call call;
    if (f->kernel_call) {
        f->kernel_call(p, &call);
        g.shared_bytes = call.shared_bytes;
    }
    add_compiled_resources(L, f, &profile->info, &g);
    return g;
}

/* The progress bar of the launches running now, whose thread redraws it,
   and the watch on a lab's launch budget: an error that leaves run_all ends
   them first. */
static struct progress_bar *running_bar;

static void stop_bar(void)
{
    if (running_bar)
        progress_bar_end(running_bar);
    running_bar = NULL;
    sandbox_launches_end();
}

static int raise_interrupted(lua_State *L)
{
    stop_bar();
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

/* Checks one launch's parameters (the table at stack index `table`) into r and o. */
static void prepare_result(lua_State *L, int table, const struct family *f, struct result *r,
                           struct measure_options *o)
{
    memset(r, 0, sizeof *r);
    r->family = f;
    check_params(L, table, 2, f, &r->params, o);
    check_device_can(L, f, &r->params);
    r->footprint_bytes = check_footprint(L, 2, f, &r->params);
    check_shape(L, f, &r->params);
    check_host_memory(L, f, &r->params, o);
    r->backend = session.backend->name;
    r->correct = -1;
    r->useful_bytes = f->useful_bytes(&r->params);
    warn_if_cached(r);
}

/* A kernel declared in Lua with a Lua reference: the emulator's outputs
   against it (on a GPU, whose outputs were checked against the emulator's,
   that closes the chain from the GPU to the reference). */
static void check_against_reference(lua_State *L, struct result *r)
{
    struct output_check check = { .checked = 0 };
    int checked = r->family->check_outputs(L, r->family, &r->params, &check);
    if (checked == 0 && r->measured)
        snprintf(r->mismatch, sizeof r->mismatch, SAY("the emulator's outputs are not the reference's: %s", "模拟器的输出与参考结果不同：%s"),
                 check.mismatch);
    else if (checked == 0)
        snprintf(r->mismatch, sizeof r->mismatch, "%s", check.mismatch);
    r->correct = checked >= 0 ? checked : r->correct;
    r->checked_elements = checked >= 0 ? check.checked : 0;
    r->output_elements = checked >= 0 ? check.elements : 0;
    r->summed = check.summed;
    if (checked < 0)
        snprintf(r->unchecked, sizeof r->unchecked, "%s", check.unchecked);
}

/* A launch the backend could not run: the session goes on with the model
   when the GPU is lost for good, and the error says what the GPU said (and
   the emulator, when it failed too). */
static void launch_failed(lua_State *L, const struct result *r, const char *error, const char *emulator)
{
    stop_bar();
    backend_fall_back(&session.backend, &session.device, session.backend_notice, sizeof session.backend_notice);
    if (emulator)
        luaL_error(L, SAY("launch of '%s' failed: %s; the emulator: %s", "启动 '%s' 失败：%s；模拟器：%s"), r->family->name, error,
                   emulator);
    luaL_error(L, SAY("launch of '%s' failed: %s", "启动 '%s' 失败：%s"), r->family->name, error);
}

/* What the kernel's printf printed on the emulator: shown now, once for the
   launch (the emulator runs it again only for checks and warp maps, which
   keep nothing), after the launch as a GPU shows it at synchronisation, and
   kept in the result; the emulator's text is freed. */
static void show_printed(struct result *r, struct ptx_printed *printed)
{
    const char *text = printed->text ? printed->text : "";
    size_t length = strlen(text);
    snprintf(r->printed, sizeof r->printed, "%s", text);
    r->printed_not_shown = printed->lines_not_shown;
    if (length || r->printed_not_shown)
        stop_bar();
    out_write(text, length);
    if (length && text[length - 1] != '\n')
        out_write("\n", 1);
    if (r->printed_not_shown)
        out_printf(SAY("printf: %llu more lines not shown (the first %d of a launch are; r.printf holds them)\n",
                       "printf：还有 %llu 行没有显示（每次启动只显示前 %d 行；r.printf 保存了它们）\n"),
                   r->printed_not_shown, PRINTF_LINES_SHOWN);
    free(printed->text);
    printed->text = NULL;
}

/* Why a kernel declared in Lua runs on the emulator on a GPU machine: it
   calls printf (lua/kernel.lua gives it no GPU code: the GPU would print at
   every timing sample and counter pass, into the GPU process's output, which
   is its channel to the shell), or it was declared without GPU code. */
static const char *emulated_instead(const struct family *f)
{
    if (f->ptx && strstr(f->ptx, "vprintf"))
        return SAY("this kernel calls printf, which warplab runs on the emulator only (a GPU would print again at every "
                   "timing sample and counter pass): this is the emulator's result",
                   "这个核函数调用了 printf，warplab 只在模拟器上运行它（GPU 会在每次计时采样和计数器采集时再打印一遍）：这是模拟器的结果");
    return SAY("this kernel was declared without code for the GPU: this is the emulator's result",
               "声明这个核函数时没有为 GPU 编译代码：这是模拟器的结果");
}

/* Why a GPU may count more shared loads than the emulator: float adds of
   different warps on one shared word retry their compare-and-swap loop. */
static void warn_shared_float_collisions(struct result *r, uint64_t collisions)
{
    if (collisions == 0)
        return;
    result_warn(r, SAY("float atomicAdd on shared memory is a compare-and-swap loop: %llu adds hit a word other warps "
                       "of their block add to, and a GPU retries those as the warps' timing falls, so it counts more "
                       "shared loads than these, the loop's least",
                       "共享内存上的 float atomicAdd 是一个比较并交换（CAS）循环：有 %llu 次加到了同一线程块中其他线程束也在加的字上，"
                       "GPU 会随线程束的时序重试这些加法，所以它统计的共享内存加载多于这里的计数（这个循环的最少次数）"),
                (unsigned long long)collisions);
}

/* Runs one prepared launch: the model on a worker thread while the backend
   measures. Ctrl-C raises "interrupted!", or, with keep_partial, returns RUN_INTERRUPTED. */
static enum run_status run_one(lua_State *L, struct result *r, const struct measure_options *o, int keep_partial)
{
    char error[768];
    double started = monotonic_ms();
    struct model_job model = { .family = r->family, .params = &r->params, .counts = &r->model, .emulated = o->emulated,
                               .device = &session.device };
    dram_set_modelled_l2(o->profile->info.l2_bytes);
    model_start(&model);
    r->cache = o->warm ? "warm" : "cold";   /* what the launch asked for; the model has no cache to heat */
    r->model_source = o->emulated ? "emulator" : "formula";
    /* a kernel declared in Lua without machine code for the GPU: the emulator's result stands for it */
    int on_gpu = !r->family->ptx || user_kernel_on_gpu(r->family);
    const struct backend *backend = on_gpu || !session.backend->measures ? session.backend : &model_backend;
    if (backend != session.backend)
        result_warn(r, "%s", emulated_instead(r->family));
    enum run_status status = backend->run(r->family, &r->params, o, r, error, sizeof error);
    if (status == RUN_FAILED)   /* the launch is lost: the model need not finish (a kernel that never ends would not) */
        interrupt_requested = 1;
    int modelled = model_finish(&model);
    show_printed(r, &model.printed);
    warn_shared_float_collisions(r, model.shared_float_collisions);
    r->model_level = o->emulated ? model.level : NULL;
    snprintf(r->model_level_why, sizeof r->model_level_why, "%s", model.level_why);
    if (status == RUN_FAILED) {
        interrupt_requested = 0;
        modelled = modelled == -2 ? -2 : 0;
    }
    if (modelled == -2 && status == RUN_FAILED)   /* what the GPU said first: a fault, say, that the emulator also found */
        launch_failed(L, r, error, model.why);
    if (modelled == -2) {
        stop_bar();
        luaL_error(L, SAY("the emulator cannot run '%s': %s", "模拟器无法运行 '%s'：%s"), r->family->name, model.why);
    }
    if (modelled != 0 || status == RUN_INTERRUPTED) {
        stop_bar();
        sandbox_launches_check(L);   /* the lab's launch budget, if it stopped the launch: its own error */
        if (!keep_partial)
            raise_interrupted(L);
        interrupt_clear(L);
        return RUN_INTERRUPTED;
    }
    if (o->emulated && r->family->check_outputs && r->correct != 0)   /* a GPU's difference from the emulator stands */
        check_against_reference(L, r);
    r->profile = o->profile;
    struct launch_geometry geometry = launch_geometry(L, r->family, &r->params, o->profile);
    r->estimate = estimate_time(o->profile, &r->model, &geometry);
    if (status == RUN_FAILED)
        launch_failed(L, r, error, NULL);
    r->wall_ms = monotonic_ms() - started;
    if (getenv("WARPLAB_TRACE_TIMES"))   /* the GPU process traces its own phases */
        fprintf(stderr, "warplab: model %.1f ms of the launch's %.1f ms\n", model.ms, r->wall_ms);
    return RUN_OK;
}

/* Counters for every launch that asked for them, in one go (see backend.read_counters). */
static void read_all_counters(struct result *results, const struct measure_options *options, int count)
{
    struct result *wanted[MAX_BATCH];
    int n = 0;
    double started = monotonic_ms();
    for (int i = 0; i < count; i++)
        if (options[i].counters)
            wanted[n++] = &results[i];
    if (n == 0 || !session.backend->read_counters)
        return;
    session.backend->read_counters(wanted, n);
    double each = (monotonic_ms() - started) / n;
    for (int i = 0; i < n; i++)
        wanted[i]->wall_ms += each;   /* each launch's share of reading the counters */
}

/* Runs the launches in order and reads their counters together; returns how
   many completed (fewer only when keep_partial and Ctrl-C stopped them). */
static int run_all(lua_State *L, struct result *results, struct measure_options *options, int count,
                   int keep_partial, int show_progress)
{
    struct progress_bar bar;
    int done = 0;
    double started = sandbox_clock_ms();
    sandbox_launches_begin();
    sandbox_launches_check(L);   /* spent by the step's launches before */
    progress_bar_start(&bar, SAY("launches", "启动"), count, show_progress);
    progress_bar_say_when_waiting(&bar, user_kernel_index(results[0].family) >= 0
                                        ? SAY("an endless loop? Ctrl-C stops it", "死循环？Ctrl-C 可以停止")
                                        : SAY("Ctrl-C stops it", "Ctrl-C 可以停止"));
    running_bar = &bar;
    while (done < count && !(keep_partial && interrupt_requested)) {
        if (run_one(L, &results[done], &options[done], keep_partial) != RUN_OK)
            break;
        done++;
        progress_bar_step(&bar);
    }
    stop_bar();
    sandbox_launches_check(L);
    if (keep_partial)
        interrupt_clear(L);
    read_all_counters(results, options, done);
    sandbox_exclude(sandbox_clock_ms() - started);   /* the code budget is for lab code's own work */
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

/* A kernel declared in Lua whose latest source does not compile is not run
   (core.not_run[name], set by lua/kernel.lua, says why): its last version
   that compiled would run with nothing saying so. */
static void refuse_not_compiling(lua_State *L, const struct family *f)
{
    int top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);
    if (lua_getfield(L, -1, "not_run") == LUA_TTABLE && lua_getfield(L, -1, f->name) == LUA_TSTRING)
        luaL_error(L, "%s", lua_tostring(L, -1));
    lua_settop(L, top);
}

/* core.launch_many(name, {params, ...}, progress): like launch with a list, but
   Ctrl-C stops after the current launch and the results so far come back,
   with true as a second value; a progress bar when asked and on a terminal. */
static int core_launch_many(lua_State *L)
{
    lua_settop(L, 3);   /* the userdata below must not land where the params are looked for */
    sandbox_share_budget(L);   /* a lab's kernel's functions: one budget for them all */
    const struct family *f = check_family(L, 1);
    refuse_not_compiling(L, f);
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
   runs several and reads their counters in one counter batch. */
static int api_launch(lua_State *L)
{
    lua_settop(L, 2);   /* the userdata below must not land where the params are looked for */
    sandbox_share_budget(L);   /* a lab's kernel's functions: one budget for them all */
    const struct family *f = check_family(L, 1);
    refuse_not_compiling(L, f);
    int batch = lua_type(L, 2) == LUA_TTABLE && lua_rawgeti(L, 2, 1) == LUA_TTABLE;
    if (batch)
        lua_pop(L, 1);
    struct result *results;
    struct measure_options *options;
    int count = prepare_all(L, f, batch, &results, &options);
    run_all(L, results, options, count, 0, 1);   /* a bar when a launch takes over a second */
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

const luaL_Reg launch_globals[] = {
    { "launch", api_launch },
    { "can", api_can },
    { NULL, NULL },
};

const luaL_Reg launch_core[] = {
    { "launch_many", core_launch_many },
    { NULL, NULL },
};
