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

// The launcher: host code, which the emulator's device-only compiles leave out.
#ifndef WARPLAB_DEVICE_ONLY
template <int HINT>
static void launch_store_policy(const gpu_launch *l)
{
    unsigned blocks = (unsigned)(l->shape.threads / l->shape.block);
    long long pitch = l->params->v[STORE_POLICY_FILL] == FILL_PARTIAL ? 2 : 1;
    store_policy<HINT><<<blocks, l->shape.block, 0, (cudaStream_t)l->stream>>>(
        (float4 *)l->buffers[0], pitch, l->params->v[PARAM_N]);
}

// Indexed by the `store` choice (STORE_DEFAULT, STORE_CS, STORE_CG).
static void (*const launchers[])(const gpu_launch *) = {
    launch_store_policy<STORE_DEFAULT>, launch_store_policy<STORE_CS>, launch_store_policy<STORE_CG>,
};

extern "C" int store_policy_launch(const gpu_launch *l)
{
    launchers[l->params->v[STORE_POLICY_STORE]](l);
    return cudaGetLastError();
}
#endif
