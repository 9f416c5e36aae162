/*
** cuda_kernels.c — every kernel the GPU process launches, built-in or
** declared in Lua, launched one way: its function found once, then the
** driver's launch with the arguments, grid and shared memory its family's
** kernel_call gives (what the emulator runs too). A built-in family's
** kernel is compiled here by NVRTC from its source, the first time a launch
** asks for it (a CUBIN for this GPU, or, where NVRTC does not know it or
** CUDA_FORCE_PTX_JIT=1 asks, PTX the driver compiles), and kept; a declared
** kernel comes with its machine code from the shell. The driver's functions
** come from libraries.c.
*/
#ifdef HAVE_CUDA
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include "backend/backend.h"
#include "backend/emulate.h"
#include "compile/device_compile.h"
#include "libraries.h"
#include "support/text.h"
#include "backend/user_kernel.h"

/* Each declared kernel's module and function here, by its index. */
static struct {
    CUmodule module;
    CUfunction function;
} loaded[MAX_USER_KERNELS];

/* The built-in families' kernels loaded here, by family and kernel: a
   list that only grows (a counted batch holds functions of many). */
static struct family_kernel {
    const struct family *f;
    char kernel[sizeof ((struct kernel_call *)0)->kernel];
    CUmodule module;
    CUfunction function;
} *family_kernels;
static int family_kernel_count, family_kernel_room;

/* Above this much dynamic shared memory a kernel must say it wants more. */
enum { DEFAULT_DYNAMIC_SHARED_BYTES = 48 << 10 };

/* The driver's functions (libraries.h); NULL, or why not. */
static const char *find_driver(void)
{
    static char why[256];
    const char *missing;
    if (library_load(LIBRARY_DRIVER, &missing) == 0)
        return NULL;
    snprintf(why, sizeof why, SAY("the NVIDIA driver has no %s", "NVIDIA 驱动中没有 %s"), missing ? missing : "?");
    return why;
}

static const char *driver_error(CUresult status)
{
    const char *text = NULL;
    return driver.cuGetErrorString && driver.cuGetErrorString(status, &text) == CUDA_SUCCESS && text ? text : "?";
}

/* This GPU's compute capability (90 for sm_90), or 0. */
static int this_gpu(void)
{
    int device = 0, major = 0, minor = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return 10 * major + minor;
}

/* What a built-in's kernel is compiled to here: this GPU's CUBIN ("sm_90")
   where NVRTC knows it; its PTX ("compute_90") with CUDA_FORCE_PTX_JIT=1,
   as the runtime would JIT nvcc's; else the emulator's PTX, which a GPU
   newer than NVRTC compiles at load. */
static void target_for(const struct family *f, const struct params *p, char *target, size_t target_size)
{
    const char *force = getenv("CUDA_FORCE_PTX_JIT");
    int cc = this_gpu(), jit = force && strcmp(force, "0") != 0;
    if (cc && nvrtc_knows_arch(cc))
        snprintf(target, target_size, "%s_%d", jit ? "compute" : "sm", cc);
    else
        snprintf(target, target_size, "compute_%d", emulation_compute_capability(f, p));
}

/* Loads image (a CUBIN, or PTX the driver compiles) and finds symbol in it; a CUresult. */
static CUresult load_function(const void *image, const char *symbol, CUmodule *module, CUfunction *function)
{
    CUresult status = driver.cuModuleLoadData(module, image);
    if (status == CUDA_SUCCESS && (status = driver.cuModuleGetFunction(function, *module, symbol)) != CUDA_SUCCESS) {
        driver.cuModuleUnload(*module);
        *module = NULL;
    }
    return status;
}

/* A built-in family's kernel for call, loaded here once; NULL with why. */
static CUfunction family_function(const struct family *f, const struct params *p, const struct kernel_call *call, char *why,
                                  size_t why_size)
{
    for (int i = 0; i < family_kernel_count; i++)
        if (family_kernels[i].f == f && strcmp(family_kernels[i].kernel, call->kernel) == 0)
            return family_kernels[i].function;
    if (family_kernel_count == family_kernel_room) {
        int room = family_kernel_room ? 2 * family_kernel_room : 32;
        struct family_kernel *grown = realloc(family_kernels, (size_t)room * sizeof *grown);
        if (!grown) {
            snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
            return NULL;
        }
        family_kernels = grown, family_kernel_room = room;
    }
    char target[32], lowered[256];
    size_t size;
    target_for(f, p, target, sizeof target);
    char *code = family_code(f, call->kernel, target, &size, lowered, sizeof lowered, why, why_size);
    if (!code)
        return NULL;
    struct family_kernel *k = &family_kernels[family_kernel_count];
    *k = (struct family_kernel){ .f = f };
    snprintf(k->kernel, sizeof k->kernel, "%s", call->kernel);
    CUresult status = load_function(code, lowered, &k->module, &k->function);
    free(code);
    if (status != CUDA_SUCCESS) {
        snprintf(why, why_size, SAY("kernel '%s' does not load on this GPU: %s", "核函数 '%s' 无法加载到这块 GPU 上：%s"),
                 call->kernel, driver_error(status));
        return NULL;
    }
    family_kernel_count++;
    return k->function;
}

/* Where each parameter of ready's function starts among the call's words,
   as the driver lays them out: a parameter of size bytes takes (size + 7) / 8
   words. 0, or -1 when the words and the parameters do not agree. */
static int find_parameters(struct ready_launch *ready)
{
    size_t offset, size;
    int word = 0;
    ready->param_count = 0;
    while (word < ready->call.arg_count && ready->param_count < MAX_KERNEL_ARGS &&   /* never past the last: an error call */
           driver.cuFuncGetParamInfo((CUfunction)ready->function, (size_t)ready->param_count, &offset, &size) == CUDA_SUCCESS) {
        ready->first_word[ready->param_count++] = word;
        word += (int)((size + 7) / 8);
    }
    return word == ready->call.arg_count ? 0 : -1;
}

int cuda_kernel_ready(const struct family *f, const struct params *p, void *const *buffers, void *stream,
                      struct ready_launch *ready, char *why, size_t why_size)
{
    const char *missing = find_driver();
    int declared = user_kernel_index(f);
    if (missing) {
        snprintf(why, why_size, "%s", missing);
        return -1;
    }
    f->kernel_call(p, &ready->call);
    ready->function = declared >= 0 ? loaded[declared].function : family_function(f, p, &ready->call, why, why_size);
    if (!ready->function) {
        if (declared >= 0)
            snprintf(why, why_size, SAY("kernel '%s' is not loaded on the GPU", "核函数 '%s' 没有加载到 GPU 上"), f->name);
        return -1;
    }
    for (int i = 0; i < ready->call.arg_count; i++)   /* a narrower argument is the low bytes of its word */
        ready->words[i] = (ready->call.args[i].buffer >= 0 ? (uint64_t)(uintptr_t)buffers[ready->call.args[i].buffer] : 0) +
                          (uint64_t)ready->call.args[i].value;
    ready->stream = stream;
    if (find_parameters(ready)) {
        snprintf(why, why_size, SAY("kernel '%s' takes other arguments than its call gives", "核函数 '%s' 的参数与它的调用给出的不符"),
                 ready->call.kernel);
        return -1;
    }
    CUresult status = ready->call.shared_bytes > DEFAULT_DYNAMIC_SHARED_BYTES
                          ? driver.cuFuncSetAttribute(ready->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                      (int)ready->call.shared_bytes)
                          : CUDA_SUCCESS;
    if (status != CUDA_SUCCESS) {
        snprintf(why, why_size, SAY("kernel '%s' cannot have %u bytes of dynamic shared memory: %s",
                                    "核函数 '%s' 不能使用 %u 字节的动态共享内存：%s"), f->name, ready->call.shared_bytes,
                 driver_error(status));
        return -1;
    }
    return 0;
}

int cuda_kernel_launch(const struct ready_launch *ready)
{
    void *arguments[MAX_KERNEL_ARGS];
    for (int i = 0; i < ready->param_count; i++)   /* a struct's words lie one after another, as it does */
        arguments[i] = (void *)&ready->words[ready->first_word[i]];
    const struct kernel_call *c = &ready->call;
    return (int)driver.cuLaunchKernel((CUfunction)ready->function, c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
                                      c->block[2], c->shared_bytes, (CUstream)ready->stream, arguments, NULL);
    /* the driver's launch errors have the runtime's numbers */
}

int cuda_backend_copy_constants(const struct family *f, void *const *host, const size_t *bytes, void *stream)
{
    CUmodule module = loaded[user_kernel_index(f)].module;
    CUresult status = CUDA_SUCCESS;
    for (int i = 0; i < f->buffer_count && status == CUDA_SUCCESS; i++) {
        CUdeviceptr at;
        size_t size;
        if (f->constants[i] && (status = driver.cuModuleGetGlobal(&at, &size, module, f->constants[i])) == CUDA_SUCCESS)
            status = bytes[i] <= size ? driver.cuMemcpyHtoDAsync(at, host[i], bytes[i], (CUstream)stream) : CUDA_ERROR_INVALID_VALUE;
    }
    return (int)status;
}

int cuda_backend_kernel_loaded(const struct family *f)
{
    int index = user_kernel_index(f);
    return index >= 0 && loaded[index].function != NULL;
}

int cuda_backend_load_kernel(struct family *f, char *why, size_t why_size)
{
    int index = user_kernel_index(f);
    size_t bytes;
    const char *symbol, *missing = find_driver();
    const void *image = user_kernel_image(f, &bytes, &symbol);
    if (missing || !image || index < 0) {
        snprintf(why, why_size, SAY("kernel '%s' cannot be loaded on the GPU: %s", "核函数 '%s' 无法加载到 GPU 上：%s"), f->name,
                 missing ? missing : SAY("it was declared without code for a GPU", "声明它时没有为 GPU 编译代码"));
        return -1;
    }
    if (loaded[index].module)
        driver.cuModuleUnload(loaded[index].module);
    memset(&loaded[index], 0, sizeof loaded[index]);
    CUresult status = load_function(image, symbol, &loaded[index].module, &loaded[index].function);
    if (status != CUDA_SUCCESS) {
        snprintf(why, why_size, SAY("kernel '%s' does not load on this GPU: %s", "核函数 '%s' 无法加载到这块 GPU 上：%s"), f->name,
                 driver_error(status));
        return -1;
    }
    return 0;
}
#endif
