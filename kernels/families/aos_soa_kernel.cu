// aos_soa: n records of FIELDS floats; each thread touches field 0 of one
// record. As an array of structs (AoS) record i starts at i * FIELDS floats,
// so a warp's 32 fields are FIELDS * 4 bytes apart; as a struct of arrays
// (SoA) field 0 of every record is one contiguous array.
//   read:   out[i] = field          write:  field = a[i] + b[i]
//   update: field += a[i]
#include "family.h"
#include "aos_soa.h"

template <int FIELDS>
struct aos_record {
    float field[FIELDS];
};

// What one thread does to its record's field 0.
template <int ACCESS>
__device__ void touch_field(float &field, const float *a, const float *b, float *out, long long i)
{
    if (ACCESS == AOS_SOA_READ)
        out[i] = field;
    else if (ACCESS == AOS_SOA_WRITE)
        field = a[i] + b[i];
    else
        field += a[i];
}

template <int ACCESS, int FIELDS>
__global__ void touch_aos(aos_record<FIELDS> *records, const float *a, const float *b, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        touch_field<ACCESS>(records[i].field[0], a, b, out, i);
}

// The struct of arrays: x is its first array, field 0 of every record.
template <int ACCESS>
__global__ void touch_soa(float *x, const float *a, const float *b, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        touch_field<ACCESS>(x[i], a, b, out, i);
}

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <int ACCESS, int FIELDS>
static void launch_aos(const gpu_launch *l, unsigned blocks, void *records)
{
    touch_aos<ACCESS, FIELDS><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (aos_record<FIELDS> *)records, (const float *)l->buffers[AOS_SOA_A],
        (const float *)l->buffers[AOS_SOA_B], (float *)l->buffers[AOS_SOA_OUT], l->params->v[PARAM_N]);
}

template <int ACCESS>
static int launch_access(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    void *records = l->buffers[ACCESS == AOS_SOA_READ ? AOS_SOA_STRUCTS_IN : AOS_SOA_STRUCTS];
    if (l->params->v[AOS_SOA_LAYOUT] == LAYOUT_SOA) {
        touch_soa<ACCESS><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
            (float *)records, (const float *)l->buffers[AOS_SOA_A], (const float *)l->buffers[AOS_SOA_B],
            (float *)l->buffers[AOS_SOA_OUT], l->params->v[PARAM_N]);
        return cudaGetLastError();
    }
    switch (l->params->v[AOS_SOA_FIELDS]) {
    case 2:  launch_aos<ACCESS, 2>(l, blocks, records); break;
    case 3:  launch_aos<ACCESS, 3>(l, blocks, records); break;
    case 4:  launch_aos<ACCESS, 4>(l, blocks, records); break;
    case 5:  launch_aos<ACCESS, 5>(l, blocks, records); break;
    case 6:  launch_aos<ACCESS, 6>(l, blocks, records); break;
    case 7:  launch_aos<ACCESS, 7>(l, blocks, records); break;
    default: launch_aos<ACCESS, 8>(l, blocks, records); break;
    }
    return cudaGetLastError();
}

extern "C" int aos_soa_launch(const gpu_launch *l)
{
    switch (l->params->v[AOS_SOA_ACCESS]) {
    case AOS_SOA_READ:  return launch_access<AOS_SOA_READ>(l);
    case AOS_SOA_WRITE: return launch_access<AOS_SOA_WRITE>(l);
    default:            return launch_access<AOS_SOA_UPDATE>(l);
    }
}
#endif
