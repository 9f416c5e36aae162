/*
** cuda_kernels.c — kernels declared in Lua, on the GPU, in the GPU process:
** each one's machine code (NVRTC's CUBIN for this GPU, or PTX the driver
** compiles) loaded through the driver API, and launched as the built-ins'
** launchers launch theirs, with the arguments and shape the emulator gets
** (user_kernel.c's emulated_call). The driver's functions are found through
** the runtime, which has loaded libcuda already: warplab links no libcuda.
*/
#ifdef HAVE_CUDA
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include "backend/backend.h"
#include "libraries.h"
#include "support/text.h"
#include "backend/user_kernel.h"

/* Each declared kernel's module and function here, by its index. */
static struct {
    CUmodule module;
    CUfunction function;
} loaded[MAX_USER_KERNELS];

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

/* The GPU launcher of every declared kernel: the driver's launch of its function. */
static int launch_declared(const struct gpu_launch *launch)
{
    const struct family *f = user_kernel_of(launch->params);
    CUfunction function = loaded[user_kernel_index(f)].function;
    struct emulated_call call;
    uint64_t words[MAX_KERNEL_ARGS];
    void *arguments[MAX_KERNEL_ARGS];
    f->emulated_call(launch->params, &call);
    for (int i = 0; i < call.arg_count; i++) {   /* a narrower argument is the low bytes of its word */
        words[i] = (call.args[i].buffer >= 0 ? (uint64_t)(uintptr_t)launch->buffers[call.args[i].buffer] : 0) +
                   (uint64_t)call.args[i].value;
        arguments[i] = &words[i];
    }
    CUresult status = call.shared_bytes > DEFAULT_DYNAMIC_SHARED_BYTES
                          ? driver.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                      (int)call.shared_bytes)
                          : CUDA_SUCCESS;
    if (status == CUDA_SUCCESS)
        status = driver.cuLaunchKernel(function, call.grid[0], call.grid[1], call.grid[2], call.block[0], call.block[1],
                                       call.block[2], call.shared_bytes, (CUstream)launch->stream, arguments, NULL);
    return (int)status;   /* the driver's launch errors have the runtime's numbers */
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

int cuda_backend_load_kernel(struct family *f, char *why, size_t why_size)
{
    int index = user_kernel_index(f);
    size_t bytes;
    const char *symbol, *missing = find_driver();
    const void *image = user_kernel_image(f, &bytes, &symbol);
    if (missing || !image || index < 0) {
        snprintf(why, why_size, SAY("kernel '%s' cannot be loaded on the GPU: %s", "内核 '%s' 无法加载到 GPU 上：%s"), f->name,
                 missing ? missing : SAY("it was declared without code for a GPU", "声明它时没有为 GPU 编译代码"));
        return -1;
    }
    if (loaded[index].module)
        driver.cuModuleUnload(loaded[index].module);
    memset(&loaded[index], 0, sizeof loaded[index]);
    CUresult status = driver.cuModuleLoadData(&loaded[index].module, image);
    if (status == CUDA_SUCCESS)
        status = driver.cuModuleGetFunction(&loaded[index].function, loaded[index].module, symbol);
    if (status != CUDA_SUCCESS) {
        snprintf(why, why_size, SAY("kernel '%s' does not load on this GPU: %s", "内核 '%s' 无法加载到这块 GPU 上：%s"), f->name,
                 driver_error(status));
        return -1;
    }
    f->launch = launch_declared;
    return 0;
}
#endif
