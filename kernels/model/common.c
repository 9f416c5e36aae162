/*
** common.c — shapes and address patterns shared by several families.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/common.h"

struct launch_shape one_thread_per_element(const struct params *p)
{
    long long n = p->v[PARAM_N], block = p->v[PARAM_BLOCK];
    struct launch_shape shape = { (n + block - 1) / block * block, (int)block };
    return shape;
}

int four_byte_elements(const struct params *p)
{
    (void)p;
    return 4;
}

void n_in_n_out(const struct params *p, size_t *elements)
{
    elements[0] = elements[1] = (size_t)p->v[PARAM_N];
}

/* Field by field: addr[] stays unset (an affine access does not read it),
   which on the model's hot path saves clearing 256 bytes per instruction. */
void warp_affine(struct warp_access *acc, enum access_kind kind, int bytes,
                 uint64_t first_addr, int64_t step, long long lanes)
{
    acc->kind = kind;
    acc->bytes = bytes;
    acc->affine = 1;
    acc->first_lane = 0;
    acc->lane_count = (int)(lanes < 0 ? 0 : lanes > WARP_SIZE ? WARP_SIZE : lanes);
    acc->first_addr = first_addr;
    acc->step = step;
}

void warp_wrapped(struct warp_access *acc, enum access_kind kind, int bytes,
                  uint64_t base, long long start, long long count, int lanes)
{
    if (start + lanes <= count) {
        warp_affine(acc, kind, bytes, base + (uint64_t)start * (uint64_t)bytes, bytes, lanes);
        return;
    }
    acc->kind = kind;
    acc->bytes = bytes;
    acc->affine = 0;
    acc->active = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        int on = lane < lanes;
        acc->active |= (uint32_t)on << lane;
        acc->addr[lane] = on ? base + (uint64_t)((start + lane) % count) * (uint64_t)bytes : 0;
    }
}

void warp_linear(struct warp_access *acc, enum access_kind kind, int bytes,
                 long long warp, uint64_t base, long long stride,
                 long long offset, long long active_threads)
{
    long long first_thread = warp * WARP_SIZE;
    warp_affine(acc, kind, bytes, base + (uint64_t)(first_thread * stride + offset) * (uint64_t)bytes,
                stride * bytes, active_threads - first_thread);
}

void warp_access_expand(struct warp_access *acc)
{
    if (!acc->affine)
        return;
    acc->active = 0;
    for (int lane = 0; lane < WARP_SIZE; lane++) {
        int k = lane - acc->first_lane;
        int on = k >= 0 && k < acc->lane_count;
        acc->addr[lane] = on ? acc->first_addr + (uint64_t)((int64_t)k * acc->step) : 0;
        acc->active |= (uint32_t)on << lane;
    }
    acc->affine = 0;
}

/* Whether the active lanes are first .. first+count-1 at a constant step. */
static int lanes_affine(const uint64_t *addr, uint32_t active, int *first, int *count, int64_t *step)
{
    if (active == 0)
        return 0;
    *first = __builtin_ctz(active);
    *count = __builtin_popcount(active);
    if (*first + *count > WARP_SIZE || active >> *first != (*count == 32 ? ~0u : (1u << *count) - 1))
        return 0;   /* a gap among the active lanes */
    *step = *count > 1 ? (int64_t)(addr[*first + 1] - addr[*first]) : 0;
    for (int k = 2; k < *count; k++)
        if ((int64_t)(addr[*first + k] - addr[*first + k - 1]) != *step)
            return 0;
    return 1;
}

void access_from_lanes(struct warp_access *acc, enum access_kind kind, int bytes,
                       const uint64_t *addr, uint32_t active)
{
    int first, count;
    int64_t step;
    acc->kind = kind;
    acc->bytes = bytes;
    if (lanes_affine(addr, active, &first, &count, &step)) {
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

void reference_slice(long long count, int part, int parts, long long *first, long long *end)
{
    *first = count / parts * part + (part < count % parts ? part : count % parts);
    *end = *first + count / parts + (part < count % parts);
}

void copy_elements(void *const *buffers, long long n, int bytes, int part, int parts)
{
    long long first, end;
    reference_slice(n, part, parts, &first, &end);
    memcpy((char *)buffers[1] + first * bytes, (const char *)buffers[0] + first * bytes, (size_t)((end - first) * bytes));
}

int warp_copy(struct warp_access *acc, int bytes, long long warp, const uint64_t *base, long long n)
{
    warp_linear(&acc[0], ACCESS_LOAD, bytes, warp, base[0], 1, 0, n);
    warp_linear(&acc[1], ACCESS_STORE, bytes, warp, base[1], 1, 0, n);
    return 2;
}

static void name_kernel(struct kernel_call *call, unsigned grid_x, unsigned grid_y, unsigned block_x, unsigned block_y,
                        const char *format, va_list args)
{
    memset(call, 0, sizeof *call);
    vsnprintf(call->kernel, sizeof call->kernel, format, args);
    call->grid[0] = grid_x, call->grid[1] = grid_y, call->grid[2] = 1;
    call->block[0] = block_x, call->block[1] = block_y, call->block[2] = 1;
}

void call_kernel(struct kernel_call *call, struct launch_shape shape, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    name_kernel(call, (unsigned)(shape.threads / shape.block), 1, (unsigned)shape.block, 1, format, args);
    va_end(args);
}

void call_kernel_2d(struct kernel_call *call, unsigned grid_x, unsigned grid_y, unsigned block_x, unsigned block_y,
                    const char *format, ...)
{
    va_list args;
    va_start(args, format);
    name_kernel(call, grid_x, grid_y, block_x, block_y, format, args);
    va_end(args);
}

void call_buffer(struct kernel_call *call, int buffer)
{
    call_buffer_at(call, buffer, 0);
}

void call_buffer_at(struct kernel_call *call, int buffer, long long offset)
{
    call->args[call->arg_count].buffer = buffer;
    call->args[call->arg_count++].value = offset;
}

void call_float(struct kernel_call *call, float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    call_value(call, bits);
}

void call_value(struct kernel_call *call, long long value)
{
    call->args[call->arg_count].buffer = -1;
    call->args[call->arg_count++].value = value;
}


