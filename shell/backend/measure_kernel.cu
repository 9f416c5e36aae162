// measure_kernel.cu: device code the GPU backend measures with; not a family.
#include <cuda_runtime.h>

// Reads every word of buf so that L2 ends up holding only clean lines of it:
// a flush that leaves no dirty lines to be written back during the next kernel.
__global__ void flush_read(const int4 *buf, long long count, int *sink)
{
    int4 acc = make_int4(0, 0, 0, 0);
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x) {
        int4 v = __ldcg(buf + i);
        acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
    }
    if ((acc.x & acc.y & acc.z & acc.w) == 0x7fffffff)   // practically never: keeps the loads
        *sink = acc.x;
}

extern "C" int flush_read_launch(const void *buf, size_t bytes, int *sink, int sm_count, void *stream)
{
    flush_read<<<sm_count * 4, 512, 0, (cudaStream_t)stream>>>((const int4 *)buf, (long long)(bytes / 16), sink);
    return cudaGetLastError();
}

// Spins for about `ns` nanoseconds and reports SM cycles and global-timer
// nanoseconds elapsed: cycles per ns is the SM clock while it ran.
__global__ void clock_probe(long long ns, long long *out)
{
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    long long c0 = clock64();
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    } while ((long long)(t1 - t0) < ns);
    long long c1 = clock64();
    out[0] = c1 - c0;
    out[1] = (long long)(t1 - t0);
}

extern "C" int clock_probe_launch(long long ns, long long *out, void *stream)
{
    clock_probe<<<1, 1, 0, (cudaStream_t)stream>>>(ns, out);
    return cudaGetLastError();
}

// Fills count floats with values in [-1, 1) from a counter-based hash of
// (seed, index): fresh inputs for every launch without a trip from the host.
__global__ void fill_random(float *data, long long count, unsigned long long seed)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned long long z = seed + (unsigned long long)i * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        data[i] = (float)((long long)(z >> 40) - (1 << 23)) / (float)(1 << 23);
    }
}

extern "C" int fill_random_launch(void *data, size_t bytes, unsigned long long seed, int sm_count, void *stream)
{
    fill_random<<<sm_count * 8, 256, 0, (cudaStream_t)stream>>>((float *)data, (long long)(bytes / 4), seed);
    return cudaGetLastError();
}
