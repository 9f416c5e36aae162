// conv2d: out = in convolved with a (2r+1) x (2r+1) filter; pixels past an
// edge read the nearest edge pixel. Blocks are tile x tile threads, one
// output pixel each. The filter sits in constant memory: every lane of a warp
// reads the same tap at the same time, which the constant cache broadcasts,
// and the image's loads stay the only global loads. The filters of every
// radius are built into the table when this file is compiled, so a launch
// copies nothing.
//   naive: each thread reads its (2r+1)^2 neighbours from global memory.
//   tiled: the block first copies its tile plus a halo of r pixels on every
//          side into shared memory, then reads the neighbours from there.
#include "family.h"
#include "conv2d.h"

struct conv2d_filters {
    float weight[CONV2D_TABLE_TAPS];
};

static constexpr conv2d_filters all_filters()
{
    conv2d_filters f{};
    for (int radius = 1; radius <= CONV2D_MAX_RADIUS; radius++)
        for (int i = 0, taps = (2 * radius + 1) * (2 * radius + 1); i < taps; i++)
            f.weight[conv2d_first_tap(radius) + i] = conv2d_weight(i, taps);
    return f;
}

__constant__ conv2d_filters conv2d_filter = all_filters();

__device__ static int clamp_to(int i, int size)
{
    return min(size - 1, max(0, i));
}

__global__ void conv2d_naive(const float *in, float *out, int width, int height, int radius, int first_tap)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    int size = 2 * radius + 1;
    float sum = 0.0f;
    for (int fy = 0; fy < size; fy++) {
        long long row = (long long)clamp_to(y + fy - radius, height) * width;
        for (int fx = 0; fx < size; fx++)
            sum += in[row + clamp_to(x + fx - radius, width)] * conv2d_filter.weight[first_tap + fy * size + fx];
    }
    out[(long long)y * width + x] = sum;
}

// The halo region is span x span pixels, span = tile + 2r, stored row by row.
// Thread t copies region elements t, t + tile^2, t + 2 tile^2, ...: every
// thread runs the same number of rounds, so round j is one instruction for the
// whole warp, its lanes copying consecutive elements of the region.
__global__ void conv2d_tiled(const float *in, float *out, int width, int height, int radius, int first_tap)
{
    extern __shared__ float region[];
    int tile = blockDim.x, span = tile + 2 * radius, threads = tile * tile;
    int t = threadIdx.y * tile + threadIdx.x;
    int left = blockIdx.x * tile - radius, top = blockIdx.y * tile - radius;
    int rounds = (span * span + threads - 1) / threads;
    for (int j = 0; j < rounds; j++) {
        int i = t + j * threads;
        if (i < span * span) {
            int px = clamp_to(left + i % span, width), py = clamp_to(top + i / span, height);
            region[i] = in[(long long)py * width + px];
        }
    }
    __syncthreads();
    int x = blockIdx.x * tile + threadIdx.x;
    int y = blockIdx.y * tile + threadIdx.y;
    if (x >= width || y >= height)
        return;
    int size = 2 * radius + 1;
    float sum = 0.0f;
    for (int fy = 0; fy < size; fy++)
        for (int fx = 0; fx < size; fx++)
            sum += region[(threadIdx.y + fy) * span + threadIdx.x + fx] * conv2d_filter.weight[first_tap + fy * size + fx];
    out[(long long)y * width + x] = sum;
}
