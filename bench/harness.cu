// harness.cu: a minimal, standalone event-timed harness for bench/run. It
// times the same offset and strided kernels as warplab, on the same sizes,
// with L2 emptied before each sample, and prints the median of 50 samples:
// the reference that warplab's own reported times are compared with.
//   harness offset OFFSET N      harness strided STRIDE N
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e)); return 1; } } while (0)

__global__ void offset(const float *a, const float *b, float *r, long long offset, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long k = i + offset;
    if (k < n)
        r[i] = a[k] + b[k];
}

__global__ void strided(const float *in, float *out, long long stride, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

__global__ void read_all(const int4 *buf, long long count, int *sink)
{
    int acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        acc ^= __ldcg(buf + i).x;
    if (acc == 0x7fffffff) *sink = acc;
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: harness offset|strided PARAM N\n"); return 2; }
    bool is_offset = strcmp(argv[1], "offset") == 0;
    long long param = atoll(argv[2]), n = atoll(argv[3]);
    size_t in_elems = is_offset ? n : n * param;
    int l2 = 0, sms = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    float *a, *b, *r; void *flush; int *sink;
    size_t flush_bytes = 2 * (size_t)l2;
    CHECK(cudaMalloc(&a, in_elems * 4)); CHECK(cudaMalloc(&b, in_elems * 4)); CHECK(cudaMalloc(&r, n * 4));
    CHECK(cudaMalloc(&flush, flush_bytes)); CHECK(cudaMalloc(&sink, 4));
    std::vector<float> host(in_elems);
    for (auto &x : host) x = (float)rand() / RAND_MAX;
    CHECK(cudaMemcpy(a, host.data(), in_elems * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, host.data(), in_elems * 4, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    unsigned blocks = (unsigned)((n + 255) / 256);
    auto run = [&] {
        if (is_offset) offset<<<blocks, 256>>>(a, b, r, param, n);
        else strided<<<blocks, 256>>>(a, r, param, n);
    };
    run(); run();
    std::vector<float> samples;
    for (int s = 0; s < 50; s++) {
        CHECK(cudaMemset(flush, 1, flush_bytes));
        read_all<<<sms * 4, 512>>>((const int4 *)flush, flush_bytes / 16, sink);
        CHECK(cudaEventRecord(start));
        run();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        samples.push_back(ms);
    }
    CHECK(cudaGetLastError());
    std::sort(samples.begin(), samples.end());
    printf("%.6f\n", (samples[24] + samples[25]) / 2);
    return 0;
}
