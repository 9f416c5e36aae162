/*
** counters.c — CUPTI Range Profiler, in C, loaded with dlopen. The call
** sequence is the one in ../shared/notes/cupti.md: host object and config
** image once; per counter batch, a fresh counter data image, SetConfig,
** Start, the kernels, Stop, Decode, and one evaluation per range. A build
** whose CUDA toolkit has no Range Profiler (before 12.6, or
** --disable-counters) has the stand-ins at the end: no counters, and why.
*/
#if defined(HAVE_CUDA) && defined(HAVE_CUPTI_RANGE_PROFILER)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include "backend/counters.h"
#include "libraries.h"
#include "support/text.h"

static struct {
    int open;
    CUcontext context;
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *profiler;
    uint8_t *config, *counter_data;
    uint8_t *availability;     /* counter availability image: the host object keeps using it */
    size_t config_size, counter_data_size, counter_data_capacity;
    size_t passes;
    char chip[16];
    unsigned char state[COUNTER_COUNT];   /* enum counter_state of each counter on this chip */
    const char *metrics[COUNTER_COUNT];   /* the names of those read, in counter order */
    size_t metric_count;
    int busy;                  /* the last failure was another process profiling: worth trying later */
} profiler;

/* The reason counters are unavailable, in the words the user needs, for the codes that say why. */
static const char *explain_result(CUptiResult result)
{
    switch ((int)result) {
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return SAY("another profiler (Nsight Compute, Nsight Systems or cuda-gdb) is attached to warplab", "另一个性能分析工具（Nsight Compute、Nsight Systems 或 cuda-gdb）已附加到 warplab");
    case CUPTI_ERROR_HARDWARE_BUSY:
        return SAY("another process is profiling this GPU", "另一个进程正在分析这块 GPU");
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return SAY("reading counters is restricted to administrators: run as root, or load the NVIDIA "
               "driver with NVreg_RestrictProfilingToAdminUsers=0", "读取计数器仅限管理员：请以 root 运行，或加载 NVIDIA 驱动时设置 "
               "NVreg_RestrictProfilingToAdminUsers=0");
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
        return SAY("this is a virtualised GPU without profiling support", "这是不支持性能分析的虚拟化 GPU");
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        return SAY("counters are not available on a MIG instance", "MIG 实例上没有计数器可用");
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        return SAY("counters are not available with confidential computing on", "开启机密计算时没有计数器可用");
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        return SAY("counters are not available on this GPU under WSL", "WSL 下这块 GPU 没有计数器可用");
    default:
        return NULL;
    }
}

/* Calls a CUPTI function; on failure writes why and returns -1. */
#define CUPTI_TRY(call, what) cupti_try((call), what, why, why_size)
static int cupti_try(CUptiResult result, const char *what, char *why, size_t why_size)
{
    const char *text = NULL, *reason = explain_result(result);
    if (getenv("WARPLAB_TRACE_CUPTI"))   /* for diagnosing a machine whose counters misbehave */
        fprintf(stderr, "warplab: cupti: %s -> %d\n", what, (int)result);
    if (result == CUPTI_SUCCESS)
        return 0;
    profiler.busy = result == CUPTI_ERROR_HARDWARE_BUSY;
    if (reason) {
        snprintf(why, why_size, "%s", reason);
        return -1;
    }
    if (cupti.cuptiGetResultString)
        cupti.cuptiGetResultString(result, &text);
    snprintf(why, why_size, SAY("CUPTI failed in %s: %s (%d)", "CUPTI 在 %s 中失败：%s（%d）"), what, text ? text : SAY("unknown error", "未知错误"), (int)result);
    return -1;
}

/* CUPTI's functions (libraries.h); 0, or -1 with why. */
static int load_library(char *why, size_t why_size)
{
    const char *missing;
    if (library_load(LIBRARY_CUPTI, &missing) == 0)
        return 0;
    if (missing)
        snprintf(why, why_size, SAY("this CUPTI lacks %s: it needs CUDA 12.6 or newer", "这个 CUPTI 缺少 %s：需要 CUDA 12.6 或更新版本"), missing);
    else
        snprintf(why, why_size, SAY("CUPTI (libcupti.so.13) was not found: install the CUDA toolkit's CUPTI", "找不到 CUPTI（libcupti.so.13）：请安装 CUDA 工具包中的 CUPTI"));
    return -1;
}

/* The current driver context, through the runtime (warplab does not link libcuda). */
static int current_context(char *why, size_t why_size)
{
    CUresult (*get_current)(CUcontext *) = NULL;
    enum cudaDriverEntryPointQueryResult status;
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&get_current, 12000,
                                         cudaEnableDefault, &status) != cudaSuccess ||
        !get_current || get_current(&profiler.context) != CUDA_SUCCESS || !profiler.context) {
        snprintf(why, why_size, SAY("no CUDA context to profile", "没有可分析的 CUDA 上下文"));
        return -1;
    }
    return 0;
}

/* Says why the device cannot be profiled, ahead of time, when CUPTI can tell. */
static int check_device(int ordinal, char *why, size_t why_size)
{
    CUpti_Profiler_DeviceSupported_Params p = { .structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE };
    p.cuDevice = ordinal;
    p.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (CUPTI_TRY(cupti.cuptiProfilerDeviceSupported(&p), "cuptiProfilerDeviceSupported"))
        return -1;
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return 0;
    const char *reason = p.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? SAY("the GPU is older than compute capability 7.5", "这块 GPU 的计算能力低于 7.5")
                       : p.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? SAY("this is a virtualised GPU (vGPU) with profiling off", "这是关闭了性能分析的虚拟化 GPU（vGPU）")
                       : p.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? SAY("confidential computing is on", "机密计算已开启")
                       : p.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? SAY("WSL does not allow profiling on this GPU", "WSL 不允许分析这块 GPU")
                       : p.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? SAY("SLI is on", "SLI 已开启")
                       : SAY("CUPTI says this device cannot be profiled", "CUPTI 表示这个设备无法分析");
    snprintf(why, why_size, "%s", reason);
    return -1;
}

/* A host object for chip; availability may be NULL (then nothing about a device is known). */
static CUpti_Profiler_Host_Object *host_object(const char *chip, const uint8_t *availability, char *why, size_t why_size)
{
    CUpti_Profiler_Host_Initialize_Params host = { .structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = chip;
    host.pCounterAvailabilityImage = availability;
    return CUPTI_TRY(cupti.cuptiProfilerHostInitialize(&host), "cuptiProfilerHostInitialize") ? NULL : host.pHostObject;
}

static void drop_host_object(CUpti_Profiler_Host_Object *host)
{
    CUpti_Profiler_Host_Deinitialize_Params drop = { .structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE };
    drop.pHostObject = host;
    if (host)
        cupti.cuptiProfilerHostDeinitialize(&drop);
}

/* Whether the chip knows a metric by this name (asking never harms the host
   object; adding an unknown name to a config leaves it unusable). */
static int chip_knows(CUpti_Profiler_Host_Object *host, const char *metric)
{
    CUpti_Profiler_Host_GetMetricProperties_Params properties = { .structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE };
    properties.pHostObject = host;
    properties.pMetricName = metric;
    return metric && cupti.cuptiProfilerHostGetMetricProperties(&properties) == CUPTI_SUCCESS;
}

/* Each counter's state on the host object's chip: by its name, its other name, or none. */
static void name_counters(CUpti_Profiler_Host_Object *host, unsigned char *states)
{
    for (int i = 0; i < COUNTER_COUNT; i++)
        states[i] = chip_knows(host, counter_table[i].metric) ? COUNTER_READ
                  : chip_knows(host, counter_table[i].other_metric) ? COUNTER_READ_AS_OTHER
                  : COUNTER_NOT_ON_CHIP;
}

/* The chip's name and its counter availability: what the host object needs to build a config. */
static int create_host_object(int ordinal, char *why, size_t why_size)
{
    CUpti_Device_GetChipName_Params chip = { .structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE };
    CUpti_Profiler_GetCounterAvailability_Params availability = { .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE };
    chip.deviceIndex = (size_t)ordinal;
    availability.ctx = profiler.context;
    if (CUPTI_TRY(cupti.cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") ||
        CUPTI_TRY(cupti.cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability"))
        return -1;
    profiler.availability = malloc(availability.counterAvailabilityImageSize);
    availability.pCounterAvailabilityImage = profiler.availability;
    if (!profiler.availability ||
        CUPTI_TRY(cupti.cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability"))
        return -1;
    snprintf(profiler.chip, sizeof profiler.chip, "%s", chip.pChipName);
    profiler.host = host_object(profiler.chip, profiler.availability, why, why_size);
    if (!profiler.host)
        return -1;
    name_counters(profiler.host, profiler.state);
    return 0;
}

/* The name counter i is read under on this chip, or NULL when it is not read. */
static const char *name_to_read(int i)
{
    switch (profiler.state[i]) {
    case COUNTER_READ: return counter_table[i].metric;
    case COUNTER_READ_AS_OTHER: return counter_table[i].other_metric;
    default: return NULL;
    }
}

/* The names of the counters to read, in counter order. */
static void list_metrics(void)
{
    profiler.metric_count = 0;
    for (int i = 0; i < COUNTER_COUNT; i++)
        if (name_to_read(i))
            profiler.metrics[profiler.metric_count++] = name_to_read(i);
}

static CUptiResult add_metrics(CUpti_Profiler_Host_Object *host, const char **names, size_t count)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params add = { .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
    add.pHostObject = host;
    add.ppMetricNames = names;
    add.numMetrics = count;
    return cupti.cuptiProfilerHostConfigAddMetrics(&add);
}

/* When the config will not take every counter the chip names (the device's
   counter availability leaves one out), tries each alone on a host object of
   its own, marks those refused COUNTER_NOT_OFFERED, and starts the host
   object again with the rest: one counter missing costs only itself. */
static int leave_out_refused(char *why, size_t why_size)
{
    for (int i = 0; i < COUNTER_COUNT; i++) {
        const char *name = name_to_read(i);
        if (!name)
            continue;
        CUpti_Profiler_Host_Object *alone = host_object(profiler.chip, profiler.availability, why, why_size);
        if (!alone)
            return -1;
        if (add_metrics(alone, &name, 1) != CUPTI_SUCCESS)
            profiler.state[i] = COUNTER_NOT_OFFERED;
        drop_host_object(alone);
    }
    drop_host_object(profiler.host);
    profiler.host = host_object(profiler.chip, profiler.availability, why, why_size);
    list_metrics();
    return profiler.host ? 0 : -1;
}

/* The config image for every counter in counter_table, built once. */
static int build_config(char *why, size_t why_size)
{
    CUpti_Profiler_Host_GetConfigImageSize_Params size = { .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE };
    CUpti_Profiler_Host_GetConfigImage_Params image = { .structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE };
    CUpti_Profiler_Host_GetNumOfPasses_Params passes = { .structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE };
    list_metrics();
    int refused = add_metrics(profiler.host, profiler.metrics, profiler.metric_count) != CUPTI_SUCCESS;
    if (refused && leave_out_refused(why, why_size))
        return -1;
    if (profiler.metric_count == 0) {
        snprintf(why, why_size, SAY("the %s offers none of the counters warplab reads", "%s 不提供 warplab 读取的任何计数器"), profiler.chip);
        return -1;
    }
    size.pHostObject = image.pHostObject = profiler.host;
    if ((refused && CUPTI_TRY(add_metrics(profiler.host, profiler.metrics, profiler.metric_count), "cuptiProfilerHostConfigAddMetrics")) ||
        CUPTI_TRY(cupti.cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize"))
        return -1;
    profiler.config_size = image.configImageSize = size.configImageSize;
    profiler.config = image.pConfigImage = malloc(size.configImageSize);
    if (!profiler.config ||
        CUPTI_TRY(cupti.cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage"))
        return -1;
    passes.configImageSize = profiler.config_size;
    passes.pConfigImage = profiler.config;
    if (CUPTI_TRY(cupti.cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses"))
        return -1;
    profiler.passes = passes.numOfPasses;
    return 0;
}

/* Enables range profiling on the context and sizes a counter data image for
   MAX_PROFILED_RANGES (the buffer is kept from one call to the next). */
static int enable_profiler(char *why, size_t why_size)
{
    CUpti_RangeProfiler_Enable_Params enable = { .structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };
    CUpti_RangeProfiler_GetCounterDataSize_Params size = { .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE };
    enable.ctx = profiler.context;
    if (CUPTI_TRY(cupti.cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable"))
        return -1;
    profiler.profiler = enable.pRangeProfilerObject;
    size.pRangeProfilerObject = profiler.profiler;
    size.pMetricNames = profiler.metrics;
    size.numMetrics = profiler.metric_count;
    size.maxNumOfRanges = MAX_PROFILED_RANGES;
    size.maxNumRangeTreeNodes = MAX_PROFILED_RANGES;
    if (CUPTI_TRY(cupti.cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize"))
        return -1;
    if (size.counterDataSize > profiler.counter_data_capacity) {
        free(profiler.counter_data);
        profiler.counter_data = malloc(size.counterDataSize);
        profiler.counter_data_capacity = profiler.counter_data ? size.counterDataSize : 0;
    }
    profiler.counter_data_size = size.counterDataSize;
    if (!profiler.counter_data) {
        snprintf(why, why_size, SAY("out of host memory for the counter data image", "主机内存不足，无法存放计数器数据"));
        return -1;
    }
    return 0;
}

void counters_pause(void)
{
    char why[256];
    size_t why_size = sizeof why;
    CUpti_RangeProfiler_Disable_Params disable = { .structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE };
    if (!profiler.profiler)
        return;
    disable.pRangeProfilerObject = profiler.profiler;
    CUPTI_TRY(cupti.cuptiRangeProfilerDisable(&disable), "cuptiRangeProfilerDisable");
    profiler.profiler = NULL;
}

int counters_open(int ordinal, char *why, size_t why_size)
{
    CUpti_Profiler_Initialize_Params initialize = { .structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
    if (profiler.open)
        return 0;
    int failed = load_library(why, why_size) || current_context(why, why_size) ||
                 CUPTI_TRY(cupti.cuptiProfilerInitialize(&initialize), "cuptiProfilerInitialize") ||
                 check_device(ordinal, why, why_size) || create_host_object(ordinal, why, why_size) ||
                 build_config(why, why_size);
    if (failed) {
        int busy = profiler.busy;
        counters_close();
        return busy ? COUNTERS_BUSY : -1;
    }
    profiler.open = 1;
    return 0;
}

/* How a batch replays its passes and cuts them into ranges. The default,
   user replay with user ranges: warplab runs every pass itself (the L2 flush
   and the kernel again), nothing is saved and restored between passes (its
   kernels write the same outputs each time, and no count depends on what an
   output held), and a range is pushed around each kernel alone, so the flush
   is never counted. Kernel replay (WARPLAB_REPLAY=kernel) saves and restores
   the memory a kernel may write, about 30 ms per kernel and pass on the H200,
   and only knows automatic ranges, one per kernel, the flush's included.
   WARPLAB_RANGE=auto keeps user replay with automatic ranges, for comparison. */
enum batch_mode { USER_RANGES, AUTO_RANGES, KERNEL_REPLAY };

/* Read from the environment once: it is asked for every item of every pass. */
static enum batch_mode batch_mode(void)
{
    static int known;
    static enum batch_mode mode;
    if (!known) {
        const char *replay = getenv("WARPLAB_REPLAY"), *range = getenv("WARPLAB_RANGE");
        mode = replay && strcmp(replay, "kernel") == 0 ? KERNEL_REPLAY
             : range && strcmp(range, "auto") == 0 ? AUTO_RANGES : USER_RANGES;
        known = 1;
    }
    return mode;
}

int counters_save_memory(void)
{
    return batch_mode() == KERNEL_REPLAY;
}

/* Ranges an item records: its kernel, and under automatic ranges the flush before it. */
static int ranges_per_item(void)
{
    return batch_mode() == USER_RANGES ? 1 : 2;
}

/* WARPLAB_BATCH_ITEMS caps a batch's items, to compare batch sizes. */
int counters_batch_size(void)
{
    const char *text = getenv("WARPLAB_BATCH_ITEMS");
    int most = MAX_PROFILED_RANGES / ranges_per_item(), asked = text ? atoi(text) : 0;
    return asked > 0 && asked < most ? asked : most;
}

/* A fresh counter data image bound to the config: the start of a counter batch. */
static int begin_batch(char *why, size_t why_size)
{
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params reset = { .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE };
    CUpti_RangeProfiler_SetConfig_Params config = { .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };
    enum batch_mode mode = batch_mode();
    reset.pRangeProfilerObject = config.pRangeProfilerObject = profiler.profiler;
    reset.counterDataSize = config.counterDataImageSize = profiler.counter_data_size;
    reset.pCounterData = config.pCounterDataImage = profiler.counter_data;
    config.configSize = profiler.config_size;
    config.pConfig = profiler.config;
    config.range = mode == USER_RANGES ? CUPTI_UserRange : CUPTI_AutoRange;
    config.replayMode = mode == KERNEL_REPLAY ? CUPTI_KernelReplay : CUPTI_UserReplay;
    config.maxRangesPerPass = MAX_PROFILED_RANGES;   /* room to spare, as NVIDIA's samples give */
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.targetNestingLevel = 1;
    return CUPTI_TRY(cupti.cuptiRangeProfilerCounterDataImageInitialize(&reset), "cuptiRangeProfilerCounterDataImageInitialize") ||
           CUPTI_TRY(cupti.cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig");
}

/* The items of one batch: indices into the caller's work, in launch order. */
struct batch_items {
    int count;
    int index[MAX_PROFILED_RANGES];
};

static const char RANGE_NAME[] = "warplab item %d";

/* An item's kernel, in a range of its own under user ranges: the stream is
   drained first, so that nothing before the kernel (the flush) is counted.
   The range is named after the item, which is how its counts are found again. */
static int record_item(int item, const struct counted_work *work, char *why, size_t why_size)
{
    static char names[MAX_PROFILED_RANGES][24];   /* kept: CUPTI may hold on to them until Decode */
    CUpti_RangeProfiler_PushRange_Params push = { .structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE };
    CUpti_RangeProfiler_PopRange_Params pop = { .structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE };
    if (work->prepare(item, work->user))
        return -1;
    if (batch_mode() != USER_RANGES)
        return work->launch(item, work->user);
    push.pRangeProfilerObject = pop.pRangeProfilerObject = profiler.profiler;
    snprintf(names[item], sizeof names[item], RANGE_NAME, item);
    push.pRangeName = names[item];
    if (cudaDeviceSynchronize() != cudaSuccess || CUPTI_TRY(cupti.cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange"))
        return -1;
    int failed = work->launch(item, work->user) || cudaDeviceSynchronize() != cudaSuccess;
    return CUPTI_TRY(cupti.cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange") || failed ? -1 : 0;
}

/* One pass: Start, the items, Stop; returns how many items were recorded, -1 on failure. */
static int record_pass(const struct batch_items *items, const struct counted_work *work, int *all_submitted,
                       char *why, size_t why_size)
{
    CUpti_RangeProfiler_Start_Params start = { .structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
    CUpti_RangeProfiler_Stop_Params stop = { .structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
    start.pRangeProfilerObject = stop.pRangeProfilerObject = profiler.profiler;
    if (CUPTI_TRY(cupti.cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart"))
        return -1;
    int recorded = 0;
    while (recorded < items->count && record_item(items->index[recorded], work, why, why_size) == 0)
        recorded++;
    cudaDeviceSynchronize();
    if (CUPTI_TRY(cupti.cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop"))
        return -1;
    if (getenv("WARPLAB_TRACE_CUPTI"))
        fprintf(stderr, "warplab: cupti: pass %zu of %zu, %d items, all submitted %d\n",
                stop.passIndex, profiler.passes, recorded, stop.isAllPassSubmitted);
    *all_submitted = stop.isAllPassSubmitted;
    return recorded;
}

enum { MAX_PASSES = 64 };

/* The passes, Decode; returns how many ranges were recorded, or -1. */
static int record_ranges(const struct batch_items *items, const struct counted_work *work, char *why, size_t why_size)
{
    CUpti_RangeProfiler_DecodeData_Params decode = { .structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = { .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE };
    int all_submitted = 0, recorded = 0, passes = 0;
    decode.pRangeProfilerObject = profiler.profiler;
    /* kernel replay: one Start/Stop does every pass; user replay: one a pass */
    while (!all_submitted && passes++ < MAX_PASSES && recorded >= 0) {
        recorded = record_pass(items, work, &all_submitted, why, why_size);
        if (batch_mode() == KERNEL_REPLAY)
            break;
    }
    if (recorded < 0 || CUPTI_TRY(cupti.cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData"))
        return -1;
    if (recorded < items->count) {
        snprintf(why, why_size, SAY("a profiled launch failed", "一次被分析的启动失败了"));
        return -1;
    }
    if (!all_submitted) {
        snprintf(why, why_size, SAY("the profiler wanted more than %d passes", "性能分析需要超过 %d 轮"), MAX_PASSES);
        return -1;
    }
    info.pCounterDataImage = profiler.counter_data;
    info.counterDataImageSize = profiler.counter_data_size;
    if (CUPTI_TRY(cupti.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo"))
        return -1;
    if (getenv("WARPLAB_TRACE_CUPTI"))
        fprintf(stderr, "warplab: cupti: %zu ranges recorded for %d items, %zu dropped\n",
                info.numTotalRanges, items->count, decode.numOfRangeDropped);
    return (int)info.numTotalRanges;
}

/* One range's values, each counter's in its place; those the chip lacks are 0 and say so in state. */
static int evaluate_range(size_t range, struct counter_values *values, char *why, size_t why_size)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate = { .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
    double read[COUNTER_COUNT];
    evaluate.pHostObject = profiler.host;
    evaluate.pCounterDataImage = profiler.counter_data;
    evaluate.counterDataImageSize = profiler.counter_data_size;
    evaluate.rangeIndex = range;
    evaluate.ppMetricNames = profiler.metrics;
    evaluate.numMetrics = profiler.metric_count;
    evaluate.pMetricValues = read;
    if (CUPTI_TRY(cupti.cuptiProfilerHostEvaluateToGpuValues(&evaluate), "cuptiProfilerHostEvaluateToGpuValues"))
        return -1;
    memcpy(values->state, profiler.state, sizeof values->state);
    snprintf(values->chip, sizeof values->chip, "%s", profiler.chip);
    for (int i = 0, next = 0; i < COUNTER_COUNT; i++)
        values->value[i] = counter_was_read(values, i) ? read[next++] : 0;
    return 0;
}

/* Which item recorded range `range` holds, or -1. User ranges say so by
   name; automatic ones only by position, and only when none went missing. */
static int item_of_range(int range, int recorded, const struct batch_items *items)
{
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params info = { .structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE };
    int per_item = ranges_per_item(), item = -1;
    if (batch_mode() != USER_RANGES)
        return recorded == items->count * per_item && range % per_item == per_item - 1 ? items->index[range / per_item] : -1;
    info.pCounterDataImage = profiler.counter_data;
    info.counterDataImageSize = profiler.counter_data_size;
    info.rangeIndex = (size_t)range;
    info.rangeDelimiter = "/";
    if (cupti.cuptiRangeProfilerCounterDataGetRangeInfo(&info) != CUPTI_SUCCESS || !info.rangeName ||
        sscanf(info.rangeName, RANGE_NAME, &item) != 1)
        return -1;
    return item;
}

/* One counter batch over items; sets found[i] for each item whose counts
   were read into values[i]. 0, or -1 when the batch failed as a whole. */
static int count_batch(const struct batch_items *items, const struct counted_work *work,
                           struct counter_values *values, int *found, char *why, size_t why_size)
{
    if (begin_batch(why, why_size))
        return -1;
    int recorded = record_ranges(items, work, why, why_size);
    if (recorded < 0)
        return -1;
    for (int range = 0; range < recorded; range++) {
        int item = item_of_range(range, recorded, items);
        if (getenv("WARPLAB_TRACE_CUPTI"))
            fprintf(stderr, "warplab: cupti: range %d holds item %d\n", range, item);
        if (item >= 0 && !found[item]) {
            if (evaluate_range((size_t)range, &values[item], why, why_size))
                return -1;
            found[item] = 1;
        }
    }
    return 0;
}

/* Counts every item in one batch; any item whose range the profiler did
   not record (on the H200 a batch sometimes records fewer ranges than were
   pushed) is counted again in a batch of its own. */
int counters_read(int items, const struct counted_work *work, struct counter_values *values,
                     int *found, char *why, size_t why_size)
{
    struct batch_items all = { 0 }, alone = { 1, { 0 } };
    for (int i = 0; i < items; i++)
        found[i] = 0;
    if (!profiler.open) {
        snprintf(why, why_size, SAY("the profiler is not set up", "性能分析尚未设置好"));
        return -1;
    }
    if (items * ranges_per_item() > MAX_PROFILED_RANGES) {
        snprintf(why, why_size, SAY("at most %d kernels can be profiled at once", "一次最多只能分析 %d 个核函数"), MAX_PROFILED_RANGES / ranges_per_item());
        return -1;
    }
    for (int i = 0; i < items; i++)
        all.index[all.count++] = i;
    if (!profiler.profiler && enable_profiler(why, why_size))
        return profiler.busy ? COUNTERS_BUSY : -1;
    int failed = count_batch(&all, work, values, found, why, why_size);
    for (int i = 0; i < items && !failed; i++) {
        if (found[i] || items == 1)
            continue;
        alone.index[0] = i;
        failed = count_batch(&alone, work, values, found, why, why_size);
    }
    if (failed)
        return -1;
    for (int i = 0; i < items; i++)
        if (!found[i]) {
            snprintf(why, why_size, SAY("the profiler recorded no range for the kernel", "性能分析没有记录到这个核函数的范围"));
            return -1;
        }
    return 0;
}

int counters_for_chip(const char *chip, unsigned char *states, char *why, size_t why_size)
{
    if (load_library(why, why_size))
        return -1;
    CUpti_Profiler_Host_Object *host = host_object(chip, NULL, why, why_size);
    if (!host)
        return -1;
    name_counters(host, states);
    drop_host_object(host);
    return 0;
}

void counters_close(void)
{
    counters_pause();
    drop_host_object(profiler.host);
    free(profiler.config);
    free(profiler.counter_data);
    free(profiler.availability);
    memset(&profiler, 0, sizeof profiler);   /* CUPTI stays loaded (libraries.c): it does not like being unloaded */
}
#elif defined(HAVE_CUDA)
#include <stdio.h>
#include "backend/counters.h"
#include "support/text.h"

/* No Range Profiler in this build: every counter read says so, once each. */
static int no_counters(char *why, size_t why_size)
{
    snprintf(why, why_size, "%s", SAY("this warplab was built without hardware counters (its CUDA toolkit's CUPTI has no Range "
                                      "Profiler, which CUDA 12.6 and newer have, or --disable-counters)",
                                      "这个 warplab 构建时没有硬件计数器（它的 CUDA 工具包中的 CUPTI 没有 Range Profiler，"
                                      "CUDA 12.6 及更新版本才有；或者用了 --disable-counters）"));
    return -1;
}

int counters_open(int ordinal, char *why, size_t why_size)
{
    (void)ordinal;
    return no_counters(why, why_size);
}

int counters_read(int items, const struct counted_work *work, struct counter_values *values, int *found, char *why,
                  size_t why_size)
{
    (void)work, (void)values;
    for (int i = 0; i < items; i++)
        found[i] = 0;
    return no_counters(why, why_size);
}

int counters_for_chip(const char *chip, unsigned char *states, char *why, size_t why_size)
{
    (void)chip, (void)states;
    return no_counters(why, why_size);
}

void counters_pause(void) {}
int counters_save_memory(void) { return 0; }
int counters_batch_size(void) { return 1; }
void counters_close(void) {}
#endif
