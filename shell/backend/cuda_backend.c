/*
** cuda_backend.c — the CUDA backend, which runs in the GPU process
** (gpu_process.c starts that process and serves this over its socket;
** the shell never calls CUDA itself): device buffers from a pool reused across
** launches, random inputs, poisoned outputs checked against the CPU
** reference, and event-timed samples with L2 flushed before each (outside
** the timed window). The SM clock is read on the device between samples.
** Every CUDA call goes through CUDA_TRY, which records the failure and
** returns a status: nothing here exits the process.
*/
#ifdef HAVE_CUDA
#include <ctype.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include "backend/backend.h"
#include "support/text.h"
#include "model/common.h"
#include "backend/counters.h"
#include "model/atomic_sums.h"
#include "model/output_check.h"
#include "backend/emulate.h"
#include "backend/gpu_lock.h"
#include "backend/host_parts.h"
#include "interrupt.h"
#include "output.h"
#include "paths.h"
#include "support/clock.h"
#include "model/registry.h"

enum { WARMUP_LAUNCHES = 2, COPY_CEILING_SAMPLES = 20 };
static const double COPY_WARMUP_S = 0.2;
static const double WALL_LIMIT_S = 15.0;
static const double TARGET_MEDIAN_ERROR = 0.005;
static const long long CLOCK_PROBE_NS = 20000;
static const size_t COPY_CEILING_BYTES = (size_t)1 << 30;
static const double BUSY_WAIT_S = 5.0;   /* another process's profiler: how long to wait for it */
enum { INTERRUPTED_WAITING = -3 };       /* beside 0, -1 and COUNTERS_BUSY */

int flush_read_launch(const void *buf, size_t bytes, int *sink, int sm_count, void *stream);
int clock_probe_launch(long long ns, long long *out, void *stream);
int fill_random_launch(void *data, size_t bytes, unsigned long long seed, int sm_count, void *stream);

static char cuda_failure[512];
static cudaError_t cuda_status;

#define CUDA_TRY(call) cuda_try((call), #call, __FILE__, __LINE__)

/* Records a failed CUDA call; returns 0 on success and -1 on failure. */
static int cuda_try(cudaError_t status, const char *call, const char *file, int line)
{
    if (status == cudaSuccess)
        return 0;
    cuda_status = status;
    snprintf(cuda_failure, sizeof cuda_failure, "%s (%s) in %s at %s:%d",
             cudaGetErrorName(status), cudaGetErrorString(status), call, file, line);
    return -1;
}

/* One buffer of the pool: device memory plus the host copies the check needs. */
struct pooled_buffer {
    void *device;
    void *host;        /* inputs as sent; for outputs, what the GPU wrote */
    int pinned;        /* host is page-locked: copies run at the link's speed */
    void *expected;    /* outputs only: what the CPU reference wrote */
    size_t capacity;
};

static struct {
    int open;
    int ready;                 /* no sticky error has ended this CUDA context */
    int ordinal;
    struct device_info info;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    struct pooled_buffer pool[MAX_BUFFERS];
    void *flush;
    size_t flush_bytes;
    int *flush_sink;
    long long *clock_counts;   /* the probe's cycles and nanoseconds */
    void *reserved;            /* WARPLAB_TEST_LEAVE_FREE_BYTES: memory held to test running out */
    char uuid[48];             /* "GPU-1a2b...": names the lock other processes share */
    int counters_tried;        /* counters_open was called in this context */
    char counters_unavailable[256];   /* why counters_open failed, or empty */
    uint64_t seed;
    uint64_t inputs_seed;             /* what the launch's inputs were filled from (fill_inputs') */
    const struct family *running;     /* the launch's family, and how long its launches may take */
    double kernel_timeout_s;
    int timed_out;                    /* a launch ran past it: this context ends, cuda_failure says why */
} gpu;

static void pooled_release(struct pooled_buffer *s)
{
    if (s->device)
        cudaFree(s->device);
    if (s->pinned)
        cudaHostUnregister(s->host);
    free(s->host);
    free(s->expected);
    memset(s, 0, sizeof *s);
}

static void pool_release(void)
{
    for (int i = 0; i < MAX_BUFFERS; i++)
        pooled_release(&gpu.pool[i]);
}

/* Explains a failed allocation: out of memory with the sizes, or the CUDA error. */
static void allocation_failure(size_t launch_bytes, char *error, size_t error_size)
{
    size_t free_bytes = 0, total = 0;
    char wanted[32], available[32], all[32];
    if (cuda_status != cudaErrorMemoryAllocation) {
        snprintf(error, error_size, SAY("CUDA error: %s", "CUDA 错误：%s"), cuda_failure);
        return;
    }
    cudaGetLastError();
    cudaMemGetInfo(&free_bytes, &total);
    snprintf(error, error_size, SAY("out of device memory: this launch needs %s of buffers and the device has %s free (of %s)",
                                    "显存不足：这次启动的缓冲区需要 %s，设备只剩 %s 可用（共 %s）"),
             format_bytes(launch_bytes, wanted, sizeof wanted),
             format_bytes(free_bytes, available, sizeof available), format_bytes(total, all, sizeof all));
}

/* Page-locks a pooled buffer's host copy, which the GPU writes inputs and outputs into:
   on the H200 machine a 2^26 offset launch's inputs, checked launch and
   copies took 111 ms with pageable copies and 7-11 ms pinned (with the
   reference's poisoning moved to the reference's threads). Not under kernel
   replay, which saves and restores all memory the GPU can reach, pinned host
   memory included (2.7 s a launch). Where it fails the copy stays pageable. */
static void pin_host_copy(struct pooled_buffer *s)
{
    if (counters_save_memory())
        return;
    s->pinned = cudaHostRegister(s->host, s->capacity, cudaHostRegisterDefault) == cudaSuccess;
    if (!s->pinned)
        cudaGetLastError();
}

/* Makes pooled buffer i hold at least bytes; device memory is only reallocated to grow.
   0; -1 when cudaMalloc failed (cuda_status says why); -2 when host memory
   ran out (error says so). */
static int pooled_grow(int i, size_t bytes, char *error, size_t error_size)
{
    struct pooled_buffer *s = &gpu.pool[i];
    if (s->capacity >= bytes)
        return 0;
    pooled_release(s);
    if (CUDA_TRY(cudaMalloc(&s->device, bytes))) {
        s->device = NULL;
        return -1;
    }
    s->host = malloc(bytes);
    s->expected = malloc(bytes);
    if (!s->host || !s->expected) {
        char wanted[32];
        pooled_release(s);
        snprintf(error, error_size, SAY("out of host memory: the check needs %s more", "主机内存不足：结果检查还需要 %s"),
                 format_bytes(2.0 * bytes, wanted, sizeof wanted));
        return -2;
    }
    s->capacity = bytes;
    pin_host_copy(s);
    return 0;
}

/* Makes pooled buffers 0 .. count - 1 hold bytes[i] each. When device memory is short,
   the whole pool is given back and every buffer made again, so that no buffer a
   launch already holds is freed under it. 0, or -1 with the error. */
static int reserve_pool(const size_t *bytes, int count, size_t launch_bytes, char *error, size_t error_size)
{
    int status = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        for (int i = 0; i < count && (status = pooled_grow(i, bytes[i], error, error_size)) == 0; i++)
            continue;
        if (status != -1)
            break;
        cudaGetLastError();   /* the failed cudaMalloc must not surface at the next launch */
        pool_release();
    }
    if (status == -1)
        allocation_failure(launch_bytes, error, error_size);
    return status ? -1 : 0;
}

/* A GPU's UUID as nvidia-smi writes it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx. */
static void format_uuid(const cudaUUID_t *uuid, char *out, size_t size)
{
    const unsigned char *b = (const unsigned char *)uuid->bytes;
    size_t used = (size_t)snprintf(out, size, "GPU-");
    for (int i = 0; i < 16 && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", b[i]);
}

static void read_device_info(int ordinal, struct device_info *info)
{
    struct cudaDeviceProp prop;
    int memory_clock_khz = 0, l2 = 0, bus = 0;
    size_t free_bytes = 0, total = 0;
    memset(info, 0, sizeof *info);
    cudaGetDeviceProperties(&prop, ordinal);
    cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal);
    cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, ordinal);
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, ordinal);
    cudaMemGetInfo(&free_bytes, &total);
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->major = prop.major;
    info->minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->l2_bytes = (uint64_t)l2;
    info->memory_bytes = total;
    info->free_bytes = free_bytes;
    info->bus_width_bits = bus;
    info->memory_clock_mhz = memory_clock_khz / 1e3;
    info->peak_gbs = 2.0 * memory_clock_khz * 1e3 * bus / 8 / 1e9;
    int sm_clock_khz = 0, shared_per_sm = 0, shared_per_block = 0;
    cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, ordinal);
    cudaDeviceGetAttribute(&shared_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, ordinal);
    cudaDeviceGetAttribute(&shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal);
    cudaDeviceGetAttribute(&info->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, ordinal);
    cudaDeviceGetAttribute(&info->max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, ordinal);
    info->shared_bytes_per_sm = (uint64_t)shared_per_sm;
    info->shared_bytes_per_block = (uint64_t)shared_per_block;
    info->sm_clock_mhz = sm_clock_khz / 1e3;
    info->ordinal = ordinal;
    format_uuid(&prop.uuid, gpu.uuid, sizeof gpu.uuid);
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
}

/* Holds all the device memory but WARPLAB_TEST_LEAVE_FREE_BYTES, as another
   program would: the test suite's way to make a launch run out of memory.
   What is free is read here, when it is held: other tests' processes, which
   run beside it, come and go. */
static int reserve_for_tests(void)
{
    const char *text = getenv("WARPLAB_TEST_LEAVE_FREE_BYTES");
    size_t free_bytes, total_bytes, leave = text && *text ? (size_t)strtoull(text, NULL, 10) : 0;
    if (!text || !*text)
        return 0;
    if (CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes)))
        return -1;
    return free_bytes > leave ? CUDA_TRY(cudaMalloc(&gpu.reserved, free_bytes - leave)) : 0;
}

/* Stream, events, the L2 flush buffer and the probe's words: everything a session reuses. */
static int create_session_objects(void)
{
    if (CUDA_TRY(cudaSetDevice(gpu.ordinal)) || CUDA_TRY(cudaFree(0)) ||
        CUDA_TRY(cudaStreamCreateWithFlags(&gpu.stream, cudaStreamNonBlocking)) ||
        CUDA_TRY(cudaEventCreate(&gpu.start)) || CUDA_TRY(cudaEventCreate(&gpu.stop)))
        return -1;
    gpu.flush_bytes = 2 * (size_t)gpu.info.l2_bytes;
    if (CUDA_TRY(cudaMalloc(&gpu.flush, gpu.flush_bytes)) ||
        CUDA_TRY(cudaMemset(gpu.flush, 1, gpu.flush_bytes)) ||
        CUDA_TRY(cudaMalloc((void **)&gpu.flush_sink, sizeof(int))) ||
        CUDA_TRY(cudaMalloc((void **)&gpu.clock_counts, 2 * sizeof(long long))))
        return -1;
    return reserve_for_tests();
}

static void free_device(void **pointer)
{
    if (*pointer)
        cudaFree(*pointer);
    *pointer = NULL;
}

static void destroy_session_objects(void)
{
    counters_close();
    gpu.counters_tried = 0;
    pool_release();
    free_device(&gpu.flush);
    free_device((void **)&gpu.flush_sink);
    free_device((void **)&gpu.clock_counts);
    free_device(&gpu.reserved);
    if (gpu.start)
        cudaEventDestroy(gpu.start);
    if (gpu.stop)
        cudaEventDestroy(gpu.stop);
    if (gpu.stream)
        cudaStreamDestroy(gpu.stream);
    gpu.start = gpu.stop = NULL;
    gpu.stream = NULL;
}

/* Why cudaGetDeviceCount found nothing, in the words a student needs. */
static const char *no_gpu_reason(cudaError_t status)
{
    switch (status) {
    case cudaSuccess: case cudaErrorNoDevice:
        return SAY("no CUDA device on this machine", "这台机器上没有 CUDA 设备");
    case cudaErrorInsufficientDriver:
        return SAY("no NVIDIA driver, or one older than CUDA " CUDA_VERSION_TEXT " needs", "没有 NVIDIA 驱动，或驱动版本低于 CUDA " CUDA_VERSION_TEXT " 的要求");
    default:
        return cudaGetErrorString(status);
    }
}

/* The cache file for this device and driver's copy ceiling. */
static int copy_ceiling_path(const struct device_info *info, char *path, size_t size)
{
    char name[320];
    int n = snprintf(name, sizeof name, "copy-ceiling-%s-driver-%d", info->name, info->driver_version);
    for (int i = 0; i < n && i < (int)sizeof name; i++)
        if (!(isalnum((unsigned char)name[i]) || name[i] == '-'))
            name[i] = '_';
    return xdg_file("XDG_CACHE_HOME", ".cache", name, path, size);
}

/* Reads a cached copy ceiling into info; -1 when there is none. */
static int read_copy_ceiling(struct device_info *info)
{
    char path[4096];
    double gbs = 0;
    FILE *file;
    if (copy_ceiling_path(info, path, sizeof path) || !(file = fopen(path, "r")))
        return -1;
    int found = fscanf(file, "%lf", &gbs) == 1 && gbs > 0;
    fclose(file);
    if (found)
        info->copy_gbs = gbs;
    return found ? 0 : -1;
}

static void write_copy_ceiling(const struct device_info *info)
{
    char path[4096];
    FILE *file;
    if (copy_ceiling_path(info, path, sizeof path) || !(file = fopen(path, "w")))
        return;
    fprintf(file, "%.1f\n# GB/s, read + written, of a %zu-byte cudaMemcpy device to device\n",
            info->copy_gbs, COPY_CEILING_BYTES);
    fclose(file);
}

/* Times COPY_CEILING_SAMPLES device-to-device copies into ms, after copying
   for COPY_WARMUP_S so that the clocks have left their idle state. */
static int time_device_copies(void *from, void *to, size_t bytes, struct timing *t)
{
    double started = seconds_now();
    while (seconds_now() - started < COPY_WARMUP_S)
        if (CUDA_TRY(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, gpu.stream)) ||
            CUDA_TRY(cudaStreamSynchronize(gpu.stream)))
            return -1;
    t->sample_count = 0;
    for (int i = 0; i < COPY_CEILING_SAMPLES; i++) {
        float ms = 0;
        if (CUDA_TRY(cudaEventRecord(gpu.start, gpu.stream)) ||
            CUDA_TRY(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, gpu.stream)) ||
            CUDA_TRY(cudaEventRecord(gpu.stop, gpu.stream)) ||
            CUDA_TRY(cudaEventSynchronize(gpu.stop)) ||
            CUDA_TRY(cudaEventElapsedTime(&ms, gpu.start, gpu.stop)))
            return -1;
        t->samples_ms[t->sample_count++] = ms;
    }
    return 0;
}

/* The copy ceiling: a large cudaMemcpy device to device, counting bytes read
   plus bytes written, median of the samples; cached per device and driver. */
/* Gives the GPU's lock back; a profiler left on would keep a waiting process
   from profiling, so it goes off when anyone waits. */
static void release_gpu(void)
{
    if (gpu_lock_others_waiting())
        counters_pause();
    gpu_lock_release();
}

static const char *interrupted_waiting(void)
{
    return SAY("interrupted while waiting for the GPU", "等待 GPU 时被中断");
}

static int cuda_measure_copy(struct device_info *info, char *error, size_t error_size)
{
    static struct timing t;
    void *from = NULL, *to = NULL;
    size_t bytes = COPY_CEILING_BYTES;
    if (gpu_lock_take() != 0) {
        snprintf(error, error_size, "%s", interrupted_waiting());
        return -1;
    }
    int failed = CUDA_TRY(cudaMalloc(&from, bytes)) || CUDA_TRY(cudaMalloc(&to, bytes)) ||
                 CUDA_TRY(cudaMemset(from, 1, bytes)) || time_device_copies(from, to, bytes, &t);
    release_gpu();
    free_device(&from);
    free_device(&to);
    if (failed) {
        cudaGetLastError();
        snprintf(error, error_size, "%s", cuda_failure);
        return -1;
    }
    timing_summarize(&t);
    info->copy_gbs = 2.0 * bytes / (t.median_ms * 1e-3) / 1e9;
    gpu.info.copy_gbs = info->copy_gbs;
    write_copy_ceiling(info);
    return 0;
}

static int cuda_open(int ordinal, struct device_info *info, char *why, size_t why_size)
{
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        snprintf(why, why_size, SAY("no GPU (%s)", "没有 GPU（%s）"), no_gpu_reason(status));
        return -1;
    }
    if (ordinal < 0 || ordinal >= count) {
        snprintf(why, why_size, SAY("no GPU %d: this machine has %d (0 to %d)", "没有第 %d 块 GPU：这台机器有 %d 块（0 到 %d）"), ordinal, count, count - 1);
        return -1;
    }
    gpu.ordinal = ordinal;
    gpu.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    read_device_info(ordinal, &gpu.info);
    if (create_session_objects() != 0) {
        snprintf(why, why_size, SAY("GPU %d unusable: %s", "GPU %d 无法使用：%s"), ordinal, cuda_failure);
        destroy_session_objects();
        return -1;
    }
    gpu.open = 1;
    gpu.ready = 1;
    char lock_why[4400];
    if (gpu_lock_open(gpu.uuid, lock_why, sizeof lock_why) != 0)
        notice("%s", lock_why);
    if (read_copy_ceiling(&gpu.info) != 0) {
        char error[512];
        if (cuda_measure_copy(&gpu.info, error, sizeof error) != 0)
            notice(SAY("the copy ceiling could not be measured: %s", "无法测量复制上限：%s"), error);
    }
    *info = gpu.info;
    return 0;
}

/* The alloc_alignment experiment: count real cudaMalloc calls, addresses kept, then freed. */
static int cuda_allocate(int count, size_t bytes, uint64_t *addresses, char *error, size_t error_size)
{
    void *blocks[MAX_ALLOCATIONS] = { 0 };
    int made = 0, failed = 0;
    for (; made < count && !failed; made++) {
        failed = CUDA_TRY(cudaMalloc(&blocks[made], bytes));
        addresses[made] = (uint64_t)(uintptr_t)blocks[made];
    }
    for (int i = 0; i < made; i++)
        free_device(&blocks[i]);
    if (failed)
        allocation_failure(bytes, error, error_size);
    return failed ? -1 : 0;
}

/* Whether the GPU can take launches (after a sticky error it cannot). */
static int cuda_usable(void)
{
    return gpu.open && gpu.ready;
}

/* After a lost context nothing is given back: a kernel that ran past its
   time limit may still run, and freeing would wait for it; the process's end frees all. */
static void cuda_close(void)
{
    if (!gpu.open)
        return;
    if (gpu.ready)
        destroy_session_objects();
    gpu_lock_close();
    gpu.open = 0;
}

/* Errors after which this process's CUDA context is unusable. */
static int is_sticky(cudaError_t status)
{
    switch (status) {
    case cudaErrorIllegalAddress: case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError: case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress: case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc: case cudaErrorLaunchTimeout:
        return 1;
    default:
        return 0;
    }
}

/* Reports a CUDA failure. After a sticky one this process's CUDA context is
   lost for good (gpu_process.c starts a fresh process to go on). */
static enum run_status fail(char *error, size_t error_size)
{
    if (is_sticky(cuda_status) || gpu.timed_out)
        gpu.ready = 0;
    else
        cudaGetLastError();
    if (gpu.timed_out)
        snprintf(error, error_size, "%s", cuda_failure);
    else
        snprintf(error, error_size, SAY("CUDA error: %s", "CUDA 错误：%s"), cuda_failure);
    return RUN_FAILED;
}

/* Whether a kernel that has run `waited` seconds must be stopped: past the
   launch's time limit, or Ctrl-C once it has run a second. Says why in
   cuda_failure. */
static int must_stop(double waited)
{
    const char *name = gpu.running ? gpu.running->name : "?";
    if (waited > gpu.kernel_timeout_s)
        snprintf(cuda_failure, sizeof cuda_failure,
                 SAY("'%s' was still running after its time limit of %g s (config{kernel_timeout = seconds})",
                     "'%s' 超过时间限制 %g 秒仍在运行（config{kernel_timeout = 秒数}）"), name, gpu.kernel_timeout_s);
    else if (interrupt_requested && waited > 1)
        snprintf(cuda_failure, sizeof cuda_failure, SAY("'%s' was stopped by Ctrl-C while it ran", "'%s' 运行中被 Ctrl-C 停止"), name);
    else
        return 0;
    return 1;
}

/* Waits for what the stream was given. A kernel cannot be stopped alone: one
   that must stop ends this CUDA context (and the GPU process), which says why. */
static int wait_for_stream(void)
{
    double started = seconds_now();
    cudaError_t status;
    while ((status = cudaStreamQuery(gpu.stream)) == cudaErrorNotReady) {
        double waited = seconds_now() - started;
        if (must_stop(waited)) {
            gpu.timed_out = 1;
            return -1;
        }
        if (waited < 1e-3)
            sched_yield();
        else
            nanosleep(&(struct timespec){ 0, 50000 }, NULL);
    }
    return CUDA_TRY(status);
}

static const unsigned char POISON = 0xff;   /* a NaN in every float */

/* What outputs hold before the checked launch: poison, so that an element the
   kernel never wrote shows; zero for kernels that add into their outputs. */
static int output_start(const struct family *f)
{
    return f->accumulates ? 0 : POISON;
}

/* The seed of the next inputs. */
static uint64_t next_seed(void)
{
    gpu.seed = gpu.seed * 6364136223846793005ull + 1442695040888963407ull;
    return gpu.seed;
}

/* The seed of a launch's inputs made by its family: fresh each launch, but
   for a kernel declared in Lua the emulator's, whose counts (its model) then
   hold for this launch even where addresses come from the data. */
static uint64_t inputs_seed(const struct family *f)
{
    gpu.inputs_seed = f->ptx ? EMULATION_SEED : next_seed();
    return gpu.inputs_seed;
}

/* Inputs the family makes itself on the host from seed (index arrays,
   structured data), queued to be sent to the GPU. */
static int send_family_inputs(const struct family *f, const struct params *p, const size_t *bytes, uint64_t seed)
{
    void *host[MAX_BUFFERS];
    for (int i = 0; i < f->buffer_count; i++)
        host[i] = gpu.pool[i].host;
    f->fill_inputs(p, host, seed);
    for (int i = 0; i < f->buffer_count; i++)
        if ((f->buffers[i].role == BUFFER_IN || (f->filled >> i & 1)) &&
            CUDA_TRY(cudaMemcpyAsync(gpu.pool[i].device, host[i], bytes[i], cudaMemcpyHostToDevice, gpu.stream)))
            return -1;
    return f->constants ? CUDA_TRY((cudaError_t)cuda_backend_copy_constants(f, host, bytes, gpu.stream)) : 0;
}

/* Fresh inputs: made on the GPU at random and copied back for the reference,
   or made by the family on the host and sent; poisoned outputs on the GPU
   (the reference's copy is poisoned by the reference job). */
static int prepare_buffers(const struct family *f, const struct params *p, const size_t *bytes)
{
    if (f->fill_inputs && send_family_inputs(f, p, bytes, inputs_seed(f)))
        return -1;
    for (int i = 0; i < f->buffer_count; i++) {
        struct pooled_buffer *s = &gpu.pool[i];
        if (f->buffers[i].role == BUFFER_OUT) {
            if (!(f->filled >> i & 1) && CUDA_TRY(cudaMemsetAsync(s->device, output_start(f), bytes[i], gpu.stream)))
                return -1;
        } else if (!f->fill_inputs &&
                   (CUDA_TRY((cudaError_t)fill_random_launch(s->device, bytes[i], next_seed(), gpu.info.sm_count, gpu.stream)) ||
                    CUDA_TRY(cudaMemcpyAsync(s->host, s->device, bytes[i], cudaMemcpyDeviceToHost, gpu.stream)))) {
            return -1;
        }
    }
    return CUDA_TRY(cudaStreamSynchronize(gpu.stream));
}

static int launch_once(const struct ready_launch *launch)
{
    if (CUDA_TRY((cudaError_t)cuda_kernel_launch(launch)))
        return -1;
    return wait_for_stream();
}

/* The CPU reference, run on a worker thread while the GPU samples: the
   reference's outputs poisoned as the GPU's were, then the reference itself,
   each on several threads when it is large (and the family can split it). */
struct reference_job {
    const struct family *family;
    const struct params *params;
    const size_t *bytes;
    void *buffers[MAX_BUFFERS];
    pthread_t thread;
    int started;
    int failed;          /* a kernel declared in Lua that the emulator could not run: why */
    char why[256];
    struct atomic_sums sums;   /* what the emulator's float atomic adds summed: the check allows their rounding */
};

/* A kernel declared in Lua (it has PTX, and no CPU reference in C) is
   checked against the emulator, run on the same inputs. */
static void *run_reference(void *argument)
{
    struct reference_job *job = argument;
    size_t total = 0;
    for (int i = 0; i < job->family->buffer_count; i++) {
        total += job->bytes[i];
        if (job->family->buffers[i].role == BUFFER_OUT)
            fill_in_parts(gpu.pool[i].expected, output_start(job->family), job->bytes[i]);
    }
    if (job->family->ptx && job->family->fill_inputs)   /* outputs that start filled start so here too */
        job->family->fill_inputs(job->params, job->buffers, gpu.inputs_seed);
    if (job->family->ptx)
        job->failed = emulate_outputs(job->family, job->params, &gpu.info, job->buffers, &job->sums, &interrupt_requested, job->why,
                                      sizeof job->why);
    else
        reference_in_parts(job->family, job->params, job->buffers, total);
    return NULL;
}

static void start_reference(struct reference_job *job)
{
    for (int i = 0; i < job->family->buffer_count; i++)
        job->buffers[i] = job->family->buffers[i].role == BUFFER_IN ? gpu.pool[i].host : gpu.pool[i].expected;
    job->started = start_worker(&job->thread, run_reference, job) == 0;
    if (!job->started)
        run_reference(job);   /* no thread to be had: compute it here */
}

static void finish_reference(struct reference_job *job)
{
    if (job->started)
        pthread_join(job->thread, NULL);
    job->started = 0;
}

/* Queues copies of what the checked launch wrote, before the samples run it again. */
static int copy_outputs_back(const struct family *f, const size_t *bytes)
{
    for (int i = 0; i < f->buffer_count; i++)
        if (f->buffers[i].role == BUFFER_OUT &&
            CUDA_TRY(cudaMemcpyAsync(gpu.pool[i].host, gpu.pool[i].device, bytes[i],
                                     cudaMemcpyDeviceToHost, gpu.stream)))
            return -1;
    return 0;
}

/* Compares the checked launch's outputs with the reference (the emulator's,
   for a kernel declared in Lua); describes the first difference. */
static void compare_outputs(const struct family *f, const size_t *bytes, const struct reference_job *reference, struct result *r)
{
    void *got[MAX_BUFFERS], *want[MAX_BUFFERS];
    char mismatch[sizeof r->mismatch];
    for (int i = 0; i < f->buffer_count; i++)
        got[i] = gpu.pool[i].host, want[i] = gpu.pool[i].expected;
    r->correct = reference->failed ? -1 : outputs_match(f, got, want, bytes, &reference->sums, mismatch, sizeof mismatch);
    if (r->correct == 0 && f->ptx)
        snprintf(r->mismatch, sizeof r->mismatch, SAY("the GPU's outputs are not the emulator's: %s", "GPU 的输出与模拟器的不同：%s"),
                 mismatch);
    else if (r->correct == 0)
        snprintf(r->mismatch, sizeof r->mismatch, "%s", mismatch);
}


/* Empties L2 of everything a kernel could reuse: write a buffer twice the L2
   size, then read it back so that the lines left behind are clean and nothing
   is written back to DRAM during the next kernel. Also forgets persisting lines. */
static int flush_l2(void)
{
    return CUDA_TRY(cudaCtxResetPersistingL2Cache()) ||
           CUDA_TRY(cudaMemsetAsync(gpu.flush, 1, gpu.flush_bytes, gpu.stream)) ||
           CUDA_TRY((cudaError_t)flush_read_launch(gpu.flush, gpu.flush_bytes, gpu.flush_sink,
                                                   gpu.info.sm_count, gpu.stream));
}

/* One timed sample, its SM cycles and nanoseconds added to the totals: L2
   emptied (unless warm), then the clock probe, which also keeps the GPU busy
   while the host enqueues the timed launch. Without it an idle GPU records the
   start event at once and the sample includes the host's launch overhead: on
   the H200 a warm 3 MiB offset copy timed 7.3 us against 4.4 us cold. */
static int time_one(const struct ready_launch *launch, int warm, double *ms,
                    long long *cycles, long long *ns)
{
    float elapsed = 0;
    long long counts[2];
    if ((!warm && flush_l2()) ||
        CUDA_TRY((cudaError_t)clock_probe_launch(CLOCK_PROBE_NS, gpu.clock_counts, gpu.stream)) ||
        CUDA_TRY(cudaEventRecord(gpu.start, gpu.stream)) ||
        CUDA_TRY((cudaError_t)cuda_kernel_launch(launch)) ||
        CUDA_TRY(cudaEventRecord(gpu.stop, gpu.stream)) ||
        CUDA_TRY(cudaMemcpyAsync(counts, gpu.clock_counts, sizeof counts, cudaMemcpyDeviceToHost, gpu.stream)) ||
        wait_for_stream() ||
        CUDA_TRY(cudaEventElapsedTime(&elapsed, gpu.start, gpu.stop)))
        return -1;
    *ms = elapsed;
    *cycles += counts[0];
    *ns += counts[1];
    return 0;
}

/* Whether sampling may stop: enough samples, and a stable median or a spent budget. */
static int enough_samples(struct timing *t, const struct measure_options *options,
                          double spent_ms, double started)
{
    if (t->sample_count >= MAX_SAMPLES)
        return 1;
    if (t->sample_count < options->min_samples)
        return 0;
    return timing_median_is_stable(t, TARGET_MEDIAN_ERROR) || spent_ms >= options->budget_ms ||
           seconds_now() - started > WALL_LIMIT_S;
}

/* Warm-up launches, then samples until enough_samples; the SM clock is probed
   before each sample, outside the timed window. */
static enum run_status take_samples(const struct ready_launch *launch,
                                    const struct measure_options *options, struct result *r,
                                    char *error, size_t error_size)
{
    struct timing *t = &r->timing;
    double spent_ms = 0, started = seconds_now();
    long long cycles = 0, ns = 0;
    for (int i = 0; i < WARMUP_LAUNCHES; i++)
        if (launch_once(launch))
            return fail(error, error_size);
    t->sample_count = 0;
    do {
        if (interrupt_requested)
            return RUN_INTERRUPTED;
        if (time_one(launch, options->warm, &t->samples_ms[t->sample_count], &cycles, &ns))
            return fail(error, error_size);
        spent_ms += t->samples_ms[t->sample_count++];
    } while (!enough_samples(t, options, spent_ms, started));
    timing_summarize(t);
    r->sm_clock_mhz = ns > 0 ? 1e3 * (double)cycles / (double)ns : 0;
    return RUN_OK;
}

/* With WARPLAB_TRACE_TIMES set, prints how long each phase of a launch took
   (NULL starts the clock): where a slow launch spends its time. */
static void trace_phase(const char *phase)
{
    static double last;
    double now = seconds_now();
    if (phase && getenv("WARPLAB_TRACE_TIMES"))
        fprintf(stderr, "warplab: %-26s %8.1f ms\n", phase, (now - last) * 1e3);
    last = now;
}

/* What the counted run launches for one item: an L2 flush, then the kernel. */
struct counted_launch {
    const struct family *family;
    const struct params *params;
    struct ready_launch launch;
};

/* A family whose addresses come from its data (gather's indices, spmv's rows) gets
   its own inputs back before its counted run: the pool holds the last launch's.
   Copies are not kernels, so they make no range of their own. */
static int refill_inputs(const struct family *f, const struct params *p)
{
    size_t bytes[MAX_BUFFERS];
    family_buffer_bytes(f, p, bytes);
    return send_family_inputs(f, p, bytes, f->ptx ? EMULATION_SEED : gpu.seed);
}

/* What is not counted: the L2 flush, and the inputs of a family whose addresses come from them. */
static int prepare_counted(int index, void *user)
{
    const struct counted_launch *item = (const struct counted_launch *)user + index;
    return (item->family->fill_inputs && refill_inputs(item->family, item->params)) ||
           CUDA_TRY((cudaError_t)flush_read_launch(gpu.flush, gpu.flush_bytes, gpu.flush_sink,
                                                   gpu.info.sm_count, gpu.stream));
}

static int launch_counted(int index, void *user)
{
    const struct counted_launch *item = (const struct counted_launch *)user + index;
    return CUDA_TRY((cudaError_t)cuda_kernel_launch(&item->launch));
}

/* Sets the profiler up on first use; 0, COUNTERS_BUSY (tried again next
   time), or -1 with the reason kept for later launches. */
static int ensure_counters(void)
{
    if (!gpu.counters_tried) {
        gpu.counters_unavailable[0] = 0;
        int status = counters_open(gpu.ordinal, gpu.counters_unavailable, sizeof gpu.counters_unavailable);
        gpu.counters_tried = status != COUNTERS_BUSY;   /* another process profiling is worth waiting out */
        return status;
    }
    return gpu.counters_unavailable[0] ? -1 : 0;
}

/* Grows the pool to hold every item's buffers (their contents do not matter for
   counting, except for families with fill_inputs, which refill_inputs restores). */
static int reserve_for_all(struct result *const *results, int count, char *why, size_t why_size)
{
    size_t most[MAX_BUFFERS] = { 0 }, bytes[MAX_BUFFERS], largest = 0;
    for (int k = 0; k < count; k++) {
        size_t total = family_buffer_bytes(results[k]->family, &results[k]->params, bytes);
        largest = total > largest ? total : largest;
        for (int i = 0; i < results[k]->family->buffer_count; i++)
            most[i] = bytes[i] > most[i] ? bytes[i] : most[i];
    }
    return reserve_pool(most, MAX_BUFFERS, largest, why, why_size);
}

static void mark_unavailable(struct result *const *results, int count, const char *why)
{
    for (int k = 0; k < count; k++)
        snprintf(results[k]->counters_unavailable, sizeof results[k]->counters_unavailable, "%s", why);
}

/* Profiles up to counters_batch_size() items in one session; returns
   counters_read's status (COUNTERS_BUSY: another process's profiler is on). */
static int count_chunk(struct result *const *results, int count)
{
    static struct counted_launch items[MAX_PROFILED_RANGES];
    static struct counter_values values[MAX_PROFILED_RANGES];
    static int found[MAX_PROFILED_RANGES];
    const struct counted_work work = { prepare_counted, launch_counted, items };
    char why[256] = "";
    void *buffers[MAX_BUFFERS];
    for (int i = 0; i < MAX_BUFFERS; i++)
        buffers[i] = gpu.pool[i].device;
    for (int k = 0; k < count; k++) {
        items[k].family = results[k]->family;
        items[k].params = &results[k]->params;
        if (cuda_kernel_ready(items[k].family, items[k].params, buffers, gpu.stream, &items[k].launch, why, sizeof why)) {
            mark_unavailable(results, count, why);
            return 0;
        }
    }
    int status = counters_read(count, &work, values, found, why, sizeof why);
    cudaGetLastError();
    for (int k = 0; k < count; k++) {
        results[k]->have_counters = found[k];
        results[k]->counters = values[k];
        if (!found[k])
            snprintf(results[k]->counters_unavailable, sizeof results[k]->counters_unavailable, "%s", why);
    }
    return status;
}

/* Calls attempt (ensure_counters, or a chunk's profiling) holding the GPU's
   lock, again while it answers COUNTERS_BUSY, yielding the lock between: a
   warplab whose profiler is on turns it off when it sees another waiting, or
   after a second with nothing to do. Another tool holding the profiler is
   waited for BUSY_WAIT_S at most. Returns attempt's status, or -1 when Ctrl-C
   ended the wait (the lock is then not held). */
static int in_turn(int (*attempt)(struct result *const *, int), struct result *const *results, int count)
{
    double started = seconds_now();
    int status;
    while ((status = attempt(results, count)) == COUNTERS_BUSY && seconds_now() - started < BUSY_WAIT_S)
        if (gpu_lock_yield() != 0)
            return INTERRUPTED_WAITING;
    return status;
}

static int set_up_counters(struct result *const *results, int count)
{
    (void)results, (void)count;
    return ensure_counters();
}

/* Hardware counters for launches already measured, all in as few profiling
   sessions as possible: the session's fixed cost is paid once, not per launch.
   The GPU's lock is taken for each session, so other shells measure between. */
static void cuda_read_counters(struct result *const *results, int count)
{
    char why[256] = "";
    trace_phase(NULL);
    int status = gpu_lock_take() != 0 ? INTERRUPTED_WAITING : in_turn(set_up_counters, results, count);
    if (status != INTERRUPTED_WAITING)
        release_gpu();
    if (status == INTERRUPTED_WAITING)
        snprintf(why, sizeof why, "%s", interrupted_waiting());
    else if (status != 0)
        snprintf(why, sizeof why, "%s", gpu.counters_unavailable);
    else
        reserve_for_all(results, count, why, sizeof why);   /* says why when it fails */
    if (why[0]) {
        mark_unavailable(results, count, why);
        return;
    }
    trace_phase("counters set up, buffers");
    int per_session = counters_batch_size();
    for (int first = 0; first < count; first += per_session) {
        int chunk = count - first < per_session ? count - first : per_session;
        if (gpu_lock_take() != 0 || in_turn(count_chunk, results + first, chunk) == INTERRUPTED_WAITING) {
            mark_unavailable(results + first, count - first, interrupted_waiting());
            return;
        }
        release_gpu();
    }
    trace_phase("counters");
}

/* The child is waiting for the shell: if another process waits to profile
   this GPU, or the shell has been idle a long while, range profiling goes off
   so that others can profile. */
void cuda_backend_idle(int long_idle)
{
    if (gpu.open && (long_idle || gpu_lock_others_waiting()))
        counters_pause();
}

static enum run_status cuda_run(const struct family *f, const struct params *p,
                               const struct measure_options *options,
                               struct result *r, char *error, size_t error_size)
{
    size_t bytes[MAX_BUFFERS];
    struct ready_launch launch;
    void *buffers[MAX_BUFFERS];
    size_t launch_bytes = family_buffer_bytes(f, p, bytes), wanted[MAX_BUFFERS];
    for (int i = 0; i < f->buffer_count; i++)
        wanted[i] = bytes[i] ? bytes[i] : 4;   /* an empty buffer still gets an address */
    trace_phase(NULL);
    if (reserve_pool(wanted, f->buffer_count, launch_bytes, error, error_size))
        return RUN_FAILED;
    for (int i = 0; i < f->buffer_count; i++)
        buffers[i] = gpu.pool[i].device;
    if (cuda_kernel_ready(f, p, buffers, gpu.stream, &launch, error, error_size))   /* compiled here, outside the GPU's lock */
        return RUN_FAILED;
    struct reference_job reference = { .family = f, .params = p, .bytes = bytes };
    gpu.running = f;
    gpu.kernel_timeout_s = options->kernel_timeout_s > 0 ? options->kernel_timeout_s : 10;
    trace_phase("buffers");
    if (gpu_lock_take() != 0)
        return RUN_INTERRUPTED;
    trace_phase("waiting for the GPU");
    if (prepare_buffers(f, p, bytes) || launch_once(&launch) ||
        (options->check && copy_outputs_back(f, bytes))) {
        release_gpu();
        return fail(error, error_size);
    }
    trace_phase("inputs, checked launch");
    if (options->check)
        start_reference(&reference);
    enum run_status status = take_samples(&launch, options, r, error, error_size);
    release_gpu();
    trace_phase("samples");
    finish_reference(&reference);
    trace_phase("waiting for the reference");
    if (status == RUN_OK && options->check)
        compare_outputs(f, bytes, &reference, r);
    atomic_sums_free(&reference.sums);
    if (status != RUN_OK)
        return status;
    trace_phase("compare");
    r->measured = 1;
    r->cache = options->warm ? "warm" : "cold";
    if (r->sm_clock_mhz > 0 && r->sm_clock_mhz < 0.75 * gpu.info.sm_clock_mhz)
        result_warn(r, SAY("the SM clock ran at %.0f MHz during the samples, under 75%% of its %.0f MHz: "
                           "the GPU was throttled or idling, and times are slower than it can do",
                           "采样期间 SM 时钟为 %.0f MHz，低于其 %.0f MHz 的 75%%：GPU 被降频或处于空闲状态，"
                           "测得的时间比它能达到的慢"),
                    r->sm_clock_mhz, gpu.info.sm_clock_mhz);
    return RUN_OK;
}

/* Serves gpu_process.c's child: the shell itself never calls CUDA. After a
   sticky error usable() is 0 and the child ends without another request. */
const struct backend cuda_backend = {
    .name = "gpu", .measures = 1, .open = cuda_open, .run = cuda_run, .read_counters = cuda_read_counters,
    .measure_copy = cuda_measure_copy, .allocate = cuda_allocate, .usable = cuda_usable, .close = cuda_close,
};
#endif
