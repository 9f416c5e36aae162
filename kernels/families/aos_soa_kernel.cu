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
