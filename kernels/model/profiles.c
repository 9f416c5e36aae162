/*
** profiles.c — one row per modelled device, and the time the model gives a
** launch on it: a term for each unit that can limit the launch, the largest
** named as its limit (docs/model.md, "Time"). The H200's rates were fitted
** to 210 launches measured on the GPU machine (2026-12-02); the other rows
** take their sizes and peaks from the vendors' datasheets and keep the
** H200's rates per SM and clock; a file of bench/calibrate's coefficients
** (--profile FILE) gives another GPU's sizes and scales the H200's rates by
** what calibrate measured on it.
*/
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "model/profiles.h"
#include "support/text.h"

/* peak = 2 x memory clock x bus width / 8, so the clock is derived from the datasheet peak. */
#define MEMORY_MHZ(peak_gbs, bus_bits) ((peak_gbs) * 1e3 * 8 / (2.0 * (bus_bits)))

/* The share of its peak DRAM bandwidth a streaming kernel reaches (the H200: 4.3 of 4.81 TB/s). */
#define H200_STREAM_SHARE 0.893
/* 64 K 32-bit registers an SM, given to warps 256 at a time, on every
   compute capability from 7.5 to 12.0 (the CUDA occupancy calculator's). */
enum { REGISTERS_PER_SM = 65536, REGISTER_UNIT = 256 };

/* The H200's rates: fitted to its measurements on the GPU machine
   (2026-12-02, bench/data/h200-model-time.json; docs/model.md gives each
   one's source). */
#define H200_RATES(dram_gbs_)                                                                          \
    .dram_gbs = (dram_gbs_), .sparse_exponent = 0.21, .l2_held_writes = 0.5,                               \
    .l2_load_lines_per_clock = 0.625, .l2_load_sectors_per_clock = 2.0, .l2_store_requests_per_clock = 0.292,\
    .l1_lines_per_clock = 1.67, .l1_sectors_per_clock = 2.5,                                               \
    .shared_wavefronts_per_clock = 0.71, .constant_passes_per_clock = 0.42, .atomic_sector_ns = 11.2,      \
    .atomics_per_clock = 3.34, .shared_atomics_per_clock = 29.3, .instructions_per_clock = 2.84,           \
    .latency_ns = 557, .loads_in_flight = 20.7, .overlap_exponent = 1.5, .block_ns = 81, .launch_us = 3.96

/* Per SM, by compute capability (CUDA Programming Guide, "Compute Capabilities"). */
#define SM_LIMITS(major_, minor_, shared_kb_, block_kb_, threads_, blocks_)                        \
    .major = major_, .minor = minor_, .shared_bytes_per_sm = (shared_kb_) << 10,                   \
    .shared_bytes_per_block = (block_kb_) << 10, .max_threads_per_sm = threads_, .max_blocks_per_sm = blocks_
#define TURING_7_5 SM_LIMITS(7, 5, 64, 64, 1024, 16)
#define AMPERE_8_0 SM_LIMITS(8, 0, 164, 163, 2048, 32)
#define AMPERE_8_6 SM_LIMITS(8, 6, 100, 99, 1536, 16)
#define ADA_8_9 SM_LIMITS(8, 9, 100, 99, 1536, 24)
#define HOPPER_9_0 SM_LIMITS(9, 0, 228, 227, 2048, 32)
#define BLACKWELL_10_0 SM_LIMITS(10, 0, 228, 227, 2048, 32)
#define BLACKWELL_12_0 SM_LIMITS(12, 0, 100, 99, 1536, 24)

/* A device from its datasheet (docs/model.md names each source); the rates
   are the H200's per SM and clock, and its share of the peak DRAM bandwidth. */
#define DATASHEET_PROFILE(key_, name_, limits_, sms_, l2_mb_, memory_gb_, bus_, peak_, sm_mhz_)          \
    { key_, "vendor datasheet; time coefficients scaled from the H200's",                                \
      { .name = name_, limits_, .sm_count = sms_,                                                        \
        .l2_bytes = (uint64_t)((l2_mb_) * 1048576.0), .memory_bytes = (uint64_t)((memory_gb_) * 1e9),     \
        .free_bytes = (uint64_t)((memory_gb_) * 1e9), .bus_width_bits = bus_,                            \
        .memory_clock_mhz = MEMORY_MHZ(peak_, bus_), .peak_gbs = peak_, .sm_clock_mhz = sm_mhz_ },         \
      { H200_RATES(H200_STREAM_SHARE * (peak_)) } }

const struct device_profile device_profiles[] = {
    { "h200", "measured on the GPU machine, 2026-11-30",
      { .name = "NVIDIA H200 (modelled)", HOPPER_9_0, .sm_count = 132, .l2_bytes = 60ull << 20,
        .memory_bytes = 150100000000ull, .free_bytes = 150100000000ull, .bus_width_bits = 6016,
        .memory_clock_mhz = 3201, .peak_gbs = 2 * 3201e6 * 6016 / 8 / 1e9, .sm_clock_mhz = 1980 },
      { H200_RATES(4300) } },
    DATASHEET_PROFILE("h100", "NVIDIA H100 SXM5 80GB (modelled)", HOPPER_9_0, 132, 50, 80, 5120, 3352, 1980),
    DATASHEET_PROFILE("h100-pcie", "NVIDIA H100 PCIe 80GB (modelled)", HOPPER_9_0, 114, 50, 80, 5120, 2039, 1755),
    DATASHEET_PROFILE("b200", "NVIDIA B200 (modelled)", BLACKWELL_10_0, 148, 126.5, 180, 8192, 8000, 1980),
    DATASHEET_PROFILE("a100", "NVIDIA A100 SXM4 80GB (modelled)", AMPERE_8_0, 108, 40, 80, 5120, 2039, 1410),
    DATASHEET_PROFILE("a100-40", "NVIDIA A100 SXM4 40GB (modelled)", AMPERE_8_0, 108, 40, 40, 5120, 1555, 1410),
    DATASHEET_PROFILE("l4", "NVIDIA L4 (modelled)", ADA_8_9, 58, 48, 24, 192, 300, 2040),
    DATASHEET_PROFILE("t4", "Tesla T4 (modelled)", TURING_7_5, 40, 4, 16, 256, 320, 1590),
    DATASHEET_PROFILE("rtx3080", "NVIDIA GeForce RTX 3080 (modelled)", AMPERE_8_6, 68, 5, 10, 320, 760, 1710),
    DATASHEET_PROFILE("rtx3090", "NVIDIA GeForce RTX 3090 (modelled)", AMPERE_8_6, 82, 6, 24, 384, 936, 1695),
    DATASHEET_PROFILE("rtx4070", "NVIDIA GeForce RTX 4070 (modelled)", ADA_8_9, 46, 36, 12, 192, 504, 2475),
    DATASHEET_PROFILE("rtx4090", "NVIDIA GeForce RTX 4090 (modelled)", ADA_8_9, 128, 72, 24, 384, 1008, 2520),
    /* The reference notes' card: Ada, 24 SMs, 128-bit GDDR6, 24 MB L2, 8 GB. */
    DATASHEET_PROFILE("rtx4060", "NVIDIA GeForce RTX 4060 (modelled)", ADA_8_9, 24, 24, 8, 128, 272, 2460),
    DATASHEET_PROFILE("rtx5090", "NVIDIA GeForce RTX 5090 (modelled)", BLACKWELL_12_0, 170, 96, 32, 512, 1792, 2407),
};
const int device_profile_count = sizeof device_profiles / sizeof device_profiles[0];

/* The SM limits of each compute capability, which bench/calibrate's
   coefficients name but do not measure. */
static const struct device_info sm_limits[] = {
    { TURING_7_5 }, { AMPERE_8_0 }, { AMPERE_8_6 }, { ADA_8_9 }, { HOPPER_9_0 }, { BLACKWELL_10_0 }, { BLACKWELL_12_0 },
};

/* Each rate bench/calibrate measures that a fitted rate of the H200 stands
   on, with its value on the H200 (bench/profiles/h200.coefficients,
   2026-12-02): another device's profile takes the H200's fitted rate times
   what calibrate measured there over this. tests/model/profile_file.sh checks
   that the H200's own file gives the h200 profile. */
static const struct {
    const char *key;
    double h200;
    size_t rate;   /* offsetof(struct time_rates, ...) */
} calibrated_rates[] = {
    { "dram_copy_gbs", 3981.511051, offsetof(struct time_rates, dram_gbs) },
    { "l2_load_sectors_per_clock", 1.101528559, offsetof(struct time_rates, l2_load_sectors_per_clock) },
    { "l2_load_sectors_per_clock", 1.101528559, offsetof(struct time_rates, l2_load_lines_per_clock) },
    { "l2_scattered_store_sectors_per_clock", 0.2962385022, offsetof(struct time_rates, l2_store_requests_per_clock) },
    { "l1_requests_per_clock", 2.860060453, offsetof(struct time_rates, l1_lines_per_clock) },
    { "l1_requests_per_clock", 2.860060453, offsetof(struct time_rates, l1_sectors_per_clock) },
    { "shared_conflict_wavefronts_per_clock", 0.9948163155, offsetof(struct time_rates, shared_wavefronts_per_clock) },
    { "constant_passes_per_clock", 0.4958929647, offsetof(struct time_rates, constant_passes_per_clock) },
    { "atomic_distinct_per_clock", 3.643044042, offsetof(struct time_rates, atomics_per_clock) },
    { "shared_atomic_per_clock", 31.92189238, offsetof(struct time_rates, shared_atomics_per_clock) },
    { "dram_latency_ns", 335.58464, offsetof(struct time_rates, latency_ns) },
    { "launch_overhead_us", 3.633919954, offsetof(struct time_rates, launch_us) },
};

/* The sizes and clocks a coefficients file must give, and where they go. */
enum { SIZE_SM_COUNT, SIZE_SM_CLOCK, SIZE_L2, SIZE_MEMORY_CLOCK, SIZE_BUS, SIZE_PEAK, SIZE_CAPABILITY, SIZE_COUNT };
static const char *const size_keys[SIZE_COUNT] = { "sm_count", "sm_clock_mhz", "l2_bytes", "memory_clock_mhz",
                                                   "bus_width_bits", "peak_gbs", "compute_capability" };

struct coefficients {
    double size[SIZE_COUNT];
    double rate[sizeof calibrated_rates / sizeof calibrated_rates[0]];
    double memory_bytes, buffer_bytes;   /* 0: not in the file */
    char name[128];
};

/* Takes one "KEY VALUE ..." line into c; lines of other keys are skipped. */
static void read_coefficient(struct coefficients *c, const char *key, double value)
{
    for (int i = 0; i < SIZE_COUNT; i++)
        if (strcmp(key, size_keys[i]) == 0)
            c->size[i] = value;
    for (size_t i = 0; i < sizeof calibrated_rates / sizeof calibrated_rates[0]; i++)
        if (strcmp(key, calibrated_rates[i].key) == 0)
            c->rate[i] = value;
    if (strcmp(key, "memory_bytes") == 0)
        c->memory_bytes = value;
    if (strcmp(key, "dram_buffer_bytes") == 0)
        c->buffer_bytes = value;
}

static int read_coefficients(FILE *file, struct coefficients *c, char *why, size_t why_size)
{
    char line[512], key[64];
    double value;
    *c = (struct coefficients){ .name = "" };
    while (fgets(line, sizeof line, file)) {
        if (line[0] == '#' && !c->name[0] && sscanf(line, "# %127[^:\n]", c->name) == 1)
            continue;   /* "# NVIDIA H200: coefficients ...": the device's name */
        if (sscanf(line, "%63s %lf", key, &value) == 2 && key[0] != '#')
            read_coefficient(c, key, value);
    }
    for (int i = 0; i < SIZE_COUNT; i++)
        if (!(c->size[i] > 0))
            return snprintf(why, why_size, SAY("it gives no %s", "文件中没有 %s"), size_keys[i]), -1;
    for (size_t i = 0; i < sizeof calibrated_rates / sizeof calibrated_rates[0]; i++)
        if (!(c->rate[i] > 0))
            return snprintf(why, why_size, SAY("it gives no %s", "文件中没有 %s"), calibrated_rates[i].key), -1;
    if (!(c->memory_bytes > 0) && !(c->buffer_bytes > 0))
        return snprintf(why, why_size, SAY("it gives no %s", "文件中没有 %s"), "memory_bytes"), -1;
    return 0;
}

static const struct device_info *limits_for(double capability)
{
    int major = (int)capability, minor = (int)lround((capability - major) * 10);
    for (size_t i = 0; i < sizeof sm_limits / sizeof sm_limits[0]; i++)
        if (sm_limits[i].major == major && sm_limits[i].minor == minor)
            return &sm_limits[i];
    return NULL;
}

static struct device_profile loaded;   /* profile_load's, found by its key after */

const struct device_profile *profile_load(const char *path, char *why, size_t why_size)
{
    static char key[256], name[160];
    struct coefficients c;
    FILE *file = fopen(path, "r");
    if (!file)
        return snprintf(why, why_size, "%s", strerror(errno)), NULL;
    int failed = read_coefficients(file, &c, why, why_size);
    fclose(file);
    const struct device_info *limits = failed ? NULL : limits_for(c.size[SIZE_CAPABILITY]);
    if (!failed && !limits)
        snprintf(why, why_size, SAY("compute capability %.1f: warplab knows the SM limits of 7.5, 8.0, 8.6, 8.9, 9.0, 10.0 and 12.0",
                                    "计算能力 %.1f：warplab 只知道 7.5、8.0、8.6、8.9、9.0、10.0 和 12.0 的 SM 限制"),
                 c.size[SIZE_CAPABILITY]);
    if (failed || !limits)
        return NULL;
    snprintf(key, sizeof key, "%s", path);
    snprintf(name, sizeof name, "%s (%s)", c.name[0] ? c.name : path, SAY("calibrated", "校准所得"));
    loaded = device_profiles[0];
    loaded.key = key;
    loaded.source = "bench/calibrate's coefficients; the H200's fitted rates scaled by them";
    loaded.info = *limits;
    snprintf(loaded.info.name, sizeof loaded.info.name, "%s", name);
    loaded.info.sm_count = (int)c.size[SIZE_SM_COUNT];
    loaded.info.sm_clock_mhz = c.size[SIZE_SM_CLOCK];
    loaded.info.l2_bytes = (uint64_t)c.size[SIZE_L2];
    loaded.info.memory_clock_mhz = c.size[SIZE_MEMORY_CLOCK];
    loaded.info.bus_width_bits = (int)c.size[SIZE_BUS];
    loaded.info.peak_gbs = c.size[SIZE_PEAK];
    /* calibrate allocated its DRAM buffer twice over: the device holds at least that */
    loaded.info.memory_bytes = loaded.info.free_bytes = (uint64_t)(c.memory_bytes > 0 ? c.memory_bytes : 2 * c.buffer_bytes);
    for (size_t i = 0; i < sizeof calibrated_rates / sizeof calibrated_rates[0]; i++)
        *(double *)((char *)&loaded.rates + calibrated_rates[i].rate) *= c.rate[i] / calibrated_rates[i].h200;
    return &loaded;
}

const struct device_profile *profile_find(const char *key)
{
    if (loaded.key && strcmp(loaded.key, key) == 0)
        return &loaded;
    for (int i = 0; i < device_profile_count; i++)
        if (strcmp(device_profiles[i].key, key) == 0)
            return &device_profiles[i];
    return NULL;
}

static const char *profile_key(const void *list, int i)
{
    return ((const struct device_profile *)list)[i].key;
}

const char *profile_names(char *out, size_t size)
{
    return join_names(out, size, device_profile_count, profile_key, device_profiles);
}

const struct device_profile *profile_for_device(const struct device_info *info)
{
    static struct device_profile derived;
    if (strstr(info->name, "H200"))
        return &device_profiles[0];
    derived = (struct device_profile){ "this device", "derived from its attributes and copy ceiling", *info,
                                       { H200_RATES(info->copy_gbs > 0 ? info->copy_gbs : H200_STREAM_SHARE * info->peak_gbs) } };
    return &derived;
}

const struct time_term_decl time_terms[TERM_COUNT] = {
    [TERM_DRAM] = { "dram", "DRAM bandwidth", "DRAM 带宽" },
    [TERM_L2_LOADS] = { "l2_loads", "L2 loads: the lines and sectors L1 missed", "L2 读取：L1 未命中的缓存行和扇区" },
    [TERM_L2_STORES] = { "l2_stores", "L2 store sectors", "L2 写入扇区" },
    [TERM_L1_LINES] = { "l1_lines", "L1 loads: lines looked up and sectors read", "L1 读取：查找的缓存行与读出的扇区" },
    [TERM_SHARED] = { "shared", "shared-memory wavefronts", "共享内存 wavefront" },
    [TERM_CONSTANT] = { "constant", "constant-cache passes", "常量缓存轮次" },
    [TERM_ATOMICS] = { "atomics", "atomics on the same L2 sectors", "同一批 L2 扇区上的原子操作" },
    [TERM_ISSUE] = { "issue", "issuing instructions: more work than memory traffic", "发出指令：计算多于访存" },
    [TERM_LATENCY] = { "latency", "latency: too few loads in flight", "延迟：在途读取太少" },
    [TERM_BLOCKS] = { "blocks", "starting blocks: few threads each", "启动线程块：每块线程太少" },
    [TERM_LAUNCH] = { "launch", "the launch's fixed cost: too little work", "启动的固定开销：工作量太小" },
};

/* Warps one SM holds at once: the fewest that its thread, block,
   shared-memory and register limits allow. A warp's registers are
   allocated REGISTER_UNIT at a time. */
static int resident_warps(const struct device_info *d, const struct launch_geometry *g)
{
    int warps_per_block = (g->block_threads + WARP_SIZE - 1) / WARP_SIZE;
    long long blocks = d->max_threads_per_sm / (warps_per_block * WARP_SIZE);
    if (blocks > d->max_blocks_per_sm)
        blocks = d->max_blocks_per_sm;
    if (g->shared_bytes > 0 && (long long)(d->shared_bytes_per_sm / g->shared_bytes) < blocks)
        blocks = (long long)(d->shared_bytes_per_sm / g->shared_bytes);
    if (g->registers > 0) {
        long long warp_registers = (g->registers * WARP_SIZE + REGISTER_UNIT - 1) / REGISTER_UNIT * REGISTER_UNIT;
        long long fit = REGISTERS_PER_SM / warp_registers / warps_per_block;
        if (fit < blocks)
            blocks = fit;
    }
    return (int)(blocks > 0 ? blocks : 1) * warps_per_block;
}

/* DRAM's read rate when the reads use `use` of each 128-byte line. */
static double sparse_gbs(const struct time_rates *r, double use)
{
    return r->dram_gbs * (use < 1 ? pow(use, r->sparse_exponent) : 1);
}

/* DRAM: reads slowed when they use only part of each 128-byte line (read
   again after L2 let them go, as much of a line as the loads' L1 misses
   take); writes at the streaming rate, less what L2 still holds when the
   kernel ends. */
static double dram_ms(const struct time_rates *r, const struct model_counts *c, uint64_t l2_bytes)
{
    const struct dram_estimate *d = &c->dram;
    double first = (double)(d->read_bytes - d->reread_bytes);
    double first_use = d->read_lines ? first / (128.0 * d->read_lines) : 1;
    double again_use = c->load.l2_lines ? (double)c->load.l2_sectors / (4.0 * c->load.l2_lines) : 1;
    double written = (double)d->write_bytes - r->l2_held_writes * (double)l2_bytes;
    return (first / sparse_gbs(r, first_use) + (double)d->reread_bytes / sparse_gbs(r, again_use) +
            (written > 0 ? written : 0) / r->dram_gbs) * 1e-6;
}

/* Atomics: requests on one sector wait their turn in L2, and all of them
   share L2's atomic units; shared-memory ones, the SM's. */
static double atomics_ms(const struct time_rates *r, const struct model_counts *c, double sm_clocks_per_ms)
{
    uint64_t hottest = c->atomic.hottest_sector_requests > c->reduction.hottest_sector_requests
                           ? c->atomic.hottest_sector_requests : c->reduction.hottest_sector_requests;
    double serial = (double)hottest * r->atomic_sector_ns * 1e-6;
    double global = (double)(c->atomic.operations + c->reduction.operations) / (r->atomics_per_clock * sm_clocks_per_ms);
    double shared = (double)c->shared_atomic.operations / (r->shared_atomics_per_clock * sm_clocks_per_ms);
    double most = serial > global ? serial : global;
    return most > shared ? most : shared;
}

/* Little's law: each wave of resident warps waits a round trip for its
   first load, and another for every loads_in_flight more of its loads, or
   for each load of its chain when they wait for each other; the launch's
   fixed cost holds the first wave's first round trip. cp.async's copies
   (LDGSTS) do not hold the warp. */
static double latency_ms(const struct time_rates *r, const struct model_counts *c, const struct launch_geometry *g,
                         double warps, double waves)
{
    if (c->load.requests == 0)
        return 0;
    double loads_per_warp = (double)(c->load.requests - c->ldgsts.requests) / warps;
    double round_trips = 1 + (loads_per_warp > 1 ? (loads_per_warp - 1) / r->loads_in_flight : 0);
    if (round_trips < g->load_chain)
        round_trips = g->load_chain;
    return (waves * round_trips - 1) * r->latency_ns * 1e-6;
}

/* How far DRAM's time and the loads' waiting overlap. DRAM bytes no warp
   waits for (write-allocate fills, write-backs) fill the gaps while warps
   wait, so where they outnumber the bytes loads wait for (more than a
   copy's one to one), the exponent grows by their ratio: a kernel of
   partial stores streams at DRAM's rate however long its loads take. */
static double overlap_exponent(const struct time_rates *r, const struct dram_estimate *d)
{
    double waited = (double)(d->read_bytes - d->write_allocate_bytes);
    double unwaited = (double)d->write_allocate_bytes + (double)d->write_bytes;
    return waited > 0 && unwaited > waited ? r->overlap_exponent * unwaited / waited : r->overlap_exponent;
}

struct time_estimate estimate_time(const struct device_profile *profile, const struct model_counts *counts,
                                   const struct launch_geometry *shape)
{
    const struct time_rates *r = &profile->rates;
    struct time_estimate e = { .resident_warps = resident_warps(&profile->info, shape), .registers = shape->registers };
    double sm_clocks_per_ms = profile->info.sm_count * profile->info.sm_clock_mhz * 1e3;
    double blocks = (double)(shape->threads / shape->block_threads);
    e.warps = blocks * ((shape->block_threads + WARP_SIZE - 1) / WARP_SIZE);
    e.waves = ceil(e.warps / ((double)e.resident_warps * profile->info.sm_count));
    e.term_ms[TERM_DRAM] = dram_ms(r, counts, profile->info.l2_bytes);
    e.term_ms[TERM_L2_LOADS] = ((double)counts->load.l2_lines / r->l2_load_lines_per_clock +
                                (double)counts->load.l2_sectors / r->l2_load_sectors_per_clock) / sm_clocks_per_ms;
    e.term_ms[TERM_L2_STORES] = (double)counts->store.lines / (r->l2_store_requests_per_clock * sm_clocks_per_ms);
    e.term_ms[TERM_L1_LINES] = ((double)counts->load.lines / r->l1_lines_per_clock +
                                (double)counts->load.sectors / r->l1_sectors_per_clock) / sm_clocks_per_ms;
    e.term_ms[TERM_SHARED] = (double)(counts->shared_load.wavefronts + counts->shared_store.wavefronts) /
                             (r->shared_wavefronts_per_clock * sm_clocks_per_ms);
    e.term_ms[TERM_CONSTANT] = (double)counts->constant.passes / (r->constant_passes_per_clock * sm_clocks_per_ms);
    e.term_ms[TERM_ATOMICS] = atomics_ms(r, counts, sm_clocks_per_ms);
    e.term_ms[TERM_ISSUE] = (double)counts->instructions / (r->instructions_per_clock * sm_clocks_per_ms);
    e.term_ms[TERM_LATENCY] = latency_ms(r, counts, shape, e.warps, e.waves);
    e.term_ms[TERM_BLOCKS] = blocks / profile->info.sm_count * r->block_ns * 1e-6;
    /* DRAM's time and the loads' waiting add up in part (the bytes a wave
       asks for stream only after its first round trip); every other unit
       overlaps them. */
    double p = overlap_exponent(r, &counts->dram);
    double memory_ms = pow(pow(e.term_ms[TERM_DRAM], p) + pow(e.term_ms[TERM_LATENCY], p), 1 / p), longest = memory_ms;
    e.limit = e.term_ms[TERM_LATENCY] > e.term_ms[TERM_DRAM] ? TERM_LATENCY : TERM_DRAM;
    for (int t = 0; t < TERM_LAUNCH; t++)
        if (t != TERM_DRAM && t != TERM_LATENCY && e.term_ms[t] > longest) {
            e.limit = t;
            longest = e.term_ms[t];
        }
    e.term_ms[TERM_LAUNCH] = r->launch_us * 1e-3;
    if (e.term_ms[TERM_LAUNCH] > longest)
        e.limit = TERM_LAUNCH;
    e.time_ms = e.term_ms[TERM_LAUNCH] + longest;
    return e;
}
