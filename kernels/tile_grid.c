/*
** tile_grid.c — warps of tile x tile blocks, lane lists that keep the
** model's affine fast path where they can, and paging of long programs.
*/
#include "tile_grid.h"

struct launch_shape tile_grid_shape(int tile, long long width, long long height)
{
    long long blocks = ((width + tile - 1) / tile) * ((height + tile - 1) / tile);
    struct launch_shape shape = { blocks * tile * tile, tile * tile };
    return shape;
}

void tile_warp_locate(struct tile_warp *w, int tile, long long width, long long warp)
{
    long long warps_per_block = tile * tile / WARP_SIZE, blocks_x = (width + tile - 1) / tile;
    long long block = warp / warps_per_block;
    int first_thread = (int)(warp % warps_per_block) * WARP_SIZE;
    w->tile = tile;
    w->block_x = block % blocks_x;
    w->block_y = block / blocks_x;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        w->tx[lane] = (first_thread + lane) % tile;
        w->ty[lane] = (first_thread + lane) / tile;
    }
}

/* Whether the active lanes are first .. first+count-1 at evenly spaced addresses. */
static int lanes_affine(uint32_t active, const uint64_t *addr, int *first, int *count, int64_t *step)
{
    if (!active)
        return 0;
    *first = __builtin_ctz(active);
    *count = __builtin_popcount(active);
    if ((active >> *first) != (*count == 32 ? 0xffffffffu : (1u << *count) - 1))
        return 0;
    *step = *count > 1 ? (int64_t)(addr[*first + 1] - addr[*first]) : 0;
    for (int k = 2; k < *count; k++)
        if ((int64_t)(addr[*first + k] - addr[*first + k - 1]) != *step)
            return 0;
    return 1;
}

void warp_lanes(struct warp_access *acc, enum access_kind kind, int bytes,
                uint32_t active, const uint64_t *addr)
{
    int first, count;
    int64_t step;
    acc->kind = kind;
    acc->bytes = bytes;
    if (lanes_affine(active, addr, &first, &count, &step)) {
        acc->affine = 1;
        acc->first_lane = first;
        acc->lane_count = count;
        acc->first_addr = addr[first];
        acc->step = step;
        return;
    }
    acc->affine = 0;
    acc->active = active;
    for (int lane = 0; lane < WARP_SIZE; lane++)
        acc->addr[lane] = active >> lane & 1 ? addr[lane] : 0;
}

int tile_page(long long page, long long instructions, instruction_fill fill,
              const void *warp_state, struct warp_access *acc)
{
    int count = 0;
    for (long long i = page * MAX_WARP_ACCESSES; i < instructions && count < MAX_WARP_ACCESSES; i++)
        fill(warp_state, i, &acc[count++]);
    return count;
}
