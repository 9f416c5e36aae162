/*
** testing.c — two families that exist only for the test suite, listed after
** the real ones and visible only with WARPLAB_TEST_KERNELS=1:
** `wrong` writes one wrong element (the correctness check must catch it),
** `fault` writes far out of bounds (the backend must recover from it).
*/
#include "model/common.h"

extern const char testing_kernel_cu[];

static const struct param_decl testing_params[] = {
    COMMON_PARAMS(1LL << 20),
};

static const struct buffer_decl testing_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static uint64_t testing_useful_bytes(const struct params *p)
{
    return 8 * (uint64_t)p->v[PARAM_N];
}

/* What both kernels should compute: a copy. */
static void copy_reference(const struct params *p, void *const *buffers, int part, int parts)
{
    copy_elements(buffers, p->v[PARAM_N], 4, part, parts);
}

static int copy_accesses(const struct params *p, const uint64_t *base,
                         long long warp, struct warp_access *acc)
{
    return warp_copy(acc, 4, warp, base, p->v[PARAM_N]);
}

/* Both kernels take a copy's arguments: in, out, n. */
static void copy_call(const char *kernel, const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "%s", kernel);
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[PARAM_N]);
}

static void wrong_call(const struct params *p, struct kernel_call *call)
{
    copy_call("wrong", p, call);
}

static void fault_call(const struct params *p, struct kernel_call *call)
{
    copy_call("fault", p, call);
}

#define TESTING_FAMILY(family_name, text, call)                          \
    {                                                                    \
        .name = family_name,                                             \
        .summary = text,                                                 \
        .teaches = "nothing: it tests warplab itself",                   \
        .summary_zh = "仅供测试",                                         \
        .teaches_zh = "无：用于测试 warplab 本身",                         \
        .params = testing_params,                                        \
        .param_count = COUNT_OF(testing_params),                         \
        .buffers = testing_buffers,                                      \
        .buffer_count = COUNT_OF(testing_buffers),                       \
        .element_bytes = four_byte_elements,                             \
        .buffer_elements = n_in_n_out,                                   \
        .useful_bytes = testing_useful_bytes,                            \
        .shape = one_thread_per_element,                                 \
        .reference_part = copy_reference,                                \
        .warp_accesses = copy_accesses,                                  \
        .kernel_call = call,                                             \
        .source = testing_kernel_cu,                                     \
    }

const struct family family_wrong =
    TESTING_FAMILY("wrong", "test only: a copy that gets element n/2 wrong", wrong_call);
const struct family family_fault =
    TESTING_FAMILY("fault", "test only: a copy that writes far out of bounds", fault_call);
