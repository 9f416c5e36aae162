/*
** device.h — what warplab knows of a device, measured or modelled.
*/
#ifndef WARPLAB_DEVICE_H
#define WARPLAB_DEVICE_H

#include <stdint.h>

struct device_info {
    char name[256];
    int major, minor;                 /* compute capability */
    int sm_count;
    uint64_t l2_bytes;
    uint64_t memory_bytes, free_bytes;
    int bus_width_bits;
    double memory_clock_mhz;
    double peak_gbs;                  /* 2 x memory clock x bus width / 8 */
    double sm_clock_mhz;              /* the SM clock the device reports as its peak */
    /* What one SM can hold: the limits occupancy is made of. */
    uint64_t shared_bytes_per_sm, shared_bytes_per_block;   /* the block's: the most it can opt in to */
    int max_threads_per_sm, max_blocks_per_sm;
    double copy_gbs;                  /* measured device-to-device copy, read + written; 0: not yet */
    int driver_version, runtime_version;
    int ordinal;
};

#endif
