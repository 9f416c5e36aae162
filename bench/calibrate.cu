// calibrate.cu: microbenchmarks that measure, on the GPU they run on, each
// rate warplab's time model needs (docs/model.md, "Calibrating a profile"):
// DRAM streaming and scattered sectors, L2 load and store sectors, L1,
// shared-memory wavefronts, constant-cache passes, atomics, load latency and
// launch overhead. Standalone (no warplab code); bench/calibrate builds it,
// runs it and turns its output into bench/profiles/<key>.coefficients.
//
// Output: one line per measurement, `key value unit  # what`, key and value
// first so that `awk '{print $1, $2}'` reads it. Throughputs are medians of
// 9 event-timed launches after a warm-up, each launch sized to last >= 1 ms;
// DRAM measurements empty the L2 before every launch, L2 measurements use a
// buffer of at most a quarter of the L2, warmed by the warm-up launch.
// Rates "per clock" are per SM per SM clock (the clock measured by spin_clock)
// unless the line says "per GPU clock".
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) check((call), #call, __FILE__, __LINE__)

// A CUDA failure ends the program with the call that failed: a standalone
// benchmark has nothing to recover.
static void check(cudaError_t status, const char *call, const char *file, int line)
{
    if (status == cudaSuccess) return;
    fprintf(stderr, "calibrate: %s failed (%s:%d): %s\n", call, file, line, cudaGetErrorString(status));
    exit(1);
}

// Every kernel's results end here when `never` (always 0 at run time) is set,
// so the compiler must compute them.
__device__ float g_sink;
__device__ __forceinline__ void consume(float value, int never)
{
    if (never) g_sink = value;
}

__device__ __forceinline__ long long thread_index() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ long long thread_count() { return (long long)gridDim.x * blockDim.x; }

// A bijection of [0, 2^bits) that scatters consecutive indices over the whole
// range (odd multipliers and xor-shifts are invertible mod 2^bits), so that
// distinct lanes touch distinct sectors spread over every memory partition.
__device__ __forceinline__ unsigned long long scatter(unsigned long long i, int bits)
{
    unsigned long long mask = (1ull << bits) - 1;
    int shift = (bits + 1) / 2;
    i = (i * 0x9E3779B97F4A7C15ull) & mask;
    i ^= i >> shift;
    i = (i * 0xC2B2AE3D27D4EB4Full) & mask;
    i ^= i >> shift;
    return i;
}

// Loads and stores as PTX the compiler may not remove or merge, so that a
// loop re-reading a small buffer issues every access it is written with.
__device__ __forceinline__ float load_cg(const float *p)
{
    float v; asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p)); return v;
}
__device__ __forceinline__ float load_ca_vec4_sum(const float4 *p)
{
    float x, y, z, w;
    asm volatile("ld.global.ca.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(p));
    return x + y + z + w;
}
__device__ __forceinline__ void store_wb(float *p, float v)
{
    asm volatile("st.global.f32 [%0], %1;" :: "l"(p), "f"(v) : "memory");
}
__device__ __forceinline__ float load_shared(unsigned address)
{
    float v; asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(address)); return v;
}

// Repetition counts are multiples of UNROLL, so that each thread keeps UNROLL
// independent accesses in flight.
#define UNROLL 8

/* ---- DRAM ---- */

__global__ void dram_read(const float4 *buf, long long count, int never)
{
    float acc = 0;
#pragma unroll 4
    for (long long i = thread_index(); i < count; i += thread_count()) {
        float4 v = buf[i];
        acc += v.x + v.y + v.z + v.w;
    }
    consume(acc, never);
}

__global__ void dram_write(float4 *buf, long long count, float value)
{
#pragma unroll 4
    for (long long i = thread_index(); i < count; i += thread_count())
        buf[i] = make_float4(value, value, value, value);
}

__global__ void dram_copy(float4 *dst, const float4 *src, long long count)
{
#pragma unroll 4
    for (long long i = thread_index(); i < count; i += thread_count())
        dst[i] = src[i];
}

// The buffer is `regions` regions of 2^bits units (sectors or blocks), each
// 8x the L2 or more; access i goes to a scattered unit of region i >> bits, so
// the grid works through one region at a time (its footprint at any moment is
// 8x the L2, not the whole buffer) and reads no unit twice in a launch.
__device__ __forceinline__ long long scattered_unit(long long i, int bits)
{
    return (long long)(((unsigned long long)(i >> bits) << bits) | scatter(i & ((1ll << bits) - 1), bits));
}

// One 4-byte word of each 32-byte sector, in scattered order.
__global__ void dram_sectors(const float *buf, int bits, int regions, int never)
{
    float acc = 0;
    long long sectors = (long long)regions << bits;
#pragma unroll 4
    for (long long i = thread_index(); i < sectors; i += thread_count())
        acc += buf[scattered_unit(i, bits) * 8];
    consume(acc, never);
}

// Each 64-byte block whole, one block per lane, in scattered order.
__global__ void dram_blocks64(const float4 *buf, int bits, int regions, int never)
{
    float acc = 0;
    long long blocks = (long long)regions << bits;
#pragma unroll 2
    for (long long i = thread_index(); i < blocks; i += thread_count()) {
        const float4 *block = buf + scattered_unit(i, bits) * 4;
        for (int j = 0; j < 4; j++) {
            float4 v = block[j];
            acc += v.x + v.y + v.z + v.w;
        }
    }
    consume(acc, never);
}

// Empties the L2 of what a measurement left: harness.cu's way, a write then a read of 2x the L2.
__global__ void read_all(const int4 *buf, long long count, int never)
{
    int acc = 0;
    for (long long i = thread_index(); i < count; i += thread_count())
        acc ^= __ldcg(buf + i).x;
    consume((float)acc, never);
}

/* ---- L2 (data resident in L2, L1 bypassed) ---- */

// Coalesced: each warp reads 32 consecutive floats (4 sectors a request); count a power of 2.
__global__ void l2_load(const float *buf, long long count, long long reps, int never)
{
    float acc = 0;
    long long tid = thread_index(), threads = thread_count();
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += load_cg(buf + ((tid + (k + u) * threads) & (count - 1)));
    consume(acc, never);
}

// Each lane one word of a different scattered sector (32 sectors a request).
__global__ void l2_load_scattered(const float *buf, int sector_bits, long long reps, int never)
{
    float acc = 0;
    long long tid = thread_index(), threads = thread_count(), mask = (1ll << sector_bits) - 1;
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += load_cg(buf + scatter((tid + (k + u) * threads) & mask, sector_bits) * 8);
    consume(acc, never);
}

__global__ void l2_store(float *buf, long long count, long long reps)
{
    long long tid = thread_index(), threads = thread_count();
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            store_wb(buf + ((tid + (k + u) * threads) & (count - 1)), (float)u);
}

// Each lane 4 bytes of a different sector: 32 partial-sector writes a request.
__global__ void l2_store_scattered(float *buf, int sector_bits, long long reps)
{
    long long tid = thread_index(), threads = thread_count(), mask = (1ll << sector_bits) - 1;
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            store_wb(buf + scatter((tid + (k + u) * threads) & mask, sector_bits) * 8, (float)u);
}

/* ---- L1, shared memory, constant cache ---- */

// Loads that hit L1: every block re-reads one 4 KiB buffer (256 float4). spread 1:
// a warp reads 32 consecutive float4 (16 sectors a request); spread 0: all lanes
// one float4 (1 sector a request).
__global__ void l1_load(const float4 *buf, long long reps, unsigned spread, int never)
{
    float acc = 0;
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += load_ca_vec4_sum(buf + ((lane * spread + (unsigned)(k + u + warp) * 32) & 255));
    consume(acc, never);
}

// 4-byte shared loads; conflict 0: each lane its own bank (1 wavefront a request),
// conflict 1: every lane a different word of one bank (32 wavefronts a request).
__global__ void shared_load(long long reps, int conflict, int never)
{
    __shared__ float words[32 * 32];
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) words[i] = (float)i;
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(words);
    unsigned lane = threadIdx.x & 31;
    float acc = 0;
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            unsigned column = (unsigned)(k + u) & 31;
            unsigned word = conflict ? lane * 32 + column : column * 32 + lane;
            acc += load_shared(base + 4 * word);
        }
    consume(acc, never);
}

__constant__ float c_table[256];

// Constant loads; spread 1: each lane a distinct address (32 passes a request),
// spread 0: all lanes one address (a broadcast, 1 pass).
__global__ void constant_load(long long reps, unsigned spread, int never)
{
    float acc = 0;
    unsigned lane = threadIdx.x & 31;
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += c_table[(lane * spread + (unsigned)(k + u)) & 255];
    consume(acc, never);
}

/* ---- atomics (PTX red/atom, so the compiler cannot aggregate a warp's lanes) ---- */

__device__ __forceinline__ void red_add(unsigned *p, unsigned v)
{
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned atom_add(unsigned *p, unsigned v)
{
    unsigned old; asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory"); return old;
}

// Every lane its own word (consecutive lanes, consecutive words), L2-resident; RED
// when the result is unused, ATOM when it is summed.
template <bool use_result>
__global__ void atomic_distinct(unsigned *buf, long long words, long long reps, int never)
{
    long long tid = thread_index(), threads = thread_count();
    unsigned acc = 0;
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            unsigned *p = buf + ((tid + (k + u) * threads) & (words - 1));
            if (use_result) acc += atom_add(p, 1);
            else red_add(p, 1);
        }
    consume((float)acc, never);
}

// Every lane of every warp adds to one word.
__global__ void atomic_same_address(unsigned *word, long long reps)
{
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            red_add(word, threadIdx.x);
}

// The 32 lanes of a warp add to one word, a different word (and line) for each
// warp at each step.
__global__ void atomic_warp_same_address(unsigned *buf, long long words, long long reps)
{
    long long warp = thread_index() >> 5, warps = thread_count() >> 5, lines = words / 32;
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            red_add(buf + ((warp + (k + u) * warps) & (lines - 1)) * 32, threadIdx.x);
}

// Shared-memory atomics; same 0: each lane its own word (no bank conflict),
// same 1: every lane of the block one word.
__global__ void shared_atomic(long long reps, int same, int never)
{
    __shared__ unsigned words[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) words[i] = 0;
    __syncthreads();
    unsigned address = (unsigned)__cvta_generic_to_shared(words + (same ? 0 : threadIdx.x));
    for (long long k = 0; k < reps; k += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            asm volatile("red.shared.add.u32 [%0], %1;" :: "r"(address), "r"(u + 1) : "memory");
    __syncthreads();
    consume((float)words[threadIdx.x], never);
}

/* ---- latency, clock, launch ---- */

template <bool bypass_l1>
__device__ __forceinline__ const unsigned long long *next_node(const unsigned long long *p)
{
    unsigned long long next;
    if (bypass_l1) asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(next) : "l"(p));
    else asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(next) : "l"(p));
    return (const unsigned long long *)next;
}

// One thread follows a pointer chain: `warm` untimed steps, then `hops` steps
// timed in SM clocks and in ns (%globaltimer); out[0] = clocks, out[1] = ns.
template <bool bypass_l1>
__global__ void chase(const unsigned long long *start, long long warm, long long hops, long long *out, int never)
{
    const unsigned long long *p = start;
    for (long long i = 0; i < warm; i++) p = next_node<bypass_l1>(p);
    unsigned long long ns0, ns1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns0));
    long long t0 = clock64();
    for (long long i = 0; i < hops; i++) p = next_node<bypass_l1>(p);
    long long t1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns1));
    out[0] = t1 - t0;
    out[1] = (long long)(ns1 - ns0);
    consume((float)(unsigned long long)p, never);
}

// Each block's first thread waits until `cycles` SM clocks have passed.
__global__ void spin_clock(long long cycles)
{
    if (threadIdx.x != 0) return;
    long long start = clock64();
    while (clock64() - start < cycles) {}
}

__global__ void empty_kernel() {}

/* ---- host ---- */

struct Gpu {
    int sms, l2_bytes, clock_khz, memory_clock_khz, bus_bits, threads_per_sm;
    double clock_hz;           // measured by spin_clock
    unsigned blocks, threads;  // a full-occupancy grid of 256-thread blocks
    int4 *flush; size_t flush_bytes;
    cudaEvent_t start, stop;
};
static Gpu gpu;

static void print(const char *key, double value, const char *unit, const char *what)
{
    printf("%-40s %-14.10g %-18s # %s\n", key, value, unit, what);
    fflush(stdout);
}

static void empty_l2()
{
    CHECK(cudaMemset(gpu.flush, 1, gpu.flush_bytes));
    read_all<<<gpu.sms * 4, 512>>>(gpu.flush, (long long)(gpu.flush_bytes / 16), 0);
    CHECK(cudaGetLastError());
}

// Milliseconds of one event-timed launch.
template <class Launch> static float time_once(Launch launch, bool cold)
{
    if (cold) empty_l2();
    CHECK(cudaEventRecord(gpu.start));
    launch();
    CHECK(cudaEventRecord(gpu.stop));
    CHECK(cudaEventSynchronize(gpu.stop));
    CHECK(cudaGetLastError());
    float ms; CHECK(cudaEventElapsedTime(&ms, gpu.start, gpu.stop));
    return ms;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Median milliseconds of 9 launches after a warm-up; cold empties the L2 before each.
template <class Launch> static double median_ms(Launch launch, bool cold)
{
    time_once(launch, cold);
    std::vector<double> samples;
    for (int s = 0; s < 9; s++) samples.push_back(time_once(launch, cold));
    return median(samples);
}

// Median milliseconds of launch(reps) for the smallest multiple of UNROLL (grown
// from `reps`) that lasts >= 1.5 ms, so every sample lasts >= 1 ms; `reps` gets it.
template <class Launch> static double scaled_ms(Launch launch, long long &reps)
{
    time_once([&] { launch(reps); }, false);   // warm (fills L2, loads the module)
    for (;;) {
        double ms = time_once([&] { launch(reps); }, false);
        if (ms >= 1.5 || reps >= (1ll << 34)) break;
        long long grown = ms < 0.02 ? reps * 64 : (long long)(reps * 2.0 / ms);
        reps = (std::max(grown, reps * 2) + UNROLL - 1) / UNROLL * UNROLL;
    }
    return median_ms([&] { launch(reps); }, false);
}

// Events (operations, sectors, wavefronts) per SM per SM clock.
static double per_sm_clock(double events, double ms)
{
    return events / (gpu.sms * gpu.clock_hz * ms * 1e-3);
}

static long long pow2_floor(long long x) { long long p = 1; while (p * 2 <= x) p *= 2; return p; }
static long long pow2_ceil(long long x) { long long p = 1; while (p < x) p *= 2; return p; }
static int log2_of(long long pow2) { int b = 0; while ((1ll << b) < pow2) b++; return b; }

static void device_facts()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaDeviceGetAttribute(&gpu.sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&gpu.l2_bytes, cudaDevAttrL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&gpu.clock_khz, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&gpu.memory_clock_khz, cudaDevAttrMemoryClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&gpu.bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    CHECK(cudaDeviceGetAttribute(&gpu.threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    gpu.blocks = gpu.sms * (gpu.threads_per_sm / 256);
    gpu.threads = gpu.blocks * 256;
    char name[sizeof prop.name];
    int i = 0;
    for (; prop.name[i] && i < (int)sizeof name - 1; i++) name[i] = prop.name[i] == ' ' ? '_' : prop.name[i];
    name[i] = 0;
    printf("%-40s %-14s %-18s # %s\n", "device_name", name, "-", "the device's name, spaces as _");
    print("compute_capability", prop.major + prop.minor / 10.0, "-", "major.minor");
    print("sm_count", gpu.sms, "SMs", "multiprocessors");
    print("sm_clock_mhz", gpu.clock_khz / 1e3, "MHz", "the SM clock the device reports");
    print("l2_bytes", gpu.l2_bytes, "B", "L2 cache size");
    print("memory_bytes", (double)prop.totalGlobalMem, "B", "device memory (warplab --profile FILE: the largest launch)");
    print("memory_clock_mhz", gpu.memory_clock_khz / 1e3, "MHz", "memory clock the device reports");
    print("bus_width_bits", gpu.bus_bits, "bit", "memory bus width");
    print("peak_gbs", 2.0 * gpu.memory_clock_khz * 1e3 * gpu.bus_bits / 8 / 1e9, "GB/s", "2 x memory clock x bus width / 8");
}

// The SM clock kernels actually run at: clock64() cycles over event time.
static void measure_clock()
{
    long long cycles = (long long)gpu.clock_khz * 20;   // ~20 ms at the reported clock
    double ms = median_ms([&] { spin_clock<<<gpu.sms, 32>>>(cycles); }, false);
    gpu.clock_hz = cycles / (ms * 1e-3);
    print("sm_clock_measured_mhz", gpu.clock_hz / 1e6, "MHz", "clock64() cycles of a spin kernel over its event time; the clock of every per-clock rate");
}

static void measure_dram(float4 *a, float4 *b, long long bytes)
{
    long long count = bytes / 16;
    unsigned blocks = gpu.blocks, threads = 256;
    double ms = median_ms([&] { dram_read<<<blocks, threads>>>(a, count, 0); }, true);
    print("dram_read_gbs", bytes / (ms * 1e6), "GB/s", "streaming float4 reads, cold L2");
    ms = median_ms([&] { dram_write<<<blocks, threads>>>(b, count, 2.0f); }, true);
    print("dram_write_gbs", bytes / (ms * 1e6), "GB/s", "streaming float4 stores, cold L2");
    ms = median_ms([&] { dram_copy<<<blocks, threads>>>(b, a, count); }, true);
    print("dram_copy_gbs", 2.0 * bytes / (ms * 1e6), "GB/s", "float4 copy, bytes read + written over time, cold L2");
    long long region = pow2_ceil(8ll * gpu.l2_bytes);
    int regions = (int)(bytes / region), bits = log2_of(region / 32);
    ms = median_ms([&] { dram_sectors<<<blocks, threads>>>((const float *)a, bits, regions, 0); }, true);
    print("dram_sector_gbs", (double)bytes / (ms * 1e6), "GB/s",
          "each lane 4 bytes of a distinct scattered 32-byte sector of 8x the L2; sectors x 32 B over time");
    bits = log2_of(region / 64);
    ms = median_ms([&] { dram_blocks64<<<blocks, threads>>>(a, bits, regions, 0); }, true);
    print("dram_block64_gbs", (double)bytes / (ms * 1e6), "GB/s",
          "each lane one distinct scattered 64-byte block of 8x the L2; blocks x 64 B over time");
}

static void measure_l2(float *buf, long long bytes)
{
    unsigned blocks = gpu.blocks, threads = 256;
    long long count = bytes / 4, requests_per_rep = gpu.threads / 32, reps = UNROLL;
    int sector_bits = log2_of(bytes / 32);
    double ms = scaled_ms([&](long long r) { l2_load<<<blocks, threads>>>(buf, count, r, 0); }, reps);
    print("l2_load_sectors_per_clock", per_sm_clock(4.0 * requests_per_rep * reps, ms), "sectors/SM/clk",
          "ld.global.cg, coalesced (4 sectors a request), L2-resident");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { l2_load_scattered<<<blocks, threads>>>(buf, sector_bits, r, 0); }, reps);
    print("l2_scattered_load_sectors_per_clock", per_sm_clock(32.0 * requests_per_rep * reps, ms), "sectors/SM/clk",
          "ld.global.cg, each lane a different sector (32 a request), L2-resident");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { l2_store<<<blocks, threads>>>(buf, count, r); }, reps);
    print("l2_store_sectors_per_clock", per_sm_clock(4.0 * requests_per_rep * reps, ms), "sectors/SM/clk",
          "coalesced 4-byte stores (4 sectors a request), L2-resident");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { l2_store_scattered<<<blocks, threads>>>(buf, sector_bits, r); }, reps);
    print("l2_scattered_store_sectors_per_clock", per_sm_clock(32.0 * requests_per_rep * reps, ms), "sectors/SM/clk",
          "each lane 4 bytes of a different sector (32 partial writes a request), L2-resident");
}

static void measure_on_chip(const float4 *l1_buf)
{
    unsigned blocks = gpu.blocks, threads = 256;
    double requests_per_rep = gpu.threads / 32.0;
    long long reps = UNROLL;
    double ms = scaled_ms([&](long long r) { l1_load<<<blocks, threads>>>(l1_buf, r, 1, 0); }, reps);
    print("l1_sectors_per_clock", per_sm_clock(16.0 * requests_per_rep * reps, ms), "sectors/SM/clk",
          "float4 loads hitting L1, a warp 512 consecutive bytes (16 sectors a request)");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { l1_load<<<blocks, threads>>>(l1_buf, r, 0, 0); }, reps);
    print("l1_requests_per_clock", per_sm_clock(requests_per_rep * reps, ms), "requests/SM/clk",
          "loads hitting L1, all lanes one address (1 sector a request)");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { shared_load<<<blocks, threads>>>(r, 0, 0); }, reps);
    print("shared_wavefronts_per_clock", per_sm_clock(requests_per_rep * reps, ms), "wavefronts/SM/clk",
          "4-byte shared loads, no bank conflict (1 wavefront a request)");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { shared_load<<<blocks, threads>>>(r, 1, 0); }, reps);
    print("shared_conflict_wavefronts_per_clock", per_sm_clock(32.0 * requests_per_rep * reps, ms), "wavefronts/SM/clk",
          "4-byte shared loads, 32-way bank conflict (32 wavefronts a request)");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { constant_load<<<blocks, threads>>>(r, 1, 0); }, reps);
    print("constant_passes_per_clock", per_sm_clock(32.0 * requests_per_rep * reps, ms), "passes/SM/clk",
          "__constant__ loads, each lane a distinct address (32 passes a request)");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { constant_load<<<blocks, threads>>>(r, 0, 0); }, reps);
    print("constant_broadcast_requests_per_clock", per_sm_clock(requests_per_rep * reps, ms), "requests/SM/clk",
          "__constant__ loads, all lanes one address (1 pass a request)");
}

static void measure_atomics(unsigned *buf, long long bytes)
{
    unsigned blocks = gpu.blocks, threads = 256;
    long long words = bytes / 4, reps = UNROLL;
    double lanes = gpu.threads;
    double ms = scaled_ms([&](long long r) { atomic_distinct<false><<<blocks, threads>>>(buf, words, r, 0); }, reps);
    print("atomic_distinct_per_clock", per_sm_clock(lanes * reps, ms), "ops/SM/clk",
          "global atomicAdd, result unused (RED), every lane its own word, L2-resident");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { atomic_distinct<true><<<blocks, threads>>>(buf, words, r, 0); }, reps);
    print("atomic_distinct_atom_per_clock", per_sm_clock(lanes * reps, ms), "ops/SM/clk",
          "the same with the result used (ATOM)");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { atomic_same_address<<<blocks, threads>>>(buf, r); }, reps);
    print("atomic_same_address_per_clock", lanes * reps / (gpu.clock_hz * ms * 1e-3), "ops/GPU clk",
          "every lane of every warp adds to one word (RED): the serialisation on one address");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { atomic_warp_same_address<<<blocks, threads>>>(buf, words, r); }, reps);
    print("atomic_warp_same_address_per_clock", per_sm_clock(lanes * reps, ms), "ops/SM/clk",
          "a warp's 32 lanes add to one word, a different word per warp (RED); lane operations");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { shared_atomic<<<blocks, threads>>>(r, 0, 0); }, reps);
    print("shared_atomic_per_clock", per_sm_clock(lanes * reps, ms), "ops/SM/clk",
          "shared-memory atomicAdd, each lane its own word (no bank conflict)");
    reps = UNROLL;
    ms = scaled_ms([&](long long r) { shared_atomic<<<blocks, threads>>>(r, 1, 0); }, reps);
    print("shared_atomic_same_per_clock", per_sm_clock(lanes * reps, ms), "ops/SM/clk",
          "shared-memory atomicAdd, every lane of the block one word");
}

// Latency of a dependent load, by one thread chasing a random cycle through a
// buffer of `bytes` with nodes `stride` bytes apart (Sattolo's shuffle: one cycle).
template <bool bypass_l1>
static void measure_latency(const char *key, const char *what, unsigned long long *buf, long long bytes,
                            long long hops, bool warm, bool cold)
{
    const long long stride = 256;   // two 128-byte lines: no two nodes share a line
    long long nodes = bytes / stride, words_per_node = stride / 8;
    std::vector<long long> order(nodes);
    for (long long i = 0; i < nodes; i++) order[i] = i;
    std::mt19937_64 random(29);
    for (long long i = nodes - 1; i > 0; i--) std::swap(order[i], order[random() % i]);
    std::vector<unsigned long long> host(nodes * words_per_node, 0);
    for (long long i = 0; i < nodes; i++)
        host[order[i] * words_per_node] = (unsigned long long)(buf + order[(i + 1) % nodes] * words_per_node);
    CHECK(cudaMemcpy(buf, host.data(), nodes * stride, cudaMemcpyHostToDevice));
    long long *out;
    CHECK(cudaMalloc(&out, 2 * sizeof(long long)));
    long long warm_hops = warm ? nodes : 0;
    std::vector<double> clocks, ns;
    for (int s = 0; s < 8; s++) {   // the first is a warm-up
        if (cold) empty_l2();
        chase<bypass_l1><<<1, 1>>>(buf, warm_hops, hops, out, 0);
        CHECK(cudaGetLastError());
        long long result[2];
        CHECK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
        if (s == 0) continue;
        clocks.push_back((double)result[0] / hops);
        ns.push_back((double)result[1] / hops);
    }
    CHECK(cudaFree(out));
    char ns_key[64], clock_key[64];
    snprintf(ns_key, sizeof ns_key, "%s_ns", key);
    snprintf(clock_key, sizeof clock_key, "%s_clocks", key);
    print(ns_key, median(ns), "ns", what);
    print(clock_key, median(clocks), "SM clocks", "the same in SM clocks (clock64)");
}

static void measure_latencies(unsigned long long *big, long long big_bytes, unsigned long long *l2_buf, long long l2_buf_bytes)
{
    long long dram_bytes = std::min(big_bytes, 8ll * gpu.l2_bytes);
    measure_latency<true>("dram_latency", "pointer chase through 8x the L2 (ld.global.cg), cold L2; includes TLB misses",
                          big, dram_bytes, 50000, false, true);
    measure_latency<true>("l2_latency", "pointer chase through 4 MiB (ld.global.cg), L2-resident",
                          l2_buf, std::min(4ll << 20, l2_buf_bytes), 100000, true, false);
    measure_latency<false>("l1_latency", "pointer chase through 16 KiB (ld.global.ca), L1-resident",
                           l2_buf, 16 << 10, 1000000, true, false);
}

static void measure_launch()
{
    double ms = median_ms([] { for (int i = 0; i < 100; i++) empty_kernel<<<1, 32>>>(); }, false);
    print("launch_overhead_us", ms * 10, "us", "an empty kernel, per launch, of 100 back-to-back launches");
    ms = median_ms([] { empty_kernel<<<1, 32>>>(); }, false);
    print("launch_single_us", ms * 1e3, "us", "an empty kernel's own event time, launched alone");
}

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "calibrate: no CUDA device\n");
        return 1;
    }
    device_facts();
    size_t free_bytes, total_bytes;
    CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // DRAM buffers: >= 8x the L2 and >= 1 ms at the peak bandwidth, a power of 2, two of them in a quarter of the free memory.
    double peak_bytes_per_ms = 2.0 * gpu.memory_clock_khz * 1e3 * gpu.bus_bits / 8 / 1e3;
    long long big_bytes = pow2_ceil(std::max(8ll * gpu.l2_bytes, (long long)peak_bytes_per_ms));
    while (big_bytes / 2 >= 8ll * gpu.l2_bytes && 2 * (size_t)big_bytes > free_bytes / 4) big_bytes /= 2;
    long long l2_bytes = std::max(pow2_floor(gpu.l2_bytes / 4), 1ll << 18);   // well under the L2
    float4 *a, *b, *l2_buf;
    gpu.flush_bytes = 2 * (size_t)gpu.l2_bytes;
    CHECK(cudaMalloc(&a, big_bytes)); CHECK(cudaMalloc(&b, big_bytes));
    CHECK(cudaMalloc(&l2_buf, l2_bytes)); CHECK(cudaMalloc(&gpu.flush, gpu.flush_bytes));
    CHECK(cudaEventCreate(&gpu.start)); CHECK(cudaEventCreate(&gpu.stop));
    dram_write<<<gpu.blocks, 256>>>(a, big_bytes / 16, 1.0f);
    dram_write<<<gpu.blocks, 256>>>(b, big_bytes / 16, 1.0f);
    dram_write<<<gpu.blocks, 256>>>(l2_buf, l2_bytes / 16, 1.0f);
    std::vector<float> table(256, 1.0f);
    CHECK(cudaMemcpyToSymbol(c_table, table.data(), sizeof(float) * 256));
    CHECK(cudaDeviceSynchronize());
    print("dram_buffer_bytes", (double)big_bytes, "B", "the buffer DRAM measurements stream or scatter over");
    print("l2_buffer_bytes", (double)l2_bytes, "B", "the L2-resident buffer of the L2 measurements");

    measure_clock();
    measure_dram(a, b, big_bytes);
    measure_l2((float *)l2_buf, l2_bytes);
    measure_on_chip(l2_buf);
    CHECK(cudaMemset(l2_buf, 0, l2_bytes));
    measure_atomics((unsigned *)l2_buf, l2_bytes);
    measure_latencies((unsigned long long *)a, big_bytes, (unsigned long long *)l2_buf, l2_bytes);
    measure_launch();
    CHECK(cudaDeviceSynchronize());
    return 0;
}
