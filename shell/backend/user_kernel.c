/*
** user_kernel.c — kernels declared while the shell runs (kernel{} in
** lua/kernel.lua), as families like the built-ins, modelled by the emulator
** from their PTX: the description a declaration leaves (sizes, fills,
** arguments, machine code) and the family's callbacks that read it, which
** run on any thread. Its sizes (buffer element counts, grid, block,
** dynamic shared bytes) are kept in a launch's params after the declared
** ones: derive, which declare_kernel.c makes of a Lua function, puts them there.
**
** On a GPU the kernel also runs in the GPU process, which the shell tells
** of it once (user_kernel_pack there, user_kernel_unpack here): the same
** description, with the machine code NVRTC made for that GPU, at the same
** index, so that params name it alike in both processes.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/host_parts.h"
#include "families/indirect.h"
#include "support/text.h"
#include "backend/user_kernel.h"

const char *const user_fill_names[] = { "random", "zero", "integers", "index", "permutation", "sorted", "window", "function",
                                         NULL };

static struct user_kernel *user_kernels[MAX_USER_KERNELS];
static int declared_count;

static const struct user_kernel *kernel_of(const struct params *p)
{
    return user_kernels[p->v[KERNEL_SLOT]];
}

long long user_kernel_derived(const struct params *p, int slot)
{
    const struct user_kernel *k = kernel_of(p);
    return p->v[k->family.param_count + k->family.buffer_count + slot];
}

static int user_element_bytes(const struct params *p)
{
    return kernel_of(p)->buffers[0].element_bytes;
}

void user_kernel_elements(const struct params *p, size_t *elements)
{
    const struct user_kernel *k = kernel_of(p);
    for (int i = 0; i < k->family.buffer_count; i++)
        elements[i] = (size_t)p->v[k->family.param_count + i];
}

/* Each buffer once: what a launch must move at the least. */
static uint64_t user_useful_bytes(const struct params *p)
{
    const struct user_kernel *k = kernel_of(p);
    uint64_t bytes = 0;
    for (int i = 0; i < k->family.buffer_count; i++)
        bytes += (uint64_t)p->v[k->family.param_count + i] * (uint64_t)k->buffers[i].element_bytes;
    return bytes;
}

long long user_kernel_dims(const struct params *p, int first)
{
    return user_kernel_derived(p, first) * user_kernel_derived(p, first + 1) * user_kernel_derived(p, first + 2);
}

static struct launch_shape user_shape(const struct params *p)
{
    long long block = user_kernel_dims(p, DERIVED_BLOCK);
    return (struct launch_shape){ user_kernel_dims(p, DERIVED_GRID) * block, (int)block };
}

/* A float's bits, as the low 4 bytes of an argument's word. */
static uint32_t float_word(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return bits;
}

static void user_kernel_call(const struct params *p, struct kernel_call *call)
{
    const struct user_kernel *k = kernel_of(p);
    memset(call, 0, sizeof *call);
    snprintf(call->kernel, sizeof call->kernel, "%s", k->entry);
    for (int d = 0; d < 3; d++) {
        call->grid[d] = (unsigned)user_kernel_derived(p, DERIVED_GRID + d);
        call->block[d] = (unsigned)user_kernel_derived(p, DERIVED_BLOCK + d);
    }
    call->shared_bytes = (unsigned)user_kernel_derived(p, DERIVED_SHARED);
    call->arg_count = k->arg_count;
    for (int i = 0; i < k->arg_count; i++) {
        const struct user_arg *a = &k->args[i];
        call->args[i].buffer = a->buffer;
        call->args[i].value = a->param >= 0 ? p->v[a->param] : a->buffer >= 0 ? 0 : a->value;
        if (a->param >= 0 && k->params[a->param].type == PARAM_FLOAT && a->bytes == 4)
            call->args[i].value = (long long)float_word((float)PARAM_FLOAT_VALUE(p->v[a->param]));
    }
}

/* Element e of a buffer set to value in each of its scalars: a float's
   value, or an integer's low bytes (little-endian). */
static void put_value(const struct user_buffer *b, unsigned char *data, size_t e, uint64_t value)
{
    for (int c = 0; c < b->width; c++) {
        unsigned char *at = data + (e * (size_t)b->width + (size_t)c) * (size_t)b->scalar_bytes;
        if (b->is_float && b->scalar_bytes == 4)
            memcpy(at, &(float){ (float)value }, 4);
        else if (b->is_float)
            memcpy(at, &(double){ (double)value }, 8);
        else
            memcpy(at, &value, (size_t)b->scalar_bytes);
    }
}

/* One way of filling count elements from seed; each a pure function of its arguments. */
typedef void filler(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed);

static void fill_zero(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    (void)seed;
    fill_in_parts(data, 0, count * (size_t)(b->scalar_bytes * b->width));
}

/* Random integers from low to high in every scalar. */
static void random_integers(const struct user_buffer *b, unsigned char *data, size_t count, long long low, long long high,
                            uint64_t seed)
{
    uint64_t key = indirect_mix(seed), span = (uint64_t)(high - low) + 1;
    for (size_t k = 0; k < count * (size_t)b->width; k++) {
        uint64_t hash = indirect_hash_keyed(key, k), value = (uint64_t)low + (span ? indirect_below(hash, span) : hash);
        memcpy(data + k * (size_t)b->scalar_bytes, &value, (size_t)b->scalar_bytes);
    }
}

/* Floats in [-1, 1); integers from 0 to 255. */
static void fill_random(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    if (b->is_float)
        random_floats_in_parts(data, count * (size_t)(b->scalar_bytes * b->width), (uint32_t)seed);
    else
        random_integers(b, data, count, 0, 255, seed);
}

static void fill_integers(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    random_integers(b, data, count, b->low, b->high, seed);
}

static void fill_index(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    (void)seed;
    for (size_t e = 0; e < count; e++)
        put_value(b, data, e, e);
}

/* 0 .. count - 1 in a random order (Fisher-Yates, from the end). */
static void fill_permutation(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    uint64_t *order = malloc(count * sizeof *order), key = indirect_mix(seed);
    if (!order) {
        fill_index(b, data, count, seed);   /* out of memory: in order, not undefined */
        return;
    }
    for (size_t e = 0; e < count; e++)
        order[e] = e;
    for (size_t e = count; e > 1; e--) {
        size_t j = (size_t)indirect_below(indirect_hash_keyed(key, e), e), last = e - 1;
        uint64_t kept = order[last];
        order[last] = order[j];
        order[j] = kept;
    }
    for (size_t e = 0; e < count; e++)
        put_value(b, data, e, order[e]);
    free(order);
}

/* Each aligned group of 32 elements: 32 random indices of its own 32, in order (as gather's "sorted"). */
static void fill_sorted(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    uint64_t key = indirect_mix(seed);
    for (size_t start = 0; start < count; start += WARP_SIZE) {
        size_t group = count - start < WARP_SIZE ? count - start : WARP_SIZE;
        uint64_t drawn[WARP_SIZE];
        for (size_t k = 0; k < group; k++) {   /* insertion sort as they are drawn */
            uint64_t value = indirect_below(indirect_hash_keyed(key, start + k), group);
            size_t at = k;
            for (; at > 0 && drawn[at - 1] > value; at--)
                drawn[at] = drawn[at - 1];
            drawn[at] = value;
        }
        for (size_t k = 0; k < group; k++)
            put_value(b, data, start + k, start + drawn[k]);
    }
}

/* Element i: a random index in the aligned window of `low` elements that holds i. */
static void fill_window(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    uint64_t key = indirect_mix(seed), window = (uint64_t)b->low;
    for (size_t e = 0; e < count; e++) {
        uint64_t start = e / window * window, span = count - start < window ? count - start : window;
        put_value(b, data, e, start + indirect_below(indirect_hash_keyed(key, e), span));
    }
}

/* What the buffer's function gave (derive made sure of as many as count). */
static void fill_given(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    size_t bytes = (size_t)(b->scalar_bytes * b->width), have = count < b->given_count ? count : b->given_count;
    (void)seed;
    memcpy(data, b->given, have * bytes);
    memset(data + have * bytes, 0, (count - have) * bytes);
}

static filler *const fillers[] = {
    [FILL_RANDOM] = fill_random, [FILL_ZERO] = fill_zero, [FILL_INTEGERS] = fill_integers, [FILL_INDEX] = fill_index,
    [FILL_PERMUTATION] = fill_permutation, [FILL_SORTED] = fill_sorted, [FILL_WINDOW] = fill_window,
    [FILL_FUNCTION] = fill_given,
};

void user_buffer_fill(const struct user_buffer *b, unsigned char *data, size_t count, uint64_t seed)
{
    fillers[b->fill](b, data, count, seed);
}

static void user_fill_inputs(const struct params *p, void *const *buffers, uint64_t seed)
{
    const struct user_kernel *k = kernel_of(p);
    size_t elements[MAX_BUFFERS];
    user_kernel_elements(p, elements);
    for (int i = 0; i < k->family.buffer_count; i++)
        if (k->buffers[i].role == BUFFER_IN || (k->family.filled >> i & 1))
            user_buffer_fill(&k->buffer_info[i], buffers[i], elements[i], seed + (uint64_t)i);
}

/* What a declaration sets, and what a description sent from the shell lacks. */
void user_kernel_link(struct user_kernel *k)
{
    k->family.name = k->name;
    k->family.params = k->params;
    k->family.buffers = k->buffers;
    for (int i = 0; i < k->family.param_count; i++)
        k->params[i].name = k->param_names[i];
    k->family.constants = NULL;
    for (int i = 0; i < k->family.buffer_count && i < MAX_BUFFERS; i++) {   /* more is refused later (registry.c), by its count */
        k->buffers[i].name = k->buffer_info[i].name;
        k->constant_names[i] = k->buffer_info[i].constant_bytes ? k->buffer_info[i].name : NULL;
        k->family.constants = k->constant_names[i] ? k->constant_names : k->family.constants;
    }
    k->family.element_bytes = user_element_bytes;
    k->family.buffer_elements = user_kernel_elements;
    k->family.useful_bytes = user_useful_bytes;
    k->family.shape = user_shape;
    k->family.fill_inputs = user_fill_inputs;
    k->family.kernel_call = user_kernel_call;
    k->family.derive = NULL;
    k->family.check_outputs = NULL;
}

/* Whether f is a kernel declared in Lua: its user_kernel, or NULL. */
static struct user_kernel *declared(const struct family *f)
{
    for (int i = 0; f && i < declared_count; i++)
        if (user_kernels[i] && &user_kernels[i]->family == f)
            return user_kernels[i];
    return NULL;
}

int user_kernel_index(const struct family *f)
{
    const struct user_kernel *k = declared(f);
    return k ? k->index : -1;
}

const struct family *user_kernel_at(int index)
{
    return index >= 0 && index < declared_count && user_kernels[index] ? &user_kernels[index]->family : NULL;
}

const struct family *user_kernel_of(const struct params *p)
{
    return user_kernel_at((int)p->v[KERNEL_SLOT]);
}

int user_kernel_count(void)
{
    return declared_count;
}

void user_kernel_keep(struct user_kernel *k)
{
    user_kernels[k->index] = k;
    declared_count = k->index + 1;
}

int user_kernel_on_gpu(const struct family *f)
{
    const struct user_kernel *k = declared(f);
    return k && k->image;
}

const void *user_kernel_image(const struct family *f, size_t *bytes, const char **symbol)
{
    const struct user_kernel *k = declared(f);
    *bytes = k ? k->image_bytes : 0;
    *symbol = k ? k->symbol : NULL;
    return k ? k->image : NULL;
}

/* The bytes of what buffer i's function gave. */
static size_t given_bytes(const struct user_kernel *k, int i)
{
    const struct user_buffer *b = &k->buffer_info[i];
    return b->given_count * (size_t)(b->scalar_bytes * b->width);
}

/* On the wire: the struct as it is (its pointers mean nothing on the other
   side), then the PTX and its NUL, the image, and what each buffer's
   function gave, in buffer order. */
void *user_kernel_pack(const struct family *f, size_t *size)
{
    const struct user_kernel *k = declared(f);
    size_t total = k ? sizeof *k + k->ptx_bytes + 1 + k->image_bytes : 0;
    for (int i = 0; k && i < k->family.buffer_count; i++)
        total += given_bytes(k, i);
    char *out = k ? malloc(total) : NULL, *at = out;
    if (!out)
        return NULL;
    memcpy(at, k, sizeof *k);
    memcpy(at += sizeof *k, k->family.ptx, k->ptx_bytes + 1);
    memcpy(at += k->ptx_bytes + 1, k->image, k->image_bytes);
    at += k->image_bytes;
    for (int i = 0; i < k->family.buffer_count; i++, at += given_bytes(k, i - 1))
        memcpy(at, k->buffer_info[i].given, given_bytes(k, i));
    *size = total;
    return out;
}

unsigned user_kernel_version(const struct family *f)
{
    const struct user_kernel *k = declared(f);
    return k ? k->version : 0;
}

struct family *user_kernel_unpack(const void *data, size_t size, char *why, size_t why_size)
{
    struct user_kernel *k = malloc(sizeof *k);
    char *texts = k && size >= sizeof *k ? malloc(size - sizeof *k) : NULL;
    if (texts)
        memcpy(k, data, sizeof *k);
    int whole = texts && k->index >= 0 && k->index < MAX_USER_KERNELS && k->family.param_count <= MAX_PARAMS &&
                k->family.buffer_count <= MAX_BUFFERS && k->arg_count <= MAX_KERNEL_ARGS;
    size_t expected = whole ? sizeof *k + k->ptx_bytes + 1 + k->image_bytes : 0;
    for (int i = 0; whole && i < k->family.buffer_count; i++)
        expected += given_bytes(k, i);
    whole = whole && size == expected;
    if (!whole) {
        snprintf(why, why_size, "%s", SAY("a kernel's description came cut short or malformed: is the GPU process the same warplab?",
                                          "核函数的描述不完整或格式不对：GPU 进程是同一个 warplab 吗？"));
        free(k);
        free(texts);
        return NULL;
    }
    memcpy(texts, (const char *)data + sizeof *k, size - sizeof *k);
    k->family.ptx = texts;
    k->image = texts + k->ptx_bytes + 1;
    char *given = (char *)k->image + k->image_bytes;
    for (int i = 0; i < k->family.buffer_count; i++, given += given_bytes(k, i - 1))
        k->buffer_info[i].given = (unsigned char *)given;
    k->family.summary = k->family.summary_zh = k->family.teaches = k->family.teaches_zh = k->family.source = NULL;
    for (int i = 0; i < k->family.param_count; i++)
        k->params[i].doc = k->params[i].doc_zh = NULL;
    user_kernel_link(k);
    user_kernels[k->index] = k;   /* one sent before under this index, or inherited by a fork, is left: results may point at it */
    declared_count = k->index >= declared_count ? k->index + 1 : declared_count;
    return &k->family;
}
