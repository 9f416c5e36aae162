// hinted_load<HINT>(p): one global load with the cache hint the `load`
// parameter chose (LOAD_DEFAULT ... from family.h, included before this), for
// the kernels of offset, strided and stencil1d; each case is one PTX ld.global.
template <int HINT>
__device__ __forceinline__ float hinted_load(const float *p)
{
    switch (HINT) {
    case LOAD_CA:  return __ldca(p);   // ld.global.ca: cache in L1 and L2
    case LOAD_CG:  return __ldcg(p);   // ld.global.cg: L2 only, L1 bypassed
    case LOAD_LDG: return __ldg(p);    // ld.global.nc: the read-only path
    case LOAD_CS:  return __ldcs(p);   // ld.global.cs: streaming, evict first
    default:       return *p;          // ld.global: the default (L1 and L2)
    }
}
