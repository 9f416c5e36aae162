/*
** profiles.c — one row per modelled device, and the time the model gives a
** launch on it: a term for each unit that can limit the launch, the largest
** named as its limit (docs/model.md, "Time"). The H200's rates were fitted
** to 210 launches measured on the GPU machine (2026-12-02); the other rows
** take their sizes and peaks from the vendors' datasheets and keep the
** H200's rates per SM and clock.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "output.h"
#include "profiles.h"

/* peak = 2 x memory clock x bus width / 8, so the clock is derived from the datasheet peak. */
#define MEMORY_MHZ(peak_gbs, bus_bits) ((peak_gbs) * 1e3 * 8 / (2.0 * (bus_bits)))

/* The share of its peak DRAM bandwidth a streaming kernel reaches (the H200: 4.3 of 4.81 TB/s). */
#define H200_STREAM_SHARE 0.893
/* 64 K 32-bit registers an SM, on every compute capability from 7.5 to 12.0. */
enum { REGISTERS_PER_SM = 65536 };

/* The H200's rates: fitted to its measurements on the GPU machine
   (2026-12-02, bench/data/h200-model-time.json; docs/model.md gives each
   one's source). */
#define H200_RATES(dram_gbs_)                                                                          \
    .dram_gbs = (dram_gbs_), .sparse_exponent = 0.21, .l2_held_writes = 0.5,                               \
    .l2_load_sectors_per_clock = 1.55, .l2_store_requests_per_clock = 0.292, .l1_lines_per_clock = 5.1,    \
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

const struct device_profile *profile_find(const char *key)
{
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
    [TERM_L2_LOADS] = { "l2_loads", "L2 load sectors", "L2 读取扇区" },
    [TERM_L2_STORES] = { "l2_stores", "L2 store sectors", "L2 写入扇区" },
    [TERM_L1_LINES] = { "l1_lines", "L1 look-ups (lines a request)", "L1 查找（每请求的缓存行）" },
    [TERM_SHARED] = { "shared", "shared-memory wavefronts", "共享内存 wavefront" },
    [TERM_CONSTANT] = { "constant", "constant-cache passes", "常量缓存轮次" },
    [TERM_ATOMICS] = { "atomics", "atomics on the same L2 sectors", "同一批 L2 扇区上的原子操作" },
    [TERM_ISSUE] = { "issue", "issuing instructions: more work than memory traffic", "发出指令：计算多于访存" },
    [TERM_LATENCY] = { "latency", "latency: too few loads in flight", "延迟：在途读取太少" },
    [TERM_BLOCKS] = { "blocks", "starting blocks: few threads each", "启动线程块：每块线程太少" },
    [TERM_LAUNCH] = { "launch", "the launch's fixed cost: too little work", "启动的固定开销：工作量太小" },
};

/* Warps one SM holds at once: the fewest that its thread, block and shared-memory limits allow. */
static int resident_warps(const struct device_info *d, const struct launch_geometry *g)
{
    int warps_per_block = (g->block_threads + WARP_SIZE - 1) / WARP_SIZE;
    long long blocks = d->max_threads_per_sm / (warps_per_block * WARP_SIZE);
    if (blocks > d->max_blocks_per_sm)
        blocks = d->max_blocks_per_sm;
    if (g->shared_bytes > 0 && (long long)(d->shared_bytes_per_sm / g->shared_bytes) < blocks)
        blocks = (long long)(d->shared_bytes_per_sm / g->shared_bytes);
    if (g->registers > 0 && REGISTERS_PER_SM / (g->registers * warps_per_block * WARP_SIZE) < blocks)
        blocks = REGISTERS_PER_SM / (g->registers * warps_per_block * WARP_SIZE);
    return (int)(blocks > 0 ? blocks : 1) * warps_per_block;
}

/* DRAM: reads slowed when they use only part of each 128-byte line; writes
   at the streaming rate, less what L2 still holds when the kernel ends. */
static double dram_ms(const struct time_rates *r, const struct dram_estimate *d, uint64_t l2_bytes)
{
    double line_use = d->read_lines ? (double)d->read_bytes / (128.0 * d->read_lines) : 1;
    double read_gbs = r->dram_gbs * (line_use < 1 ? pow(line_use, r->sparse_exponent) : 1);
    double written = (double)d->write_bytes - r->l2_held_writes * (double)l2_bytes;
    return ((double)d->read_bytes / read_gbs + (written > 0 ? written : 0) / r->dram_gbs) * 1e-6;
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

struct time_estimate estimate_time(const struct device_profile *profile, const struct model_counts *counts,
                                   const struct launch_geometry *shape)
{
    const struct time_rates *r = &profile->rates;
    struct time_estimate e = { .resident_warps = resident_warps(&profile->info, shape) };
    double sm_clocks_per_ms = profile->info.sm_count * profile->info.sm_clock_mhz * 1e3;
    double blocks = (double)(shape->threads / shape->block_threads);
    e.warps = blocks * ((shape->block_threads + WARP_SIZE - 1) / WARP_SIZE);
    e.waves = ceil(e.warps / ((double)e.resident_warps * profile->info.sm_count));
    e.term_ms[TERM_DRAM] = dram_ms(r, &counts->dram, profile->info.l2_bytes);
    e.term_ms[TERM_L2_LOADS] = (double)counts->load.sectors / (r->l2_load_sectors_per_clock * sm_clocks_per_ms);
    e.term_ms[TERM_L2_STORES] = (double)counts->store.lines / (r->l2_store_requests_per_clock * sm_clocks_per_ms);
    e.term_ms[TERM_L1_LINES] = (double)counts->load.lines / (r->l1_lines_per_clock * sm_clocks_per_ms);
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
    double p = r->overlap_exponent;
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
