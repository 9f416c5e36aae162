/*
** host_parts.c — host work on large buffers, split over threads (host_parts.h).
*/
#include <string.h>
#include "backend/host_parts.h"
#include "interrupt.h"

enum { RANDOM_CHUNK_BYTES = 4 << 20 };

/* Part `part` of `parts` of size bytes: [*from, *to). */
static void part_range(size_t size, int part, int parts, size_t *from, size_t *to)
{
    *from = size / (size_t)parts * (size_t)part;
    *to = part == parts - 1 ? size : *from + size / (size_t)parts;
}

struct fill {
    unsigned char *data;
    size_t bytes;
    int value;
    uint32_t seed;
};

static void fill_part(void *argument, int part, int parts)
{
    struct fill *f = argument;
    size_t from, to;
    part_range(f->bytes, part, parts, &from, &to);
    memset(f->data + from, f->value, to - from);
}

void fill_in_parts(void *data, int value, size_t bytes)
{
    struct fill f = { data, bytes, value, 0 };
    run_in_parts(threads_for_bytes(bytes), fill_part, &f);
}

/* Chunks of 4 MB, each from a seed of its own: a part takes whole chunks.
   Within a chunk, the generator's sequence is walked as 8 interleaved ones
   (each 8 steps at a time), which the CPU runs side by side: the same
   values, without waiting on each multiply before the next. */
enum { STREAMS = 8 };
static const uint32_t LCG_A = 1664525u, LCG_C = 1013904223u;

static void random_chunk(const struct fill *f, size_t chunk)
{
    uint32_t state[STREAMS], step_a = 1, step_c = 0, s = f->seed ^ (uint32_t)(chunk * 0x9e3779b9u);
    for (int j = 0; j < STREAMS; j++) {
        s = s * LCG_A + LCG_C;
        state[j] = s;
        step_c = step_c * LCG_A + LCG_C;   /* after the loop: STREAMS steps at once are x * step_a + step_c */
        step_a *= LCG_A;
    }
    size_t first = chunk * RANDOM_CHUNK_BYTES / 4;
    size_t end = ((chunk + 1) * RANDOM_CHUNK_BYTES < f->bytes ? (chunk + 1) * RANDOM_CHUNK_BYTES : f->bytes) / 4;
    float *out = (float *)(void *)f->data;   /* the buffers come from mmap or malloc: aligned */
    size_t k = first;
    for (; k + STREAMS <= end; k += STREAMS)
        for (int j = 0; j < STREAMS; j++) {
            out[k + (size_t)j] = (float)(state[j] >> 8) * 0x1p-24f;   /* exactly the quotient by 2^24 */
            state[j] = state[j] * step_a + step_c;
        }
    for (int j = 0; k < end; k++, j++)
        out[k] = (float)(state[j] >> 8) * 0x1p-24f;
}

static void random_part(void *argument, int part, int parts)
{
    struct fill *f = argument;
    size_t chunks = (f->bytes + RANDOM_CHUNK_BYTES - 1) / RANDOM_CHUNK_BYTES, from, to;
    part_range(chunks, part, parts, &from, &to);
    for (size_t chunk = from; chunk < to; chunk++)
        random_chunk(f, chunk);
}

void random_floats_in_parts(void *data, size_t bytes, uint32_t seed)
{
    struct fill f = { data, bytes, 0, seed };
    run_in_parts(threads_for_bytes(bytes), random_part, &f);
}

struct reference_call {
    const struct family *f;
    const struct params *p;
    void *const *buffers;
};

static void reference_part(void *argument, int part, int parts)
{
    struct reference_call *call = argument;
    call->f->reference_part(call->p, call->buffers, part, parts);
}

void reference_in_parts(const struct family *f, const struct params *p, void *const *buffers, size_t total)
{
    struct reference_call call = { f, p, buffers };
    if (f->reference_part)
        run_in_parts(threads_for_bytes(total), reference_part, &call);
    else
        f->reference(p, buffers);
}
