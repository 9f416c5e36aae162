// store_policy: a write-only stream. Thread t stores one float4, each float
// holding its own index in out. pitch (in float4s) is 1 for fill="full"
// (contiguous: whole 32-byte sectors) and 2 for fill="partial" (32 bytes
// apart: the first half of every sector). `store` picks the cache hint.
#include "family.h"
#include "store_policy.h"

// One 16-byte global store with the cache hint HINT; each is one PTX st.global.v4.
template <int HINT>
__device__ __forceinline__ void hinted_store(float4 *p, float4 v)
{
    switch (HINT) {
    case STORE_CS: __stcs(p, v); break;   // st.global.cs: streaming, evict first in L2
    case STORE_CG: __stcg(p, v); break;   // st.global.cg: cache in L2, not L1
    default:       *p = v;                // st.global: the default (write-back in L2)
    }
}

template <int HINT>
__global__ void store_policy(float4 *out, long long pitch, long long n)
{
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    long long first = 4 * t * pitch;   // index of the float4's first float in out
    float4 v = make_float4((float)first, (float)(first + 1), (float)(first + 2), (float)(first + 3));
    hinted_store<HINT>(&out[t * pitch], v);
}
