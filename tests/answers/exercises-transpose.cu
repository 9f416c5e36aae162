// my_transpose, done: a tile of the block's 32 x 32 elements staged in
// shared memory, padded by a float a row so that its columns span 32 banks.
#define TILE 32
extern "C" __global__ void my_transpose(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height)
        tile[threadIdx.y][threadIdx.x] = in[(long long)y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;   // a column of out is a row of in
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < height && y < width)
        out[(long long)y * height + x] = tile[threadIdx.x][threadIdx.y];
}
