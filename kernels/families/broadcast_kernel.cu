// broadcast: thread i writes out[i] = table[i & mask]: mask 0 makes every
// lane read table[0], mask 16383 makes a warp read 32 distinct floats. The
// table is either a global buffer or a __constant__ array, compiled in with
// the values broadcast.c's reference expects, so no copy precedes a launch.
#include "family.h"
#include "broadcast.h"

struct broadcast_table {
    float value[BROADCAST_TABLE_FLOATS];
};

// table[j] = j + 0.25 (BROADCAST_TABLE_VALUE in broadcast.h): distinct, exact floats.
constexpr broadcast_table make_broadcast_table()
{
    broadcast_table t{};
    for (int j = 0; j < BROADCAST_TABLE_FLOATS; j++)
        t.value[j] = BROADCAST_TABLE_VALUE(j);
    return t;
}

__constant__ broadcast_table constant_table = make_broadcast_table();

template <bool from_constant>
__global__ void broadcast(const float *__restrict__ global_table, float *__restrict__ out,
                          long long n, unsigned mask)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned j = (unsigned)i & mask;
        out[i] = from_constant ? constant_table.value[j] : global_table[j];
    }
}

// space: 0 global, 1 constant; pattern: 0 same, 1 distinct (broadcast.c's choices).
