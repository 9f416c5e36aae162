/*
** aos_soa.c — touch field 0 of n records of `fields` floats, kept as an
** array of structs or as a struct of arrays. Read copies the field out,
** write sets it to a[i] + b[i] (the reference notes' experiment), update
** adds a[i] to it in place.
*/
#include "model/common.h"
#include "families/aos_soa.h"

extern const char aos_soa_kernel_cu[];

static const char *const layout_choices[] = { "aos", "soa", NULL };
static const char *const access_choices[] = { "read", "write", "update", NULL };

static const struct param_decl aos_soa_params[] = {
    COMMON_PARAMS(1LL << 24),
    [AOS_SOA_LAYOUT] = { .name = "layout", .type = PARAM_CHOICE, .fallback = LAYOUT_AOS, .choices = layout_choices,
      .doc = "\"aos\": an array of structs (record i's fields side by side); \"soa\": a struct of arrays (one array per field)",
      .doc_zh = "\"aos\"：结构体数组（每条记录的字段相邻）；\"soa\"：数组结构体（每个字段一个数组）" },
    [AOS_SOA_FIELDS] = { .name = "fields", .type = PARAM_INT, .fallback = 2, .min = 2, .max = 8,
      .doc = "floats per record: the struct is fields * 4 bytes",
      .doc_zh = "每条记录的 float 个数：结构体大小为 fields * 4 字节" },
    [AOS_SOA_ACCESS] = { .name = "access", .type = PARAM_CHOICE, .fallback = AOS_SOA_WRITE, .choices = access_choices,
      .doc = "what each thread does to field 0: \"read\" (out[i] = x), \"write\" (x = a[i] + b[i]), \"update\" (x += a[i])",
      .doc_zh = "每个线程对字段 0 做什么：\"read\"（out[i] = x）、\"write\"（x = a[i] + b[i]）、\"update\"（x += a[i]）" },
};

/* Unused buffers of an access are empty. */
static const struct buffer_decl aos_soa_buffers[] = {
    [AOS_SOA_STRUCTS_IN] = { "structs_in", BUFFER_IN, 4 },   /* read: the records */
    [AOS_SOA_A] = { "a", BUFFER_IN, 4 },                     /* write, update */
    [AOS_SOA_B] = { "b", BUFFER_IN, 4 },                     /* write */
    [AOS_SOA_STRUCTS] = { "structs", BUFFER_OUT, 4 },        /* write, update: the records */
    [AOS_SOA_OUT] = { "out", BUFFER_OUT, 4 },                /* read */
};

/* Floats the records take: fields per record; a struct of arrays keeps each array 256-byte aligned. */
static size_t record_floats(const struct params *p)
{
    long long n = p->v[PARAM_N], fields = p->v[AOS_SOA_FIELDS];
    return (size_t)(fields * (p->v[AOS_SOA_LAYOUT] == LAYOUT_AOS ? n : SOA_PITCH(n)));
}

static void aos_soa_buffer_elements(const struct params *p, size_t *elements)
{
    long long access = p->v[AOS_SOA_ACCESS];
    size_t n = (size_t)p->v[PARAM_N];
    elements[AOS_SOA_STRUCTS_IN] = access == AOS_SOA_READ ? record_floats(p) : 0;
    elements[AOS_SOA_A] = access == AOS_SOA_READ ? 0 : n;
    elements[AOS_SOA_B] = access == AOS_SOA_WRITE ? n : 0;
    elements[AOS_SOA_STRUCTS] = access == AOS_SOA_READ ? 0 : record_floats(p);
    elements[AOS_SOA_OUT] = access == AOS_SOA_READ ? n : 0;
}

/* Read: the field in, out[i] out; write: a and b in, the field out; update: a and the field in, the field out. */
static uint64_t aos_soa_useful_bytes(const struct params *p)
{
    return (p->v[AOS_SOA_ACCESS] == AOS_SOA_READ ? 2 : 3) * 4 * (uint64_t)p->v[PARAM_N];
}

/* Floats from one record's field 0 to the next record's. */
static long long record_step(const struct params *p)
{
    return p->v[AOS_SOA_LAYOUT] == LAYOUT_AOS ? p->v[AOS_SOA_FIELDS] : 1;
}

static void aos_soa_reference(const struct params *p, void *const *buffers)
{
    const float *structs_in = buffers[AOS_SOA_STRUCTS_IN], *a = buffers[AOS_SOA_A], *b = buffers[AOS_SOA_B];
    float *structs = buffers[AOS_SOA_STRUCTS], *out = buffers[AOS_SOA_OUT];
    long long n = p->v[PARAM_N], step = record_step(p), access = p->v[AOS_SOA_ACCESS];
    for (long long i = 0; i < n; i++) {
        if (access == AOS_SOA_READ)
            out[i] = structs_in[i * step];
        else if (access == AOS_SOA_WRITE)
            structs[i * step] = a[i] + b[i];
        else
            structs[i * step] += a[i];
    }
}

/* In the kernel's order (its PTX): read loads the field and stores out[i];
   write loads b[i], then a[i], and stores the field; update loads the field,
   then a[i], and stores the field. */
static int aos_soa_warp_accesses(const struct params *p, const uint64_t *base,
                                 long long warp, struct warp_access *acc)
{
    long long n = p->v[PARAM_N], step = record_step(p);
    switch (p->v[AOS_SOA_ACCESS]) {
    case AOS_SOA_READ:
        warp_linear(&acc[0], ACCESS_LOAD, 4, warp, base[AOS_SOA_STRUCTS_IN], step, 0, n);
        warp_linear(&acc[1], ACCESS_STORE, 4, warp, base[AOS_SOA_OUT], 1, 0, n);
        return 2;
    case AOS_SOA_WRITE:
        warp_linear(&acc[0], ACCESS_LOAD, 4, warp, base[AOS_SOA_B], 1, 0, n);
        warp_linear(&acc[1], ACCESS_LOAD, 4, warp, base[AOS_SOA_A], 1, 0, n);
        warp_linear(&acc[2], ACCESS_STORE, 4, warp, base[AOS_SOA_STRUCTS], step, 0, n);
        return 3;
    default:
        warp_linear(&acc[0], ACCESS_LOAD, 4, warp, base[AOS_SOA_STRUCTS], step, 0, n);
        warp_linear(&acc[1], ACCESS_LOAD, 4, warp, base[AOS_SOA_A], 1, 0, n);
        warp_linear(&acc[2], ACCESS_STORE, 4, warp, base[AOS_SOA_STRUCTS], step, 0, n);
        return 3;
    }
}

/* As aos_soa_launch: touch_soa<ACCESS> or touch_aos<ACCESS, FIELDS>(records, a, b, out, n),
   records the input structs for a read, else the structs updated in place. */
static void aos_soa_kernel_call(const struct params *p, struct kernel_call *call)
{
    long long access = p->v[AOS_SOA_ACCESS];
    if (p->v[AOS_SOA_LAYOUT] == LAYOUT_SOA)
        call_kernel(call, one_thread_per_element(p), "touch_soa<%lld>", access);
    else
        call_kernel(call, one_thread_per_element(p), "touch_aos<%lld, %lld>", access, p->v[AOS_SOA_FIELDS]);
    call_buffer(call, access == AOS_SOA_READ ? AOS_SOA_STRUCTS_IN : AOS_SOA_STRUCTS);
    call_buffer(call, AOS_SOA_A);
    call_buffer(call, AOS_SOA_B);
    call_buffer(call, AOS_SOA_OUT);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_aos_soa = {
    .name = "aos_soa",
    .summary = "touch one field of each record: an array of structs against a struct of arrays",
    .teaches = "in an array of structs a warp's accesses to one field spread over whole records, "
               "so sectors per request grow with the struct size, while a struct of arrays keeps 4",
    .summary_zh = "访问每条记录的一个字段：结构体数组与数组结构体对比",
    .teaches_zh = "在结构体数组中，一个 warp 对同一字段的访问分散在整条记录上，每个请求的扇区数随结构体大小增长；"
                  "数组结构体则始终为 4",
    .params = aos_soa_params,
    .param_count = COUNT_OF(aos_soa_params),
    .buffers = aos_soa_buffers,
    .buffer_count = COUNT_OF(aos_soa_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = aos_soa_buffer_elements,
    .useful_bytes = aos_soa_useful_bytes,
    .shape = one_thread_per_element,
    .reference = aos_soa_reference,
    .warp_accesses = aos_soa_warp_accesses,
    .source = aos_soa_kernel_cu,
    .accumulates = 1,   /* update adds into the records: they start at zero */
    .kernel_call = aos_soa_kernel_call,
    .costs = (const struct warp_cost[]){ { 21.17, 0, 1 }, { 27, 0, 1 }, { 0, 7.57, 1 } },   /* read, write, update */
    .cost_by = AOS_SOA_ACCESS,
};
