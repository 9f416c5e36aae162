// particles: the chapter's velocity update, v += a * dt, on n particles of
// eight floats (x, y, z, vx, vy, vz, mass and a pad to 32 bytes). Only the
// velocity is read and written. As an array of structs a warp's vx are 32
// bytes apart, one sector per lane; as a struct of arrays they are contiguous.
#include "family.h"
#include "particles.h"

struct particle {
    float x, y, z;
    float vx, vy, vz;
    float mass;
    float pad;
};

struct particle_arrays {
    float *x, *y, *z;
    float *vx, *vy, *vz;
    float *mass;
};

__global__ void update_velocity_aos(particle *p, long long n, float ax, float ay, float az, float dt)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].vx += ax * dt;
        p[i].vy += ay * dt;
        p[i].vz += az * dt;
    }
}

__global__ void update_velocity_soa(particle_arrays p, long long n, float ax, float ay, float az, float dt)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p.vx[i] += ax * dt;
        p.vy[i] += ay * dt;
        p.vz[i] += az * dt;
    }
}

// The struct of arrays lies in one buffer, its arrays SOA_PITCH(n) floats apart.
// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
static particle_arrays arrays_of(float *buffer, long long n)
{
    long long pitch = SOA_PITCH(n);
    particle_arrays p = { buffer, buffer + pitch, buffer + 2 * pitch, buffer + 3 * pitch,
                          buffer + 4 * pitch, buffer + 5 * pitch, buffer + 6 * pitch };
    return p;
}

extern "C" int particles_launch(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    long long n = l->params->v[PARAM_N];
    cudaStream_t stream = (cudaStream_t)l->stream;
    if (l->params->v[PARTICLES_LAYOUT] == LAYOUT_SOA)
        update_velocity_soa<<<blocks, l->shape.block, 0, stream>>>(
            arrays_of((float *)l->buffers[0], n), n, PARTICLES_AX, PARTICLES_AY, PARTICLES_AZ, PARTICLES_DT);
    else
        update_velocity_aos<<<blocks, l->shape.block, 0, stream>>>(
            (particle *)l->buffers[0], n, PARTICLES_AX, PARTICLES_AY, PARTICLES_AZ, PARTICLES_DT);
    return cudaGetLastError();
}
#endif
