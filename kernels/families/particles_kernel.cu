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
