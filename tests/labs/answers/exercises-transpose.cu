// my_transpose, as a student wrote it: the tile is not padded but swizzled,
// element (r, c) kept in column (c + r) % 32, so that a column of the tile
// still spans 32 banks.
#define TILE 32
extern "C" __global__ void my_transpose(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE * TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    if (x < width && y < height)
        tile[ty * TILE + (tx + ty) % TILE] = in[(long long)y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + tx;
    y = blockIdx.x * TILE + ty;
    if (x < height && y < width)
        out[(long long)y * height + x] = tile[tx * TILE + (ty + tx) % TILE];
}
