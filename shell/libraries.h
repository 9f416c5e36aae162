/*
** libraries.h — the CUDA libraries warplab loads at run time and every
** function it takes from each, listed here once: NVRTC (shell/compile/),
** the driver API (found through the runtime, which has loaded libcuda:
** warplab links no libcuda) and CUPTI (shell/backend/counters.c). A build or
** a machine without them still starts; each user says what is missing.
*/
#ifndef WARPLAB_LIBRARIES_H
#define WARPLAB_LIBRARIES_H

#ifdef HAVE_CUDA
#include <cuda.h>
#include <nvrtc.h>

#define NVRTC_FUNCTIONS(X)                                                                      \
    X(nvrtcVersion) X(nvrtcGetErrorString) X(nvrtcCreateProgram) X(nvrtcCompileProgram)       \
    X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetPTXSize) X(nvrtcGetPTX)          \
    X(nvrtcDestroyProgram) X(nvrtcAddNameExpression) X(nvrtcGetLoweredName) X(nvrtcGetCUBINSize) X(nvrtcGetCUBIN)    \
    X(nvrtcGetNumSupportedArchs) X(nvrtcGetSupportedArchs)

#define DRIVER_FUNCTIONS(X) \
    X(cuModuleLoadData) X(cuModuleGetFunction) X(cuModuleUnload) X(cuLaunchKernel) X(cuFuncSetAttribute) X(cuGetErrorString) \
    X(cuModuleGetGlobal) X(cuMemcpyHtoDAsync) X(cuFuncGetParamInfo)
#endif

#ifdef HAVE_CUPTI_RANGE_PROFILER
#include <cupti_target.h>
#include <cupti_profiler_target.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#define CUPTI_FUNCTIONS(X)                                                                   \
    X(cuptiGetResultString) X(cuptiProfilerInitialize) X(cuptiProfilerDeviceSupported)       \
    X(cuptiDeviceGetChipName) X(cuptiProfilerGetCounterAvailability)                         \
    X(cuptiProfilerHostInitialize) X(cuptiProfilerHostDeinitialize)                          \
    X(cuptiProfilerHostConfigAddMetrics) X(cuptiProfilerHostGetConfigImageSize)              \
    X(cuptiProfilerHostGetConfigImage) X(cuptiProfilerHostGetNumOfPasses)                    \
    X(cuptiProfilerHostEvaluateToGpuValues) X(cuptiProfilerHostGetMetricProperties)          \
    X(cuptiRangeProfilerEnable)                                                              \
    X(cuptiRangeProfilerDisable) X(cuptiRangeProfilerGetCounterDataSize)                     \
    X(cuptiRangeProfilerCounterDataImageInitialize) X(cuptiRangeProfilerSetConfig)           \
    X(cuptiRangeProfilerStart) X(cuptiRangeProfilerStop) X(cuptiRangeProfilerDecodeData)     \
    X(cuptiRangeProfilerGetCounterDataInfo) X(cuptiRangeProfilerPushRange)                  \
    X(cuptiRangeProfilerPopRange) X(cuptiRangeProfilerCounterDataGetRangeInfo)
#endif

/* Each library's functions, called as nvrtc.nvrtcVersion(...) once loaded. */
#define LIBRARY_POINTER(name) __typeof__(&name) name;
#ifdef HAVE_CUDA
extern struct nvrtc_functions { NVRTC_FUNCTIONS(LIBRARY_POINTER) } nvrtc;
extern struct driver_functions { DRIVER_FUNCTIONS(LIBRARY_POINTER) } driver;
#endif
#ifdef HAVE_CUPTI_RANGE_PROFILER
extern struct cupti_functions { CUPTI_FUNCTIONS(LIBRARY_POINTER) } cupti;
#endif

enum library_id { LIBRARY_NVRTC, LIBRARY_DRIVER, LIBRARY_CUPTI };

/* Opens a library (the first of its paths that dlopen takes, RTLD_LOCAL;
   the driver's through the runtime) and finds each of its functions, once:
   a later call after success returns at once. 0, or -1 with *missing the
   first function not found, or NULL when the library itself was not. */
int library_load(enum library_id id, const char **missing);

#endif
