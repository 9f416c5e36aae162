/*
** width.c — out[i] = in[i] for elements of 1 to 16 bytes: a coalesced warp
** asks for 32 times the element width, so its sectors grow with it.
*/
#include "model/common.h"
#include "families/width.h"

extern const char width_kernel_cu[];

/* In the order of WIDTH_TYPE's choices (and of the launcher's switch). */
static const char *const width_types[] = { "char", "short", "float", "double", "float2", "float4", NULL };
static const int width_type_bytes[] = { 1, 2, 4, 8, 8, 16 };

static const struct param_decl width_params[] = {
    COMMON_PARAMS(1LL << 26),
    [WIDTH_TYPE] = { .name = "type", .type = PARAM_CHOICE, .fallback = 2, .choices = width_types,
      .doc = "element type: \"char\" (1 byte), \"short\" (2), \"float\" (4), \"double\" (8), \"float2\" (8) or \"float4\" (16)",
      .doc_zh = "元素类型：\"char\"（1 字节）、\"short\"（2）、\"float\"（4）、\"double\"（8）、\"float2\"（8）或 \"float4\"（16）" },
};

static const struct buffer_decl width_buffers[] = {
    { "in", BUFFER_IN, 0 },
    { "out", BUFFER_OUT, 0 },
};

static int width_element_bytes(const struct params *p)
{
    return width_type_bytes[p->v[WIDTH_TYPE]];
}

static uint64_t width_useful_bytes(const struct params *p)
{
    return 2 * (uint64_t)p->v[PARAM_N] * (uint64_t)width_element_bytes(p);
}

/* The kernel moves bytes without looking at them: a copy of the bytes. */
static void width_reference(const struct params *p, void *const *buffers, int part, int parts)
{
    copy_elements(buffers, p->v[PARAM_N], width_element_bytes(p), part, parts);
}

/* One load and one store of the element width per thread (PTX: ld.global.nc
   .u8/.u16/.f32/.f64/.v2.u32/.v4.u32 and the matching st.global). */
static int width_warp_accesses(const struct params *p, const uint64_t *base,
                               long long warp, struct warp_access *acc)
{
    return warp_copy(acc, width_element_bytes(p), warp, base, p->v[PARAM_N]);
}

/* As width_launch: width_copy<T>(in, out, n), T the type's own name. */
static void width_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "width_copy<%s>", width_types[p->v[WIDTH_TYPE]]);
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_width = {
    .name = "width",
    .summary = "out[i] = in[i] for char, short, float, double, float2 or float4 elements",
    .teaches = "a coalesced warp asks for 32 times the element width, so sectors per request grow from 1 "
               "(char) to 16 (float4): a warp of doubles touches 8 sectors in two 128-byte lines, twice a "
               "warp of floats, and every fetched byte is still used",
    .summary_zh = "out[i] = in[i]，元素为 char、short、float、double、float2 或 float4",
    .teaches_zh = "合并访问的 warp 请求 32 倍元素宽度的字节，所以每个请求的扇区数从 1（char）增长到 16（float4）："
                  "一个 warp 的 double 要碰 8 个扇区、两条 128 字节缓存行，是 float 的两倍，取回的字节仍然全部有用",
    .params = width_params,
    .param_count = COUNT_OF(width_params),
    .buffers = width_buffers,
    .buffer_count = COUNT_OF(width_buffers),
    .element_bytes = width_element_bytes,
    .buffer_elements = n_in_n_out,
    .useful_bytes = width_useful_bytes,
    .shape = one_thread_per_element,
    .reference_part = width_reference,
    .warp_accesses = width_warp_accesses,
    .source = width_kernel_cu,
    .kernel_call = width_kernel_call,
    .costs = (const struct warp_cost[]){ { 21.73, 0, 1 } },
};
