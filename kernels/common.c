/*
** common.c — shapes and address patterns shared by several families.
*/
#include "common.h"

struct launch_shape one_thread_per_element(const struct params *p)
{
    long long n = p->v[PARAM_N], block = p->v[PARAM_BLOCK];
    struct launch_shape shape = { (n + block - 1) / block * block, (int)block };
    return shape;
}

void warp_linear(struct warp_access *acc, enum access_kind kind, int bytes,
                 long long warp, uint64_t base, long long stride,
                 long long offset, long long active_threads)
{
    acc->kind = kind;
    acc->bytes = bytes;
    acc->active = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        long long t = warp * WARP_SIZE + lane;
        if (t >= active_threads) {
            acc->addr[lane] = 0;
            continue;
        }
        acc->active |= 1u << lane;
        acc->addr[lane] = base + (uint64_t)(t * stride + offset) * (uint64_t)bytes;
    }
}
