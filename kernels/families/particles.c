/*
** particles.c — the chapter's velocity update v += a * dt on 32-byte
** particles (x, y, z, vx, vy, vz, mass, pad), as an array of structs or a
** struct of arrays (seven arrays, no pad). It reads and writes vx, vy and vz
** only, in place.
*/
#include <math.h>
#include "model/common.h"
#include "families/particles.h"

extern const char particles_kernel_cu[];

static const char *const layout_choices[] = { "aos", "soa", NULL };

static const struct param_decl particles_params[] = {
    COMMON_PARAMS(10000000),   /* the chapter's N: 320 MB of particles */
    [PARTICLES_LAYOUT] = { .name = "layout", .type = PARAM_CHOICE, .fallback = LAYOUT_AOS, .choices = layout_choices,
      .doc = "\"aos\": an array of 32-byte particle structs; \"soa\": one array per field",
      .doc_zh = "\"aos\"：32 字节粒子结构体的数组；\"soa\"：每个字段一个数组" },
};

static const struct buffer_decl particles_buffers[] = {
    { "particles", BUFFER_OUT, 4 },
};

enum { PARTICLE_FLOATS = 8, SOA_ARRAYS = 7, FIELD_VX = 3 };   /* vx, vy, vz are fields 3, 4, 5 */

static void particles_buffer_elements(const struct params *p, size_t *elements)
{
    long long n = p->v[PARAM_N];
    elements[0] = (size_t)(p->v[PARTICLES_LAYOUT] == LAYOUT_AOS ? PARTICLE_FLOATS * n : SOA_ARRAYS * SOA_PITCH(n));
}

/* vx, vy and vz read once and written once. */
static uint64_t particles_useful_bytes(const struct params *p)
{
    return 2 * 3 * 4 * (uint64_t)p->v[PARAM_N];
}

/* Where field `field` of particle i lies, in floats from the buffer's start. */
static long long field_index(const struct params *p, int field, long long i)
{
    if (p->v[PARTICLES_LAYOUT] == LAYOUT_AOS)
        return i * PARTICLE_FLOATS + field;
    return field * SOA_PITCH(p->v[PARAM_N]) + i;
}

/* fmaf, because the GPU contracts v + a * dt into one fused multiply-add (fma.rn.f32 in its PTX). */
static void particles_reference(const struct params *p, void *const *buffers)
{
    static const float acceleration[3] = { PARTICLES_AX, PARTICLES_AY, PARTICLES_AZ };
    float *particles = buffers[0];
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        for (int axis = 0; axis < 3; axis++) {
            float *v = &particles[field_index(p, FIELD_VX + axis, i)];
            *v = fmaf(acceleration[axis], PARTICLES_DT, *v);
        }
}

/* As the PTX has it, for either layout: load vx, store vx, load vy, store vy,
   load vz, store vz, each a 4-byte access (the struct is only 4-byte aligned,
   so no vector loads). */
static int particles_warp_accesses(const struct params *p, const uint64_t *base,
                                   long long warp, struct warp_access *acc)
{
    long long n = p->v[PARAM_N];
    int aos = p->v[PARTICLES_LAYOUT] == LAYOUT_AOS;
    long long step = aos ? PARTICLE_FLOATS : 1;
    for (int axis = 0; axis < 3; axis++) {
        long long first = field_index(p, FIELD_VX + axis, 0);
        warp_linear(&acc[2 * axis], ACCESS_LOAD, 4, warp, base[0], step, first, n);
        warp_linear(&acc[2 * axis + 1], ACCESS_STORE, 4, warp, base[0], step, first, n);
    }
    return 6;
}

/* As particles_launch: update_velocity_aos(particles, n, ax, ay, az, dt), or
   update_velocity_soa with a struct of the seven arrays' addresses, SOA_PITCH(n) floats apart. */
static void particles_kernel_call(const struct params *p, struct kernel_call *call)
{
    long long n = p->v[PARAM_N];
    int soa = p->v[PARTICLES_LAYOUT] == LAYOUT_SOA;
    call_kernel(call, one_thread_per_element(p), "%s", soa ? "update_velocity_soa" : "update_velocity_aos");
    for (int field = 0; field < (soa ? 7 : 1); field++)
        call_buffer_at(call, 0, 4 * field * SOA_PITCH(n));
    call_value(call, n);
    call_float(call, PARTICLES_AX);
    call_float(call, PARTICLES_AY);
    call_float(call, PARTICLES_AZ);
    call_float(call, PARTICLES_DT);
}

const struct family family_particles = {
    .name = "particles",
    .summary = "the velocity update v += a*dt on 32-byte particles: array of structs or struct of arrays",
    .teaches = "updating 3 of a particle's 8 floats costs a whole sector per lane in an array of structs, "
               "8/3 the DRAM traffic of a struct of arrays",
    .summary_zh = "在 32 字节粒子上做速度更新 v += a*dt：结构体数组或数组结构体",
    .teaches_zh = "只更新粒子 8 个 float 中的 3 个时，结构体数组的每个线程都要一整个扇区，DRAM 流量是数组结构体的 8/3 倍",
    .params = particles_params,
    .param_count = COUNT_OF(particles_params),
    .buffers = particles_buffers,
    .buffer_count = COUNT_OF(particles_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = particles_buffer_elements,
    .useful_bytes = particles_useful_bytes,
    .shape = one_thread_per_element,
    .reference = particles_reference,
    .warp_accesses = particles_warp_accesses,
    .source = particles_kernel_cu,
    .accumulates = 1,   /* it adds into the particles: they start at zero, so v becomes a * dt */
    .kernel_call = particles_kernel_call,
    .costs = (const struct warp_cost[]){ { 10, 2.67, 1 }, { 34, 0, 1 } },   /* aos, soa */
    .cost_by = PARTICLES_LAYOUT,
};
