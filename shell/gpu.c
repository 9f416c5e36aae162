/*
** gpu.c — the CUDA backend: device buffers from a pool reused across
** launches, random inputs, poisoned outputs checked against the CPU
** reference, and event-timed samples with L2 flushed before each.
** Every CUDA call goes through CUDA_TRY, which records the failure and
** returns a status: nothing here exits the process.
*/
#ifdef HAVE_CUDA
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime_api.h>
#include "backend.h"
#include "interrupt.h"
#include "registry.h"

enum { MIN_SAMPLES = 10, WARMUP_LAUNCHES = 2 };
static const double SAMPLE_BUDGET_MS = 500.0;   /* GPU time spent on samples */
static const double WALL_LIMIT_S = 15.0;
static const double TARGET_MEDIAN_ERROR = 0.005;

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

/* One buffer slot: device memory plus the host copies the check needs. */
struct slot {
    void *device;
    void *host;        /* inputs as sent; for outputs, what the GPU wrote */
    void *expected;    /* outputs only: what the CPU reference wrote */
    size_t capacity;
};

static struct {
    int open;
    int ordinal;
    struct device_info info;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    struct slot slots[MAX_BUFFERS];
    void *flush;
    size_t flush_bytes;
    uint64_t seed;
} gpu;

static void slot_release(struct slot *s)
{
    if (s->device)
        cudaFree(s->device);
    free(s->host);
    free(s->expected);
    memset(s, 0, sizeof *s);
}

static void pool_release(void)
{
    for (int i = 0; i < MAX_BUFFERS; i++)
        slot_release(&gpu.slots[i]);
}

/* Makes slot i hold at least bytes; device memory is only reallocated to grow. */
static int slot_reserve(int i, size_t bytes, char *error, size_t error_size)
{
    struct slot *s = &gpu.slots[i];
    if (s->capacity >= bytes)
        return 0;
    slot_release(s);
    if (cudaMalloc(&s->device, bytes) != cudaSuccess) {
        size_t free_bytes = 0, total = 0;
        cudaGetLastError();
        s->device = NULL;
        pool_release();   /* give back every slot, then try once more */
        cudaMemGetInfo(&free_bytes, &total);
        if (cudaMalloc(&s->device, bytes) != cudaSuccess) {
            cudaGetLastError();
            s->device = NULL;
            snprintf(error, error_size,
                     "out of device memory: a buffer of %.2f GB was asked for and %.2f GB are free",
                     bytes / 1e9, free_bytes / 1e9);
            return -1;
        }
    }
    s->host = malloc(bytes);
    s->expected = malloc(bytes);
    if (!s->host || !s->expected) {
        slot_release(s);
        snprintf(error, error_size, "out of host memory: %.2f GB asked for", 2 * bytes / 1e9);
        return -1;
    }
    s->capacity = bytes;
    return 0;
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
    info->ordinal = ordinal;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
}

/* Stream, events and the L2 flush buffer: everything a session reuses. */
static int create_session_objects(void)
{
    if (CUDA_TRY(cudaSetDevice(gpu.ordinal)) || CUDA_TRY(cudaFree(0)) ||
        CUDA_TRY(cudaStreamCreateWithFlags(&gpu.stream, cudaStreamNonBlocking)) ||
        CUDA_TRY(cudaEventCreate(&gpu.start)) || CUDA_TRY(cudaEventCreate(&gpu.stop)))
        return -1;
    gpu.flush_bytes = 2 * (size_t)gpu.info.l2_bytes;
    return CUDA_TRY(cudaMalloc(&gpu.flush, gpu.flush_bytes));
}

static void destroy_session_objects(void)
{
    pool_release();
    if (gpu.flush)
        cudaFree(gpu.flush);
    if (gpu.start)
        cudaEventDestroy(gpu.start);
    if (gpu.stop)
        cudaEventDestroy(gpu.stop);
    if (gpu.stream)
        cudaStreamDestroy(gpu.stream);
    gpu.flush = NULL;
    gpu.start = gpu.stop = NULL;
    gpu.stream = NULL;
}

/* Why cudaGetDeviceCount found nothing, in the words a student needs. */
static const char *no_gpu_reason(cudaError_t status)
{
    switch (status) {
    case cudaSuccess: case cudaErrorNoDevice:
        return "no CUDA device on this machine";
    case cudaErrorInsufficientDriver:
        return "no NVIDIA driver, or one older than CUDA " CUDA_VERSION_TEXT " needs";
    default:
        return cudaGetErrorString(status);
    }
}

static int gpu_open(int ordinal, struct device_info *info, char *why, size_t why_size)
{
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        snprintf(why, why_size, "no GPU (%s)", no_gpu_reason(status));
        return -1;
    }
    if (ordinal < 0 || ordinal >= count) {
        snprintf(why, why_size, "no GPU %d: this machine has %d (0 to %d)", ordinal, count, count - 1);
        return -1;
    }
    gpu.ordinal = ordinal;
    gpu.seed = 0x5eed;
    read_device_info(ordinal, &gpu.info);
    if (create_session_objects() != 0) {
        snprintf(why, why_size, "GPU %d unusable: %s", ordinal, cuda_failure);
        destroy_session_objects();
        return -1;
    }
    gpu.open = 1;
    *info = gpu.info;
    return 0;
}

static void gpu_close(void)
{
    if (!gpu.open)
        return;
    destroy_session_objects();
    gpu.open = 0;
}

/* Errors after which the context is unusable until the device is reset. */
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

/* Reports a CUDA failure; after a sticky one, resets the device and rebuilds the session. */
static enum run_status fail(char *error, size_t error_size)
{
    cudaError_t status = cuda_status;
    if (!is_sticky(status)) {
        cudaGetLastError();
        snprintf(error, error_size, "CUDA error: %s", cuda_failure);
        return RUN_FAILED;
    }
    char failure[512];
    snprintf(failure, sizeof failure, "%s", cuda_failure);
    destroy_session_objects();
    cudaDeviceReset();
    int rebuilt = create_session_objects() == 0;
    snprintf(error, error_size, "CUDA error: %s; the device was reset%s", failure,
             rebuilt ? " and is ready again" : ", but could not be set up again");
    return RUN_FAILED;
}

/* splitmix64: fast, and every launch gets fresh values. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Random floats in [-1, 1) with 24 significant bits. */
static void fill_random(float *data, size_t count, uint64_t *state)
{
    for (size_t i = 0; i < count; i++)
        data[i] = (float)((int64_t)(next_random(state) >> 40) - (1 << 23)) / (float)(1 << 23);
}

static const unsigned char POISON = 0xff;   /* a NaN in every float */

/* Sends fresh random inputs and poisons the outputs, on the GPU and in the reference. */
static int prepare_buffers(const struct family *f, const size_t *bytes)
{
    for (int i = 0; i < f->buffer_count; i++) {
        struct slot *s = &gpu.slots[i];
        if (f->buffers[i].role == BUFFER_IN) {
            fill_random(s->host, bytes[i] / sizeof(float), &gpu.seed);
            if (CUDA_TRY(cudaMemcpyAsync(s->device, s->host, bytes[i], cudaMemcpyHostToDevice, gpu.stream)))
                return -1;
        } else {
            memset(s->expected, POISON, bytes[i]);
            if (CUDA_TRY(cudaMemsetAsync(s->device, POISON, bytes[i], gpu.stream)))
                return -1;
        }
    }
    return CUDA_TRY(cudaStreamSynchronize(gpu.stream));
}

static int launch_once(const struct family *f, const struct gpu_launch *launch)
{
    if (CUDA_TRY((cudaError_t)f->launch(launch)))
        return -1;
    return CUDA_TRY(cudaStreamSynchronize(gpu.stream));
}

/* Compares every output with the reference; describes the first difference. */
static int check_outputs(const struct family *f, const struct params *p, const size_t *bytes,
                         struct result *r)
{
    void *reference_buffers[MAX_BUFFERS];
    for (int i = 0; i < f->buffer_count; i++)
        reference_buffers[i] = f->buffers[i].role == BUFFER_IN ? gpu.slots[i].host : gpu.slots[i].expected;
    f->reference(p, reference_buffers);
    r->correct = 1;
    for (int i = 0; i < f->buffer_count && r->correct; i++) {
        struct slot *s = &gpu.slots[i];
        if (f->buffers[i].role != BUFFER_OUT)
            continue;
        if (CUDA_TRY(cudaMemcpy(s->host, s->device, bytes[i], cudaMemcpyDeviceToHost)))
            return -1;
        const uint32_t *got = s->host, *want = s->expected;
        for (size_t k = 0; k < bytes[i] / 4; k++) {
            if (got[k] == want[k])
                continue;
            float got_value, want_value;
            memcpy(&got_value, &got[k], 4);
            memcpy(&want_value, &want[k], 4);
            snprintf(r->mismatch, sizeof r->mismatch, "%s[%zu] (as float): expected %.9g, got %.9g",
                     f->buffers[i].name, k, want_value, got_value);
            r->correct = 0;
            break;
        }
    }
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile of sorted values by linear interpolation. */
static double quantile(const double *sorted, int count, double q)
{
    double position = q * (count - 1);
    int below = (int)position;
    if (below + 1 >= count)
        return sorted[count - 1];
    return sorted[below] + (position - below) * (sorted[below + 1] - sorted[below]);
}

static void summarize(struct timing *t)
{
    double sorted[MAX_SAMPLES];
    memcpy(sorted, t->samples_ms, t->sample_count * sizeof(double));
    qsort(sorted, t->sample_count, sizeof(double), compare_doubles);
    t->median_ms = quantile(sorted, t->sample_count, 0.5);
    t->min_ms = sorted[0];
    t->max_ms = sorted[t->sample_count - 1];
    t->iqr_relative = (quantile(sorted, t->sample_count, 0.75) -
                       quantile(sorted, t->sample_count, 0.25)) / t->median_ms;
}

/* Whether the median is known to within TARGET_MEDIAN_ERROR (its standard
   error estimated from the interquartile range). */
static int median_is_stable(struct timing *t)
{
    summarize(t);
    double sigma = t->iqr_relative / 1.349;
    return 1.2533 * sigma / sqrt((double)t->sample_count) < TARGET_MEDIAN_ERROR;
}

static double wall_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

/* One sample: flush L2 outside the timed window, then events around the kernel only. */
static int time_one(const struct family *f, const struct gpu_launch *launch, double *ms)
{
    float elapsed = 0;
    if (CUDA_TRY(cudaMemsetAsync(gpu.flush, 0, gpu.flush_bytes, gpu.stream)) ||
        CUDA_TRY(cudaEventRecord(gpu.start, gpu.stream)) ||
        CUDA_TRY((cudaError_t)f->launch(launch)) ||
        CUDA_TRY(cudaEventRecord(gpu.stop, gpu.stream)) ||
        CUDA_TRY(cudaEventSynchronize(gpu.stop)) ||
        CUDA_TRY(cudaEventElapsedTime(&elapsed, gpu.start, gpu.stop)))
        return -1;
    *ms = elapsed;
    return 0;
}

static enum run_status take_samples(const struct family *f, const struct gpu_launch *launch,
                                    struct timing *t, char *error, size_t error_size)
{
    double spent_ms = 0, started = wall_seconds();
    for (int i = 0; i < WARMUP_LAUNCHES; i++)
        if (launch_once(f, launch))
            return fail(error, error_size);
    t->sample_count = 0;
    while (t->sample_count < MAX_SAMPLES) {
        if (interrupt_requested)
            return RUN_INTERRUPTED;
        if (time_one(f, launch, &t->samples_ms[t->sample_count]))
            return fail(error, error_size);
        spent_ms += t->samples_ms[t->sample_count++];
        if (t->sample_count < MIN_SAMPLES)
            continue;
        if (median_is_stable(t) || spent_ms >= SAMPLE_BUDGET_MS || wall_seconds() - started > WALL_LIMIT_S)
            break;
    }
    summarize(t);
    return RUN_OK;
}

static enum run_status gpu_run(const struct family *f, const struct params *p,
                               struct result *r, char *error, size_t error_size)
{
    size_t bytes[MAX_BUFFERS];
    struct gpu_launch launch = { .params = p, .shape = f->shape(p), .stream = gpu.stream };
    family_buffer_bytes(f, p, bytes);
    for (int i = 0; i < f->buffer_count; i++) {
        if (slot_reserve(i, bytes[i] ? bytes[i] : 4, error, error_size))
            return RUN_FAILED;
        launch.buffers[i] = gpu.slots[i].device;
    }
    if (prepare_buffers(f, bytes) || launch_once(f, &launch) || check_outputs(f, p, bytes, r))
        return fail(error, error_size);
    enum run_status status = take_samples(f, &launch, &r->timing, error, error_size);
    if (status != RUN_OK)
        return status;
    r->measured = 1;
    r->cache = "cold";
    return RUN_OK;
}

const struct backend gpu_backend = { "gpu", gpu_open, gpu_run, gpu_close };
#endif
