/*
** indirect.h — the hash behind the data-dependent families (gather, spmv,
** histogram). Their index arrays, CSR structure and bins are pure functions
** of (seed, position), so fill_inputs writes exactly what the access model
** computes on its own, without ever reading a buffer.
*/
#ifndef WARPLAB_INDIRECT_H
#define WARPLAB_INDIRECT_H

#include <stdint.h>

/* splitmix64's finaliser: 64 well-mixed bits from any 64. */
static inline uint64_t indirect_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The hash of one position under a seed's key (indirect_mix(seed)): for
   loops that hash many positions under one seed. */
static inline uint64_t indirect_hash_keyed(uint64_t key, uint64_t position)
{
    return indirect_mix(key ^ position);
}

/* The hash of one position under one seed. */
static inline uint64_t indirect_hash(uint64_t seed, uint64_t position)
{
    return indirect_hash_keyed(indirect_mix(seed), position);
}

/* A number in [0, bound) from a hash: the high half of hash * bound, which
   is as even as hash % bound for bounds far below 2^64 and costs a multiply,
   not a division. */
static inline uint64_t indirect_below(uint64_t hash, uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)hash * bound) >> 64);
}

/* A float in [-1, 1) with 24 random bits: exact in float and in double. */
static inline float indirect_unit_float(uint64_t hash)
{
    return (float)((int32_t)(hash >> 40) - (1 << 23)) / (float)(1 << 23);
}

/* Seeds for data values that no address depends on: the backend's seed,
   mixed with one of these so that each buffer gets its own stream. */
enum { STREAM_VALUES = 1, STREAM_VECTOR = 2 };

#endif
