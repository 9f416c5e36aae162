/*
** profiles.c — one row per modelled device. The H200's time coefficients
** were fitted to its measurements on the GPU machine (2026-11-30): the
** copy ceiling, copy with float/float2/float4, and strided with stride 32;
** the other rows take their sizes and peaks from the vendors' datasheets and
** scale the H200's coefficients by SM count and clock.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "output.h"
#include "profiles.h"

/* peak = 2 x memory clock x bus width / 8, so the clock is derived from the datasheet peak. */
#define MEMORY_MHZ(peak_gbs, bus_bits) ((peak_gbs) * 1e3 * 8 / (2.0 * (bus_bits)))

/* The H200's: 547 GB/s per byte each thread reads in flight (copy with float:
   2.68 TB/s with its writes at the streaming rate); the sector rate is a bound
   none of the measured launches reached (1.76 per SM-clock); constant-cache
   passes are taken as one per SM-clock until measured. */
static const double H200_INFLIGHT_PER_SM = 547.0 / 132;
static const double CONSTANT_PASSES_PER_CLOCK = 1.0;
/* Shared memory serves one wavefront (32 banks of 4 bytes) per SM per clock. */
static const double SHARED_WAVEFRONTS_PER_CLOCK = 1.0;
static const double H200_SECTORS_PER_CLOCK = 1.76;
/* strided 32 at n = 2^24 (one 64-byte half of each 128-byte line read, 1.07 GB)
   moved 3.85 TB/s where streaming reaches about 4.27: 0.90 = 0.5 ^ 0.15 */
static const double H200_SPARSE_EXPONENT = 0.15;

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

/* A device from its datasheet (docs/model.md names each source); the time
   coefficients are the H200's, scaled by SM count and peak. */
#define DATASHEET_PROFILE(key_, name_, limits_, sms_, l2_mb_, memory_gb_, bus_, peak_, sm_mhz_)          \
    { key_, "vendor datasheet; time coefficients scaled from the H200's",                                \
      { .name = name_, limits_, .sm_count = sms_,                                                        \
        .l2_bytes = (uint64_t)((l2_mb_) * 1048576.0), .memory_bytes = (uint64_t)((memory_gb_) * 1e9),     \
        .free_bytes = (uint64_t)((memory_gb_) * 1e9), .bus_width_bits = bus_,                            \
        .memory_clock_mhz = MEMORY_MHZ(peak_, bus_), .peak_gbs = peak_, .sm_clock_mhz = sm_mhz_ },         \
      0.88 * (peak_), H200_INFLIGHT_PER_SM * (sms_), H200_SECTORS_PER_CLOCK, H200_SPARSE_EXPONENT, 3.0 }

const struct device_profile device_profiles[] = {
    { "h200", "measured on the GPU machine, 2026-11-30",
      { .name = "NVIDIA H200 (modelled)", HOPPER_9_0, .sm_count = 132, .l2_bytes = 60ull << 20,
        .memory_bytes = 150100000000ull, .free_bytes = 150100000000ull, .bus_width_bits = 6016,
        .memory_clock_mhz = 3201, .peak_gbs = 2 * 3201e6 * 6016 / 8 / 1e9, .sm_clock_mhz = 1980 },
      4300, 547, H200_SECTORS_PER_CLOCK, H200_SPARSE_EXPONENT, 3.0 },
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
                                       info->copy_gbs > 0 ? info->copy_gbs : 0.88 * info->peak_gbs,
                                       H200_INFLIGHT_PER_SM * info->sm_count, H200_SECTORS_PER_CLOCK,
                                       H200_SPARSE_EXPONENT, 3.0 };
    return &derived;
}

struct time_estimate estimate_time(const struct device_profile *profile, const struct model_counts *counts,
                                   long long threads)
{
    struct time_estimate e = { 0 };
    double reads = (double)counts->dram.read_bytes, writes = (double)counts->dram.write_bytes;
    double in_flight = threads > 0 ? reads / (double)threads : 0;
    double inflight_gbs = profile->inflight_gbs_per_byte * in_flight;
    /* the slower of the two limits dominates, and near the crossing both cost */
    double gbs = inflight_gbs > 0 ? 1 / sqrt(1 / (profile->stream_gbs * profile->stream_gbs) +
                                             1 / (inflight_gbs * inflight_gbs))
                                  : profile->stream_gbs;
    double line_use = counts->dram.read_lines ? (double)counts->dram.read_bytes / (128.0 * counts->dram.read_lines) : 1;
    if (line_use < 1)
        gbs *= pow(line_use, profile->sparse_exponent);   /* scattered reads use DRAM poorly */
    double sectors = (double)(counts->load.sectors + counts->store.sectors);
    double sm_clocks_per_ms = profile->info.sm_count * profile->info.sm_clock_mhz * 1e3;
    /* reads wait on what each thread keeps in flight; writes drain at the streaming rate */
    e.dram_ms = (reads / (gbs * 1e9) + writes / (profile->stream_gbs * 1e9)) * 1e3;
    double wavefronts = (double)(counts->shared_load.wavefronts + counts->shared_store.wavefronts);
    e.sectors_ms = sectors / (profile->sectors_per_clock_per_sm * sm_clocks_per_ms) +
                   (double)counts->constant.passes / (CONSTANT_PASSES_PER_CLOCK * sm_clocks_per_ms) +
                   wavefronts / (SHARED_WAVEFRONTS_PER_CLOCK * sm_clocks_per_ms);
    e.limit = e.sectors_ms > e.dram_ms ? "the SM's memory pipelines (L1 sectors, shared wavefronts, constant passes)"
            : line_use < 0.9 ? "DRAM reads scattered over 128-byte lines"
            : reads > 0 && inflight_gbs < profile->stream_gbs ? "bytes in flight per thread" : "DRAM bandwidth";
    e.time_ms = profile->overhead_us * 1e-3 + (e.sectors_ms > e.dram_ms ? e.sectors_ms : e.dram_ms);
    return e;
}
