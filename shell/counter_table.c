/*
** counter_table.c — one row per hardware counter, in enum counter_id order.
*/
#include "counter_table.h"

const struct counter_decl counter_table[COUNTER_COUNT] = {
    [COUNTER_LOAD_REQUESTS] = { "load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "Warp-wide global load instructions that reached L1: one per instruction per warp, however many "
        "lanes were active. Dividing sectors by requests gives sectors per request." },
    [COUNTER_LOAD_SECTORS] = { "load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "The 32-byte sectors those load requests touched, counted once per request. A coalesced warp of "
        "floats touches 4; every sector beyond the ideal is bandwidth spent on bytes nobody asked for." },
    [COUNTER_STORE_REQUESTS] = { "store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "Warp-wide global store instructions: one per instruction per warp. Stores go through L1 to L2 "
        "without being cached in L1." },
    [COUNTER_STORE_SECTORS] = { "store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "The 32-byte sectors the store requests wrote, counted once per request. A partly written sector "
        "costs as much traffic to L2 as a full one." },
    [COUNTER_DRAM_READ_BYTES] = { "dram_read_bytes", "dram__bytes_read.sum",
        "Bytes read from device memory (DRAM/HBM) during the kernel: what missed in L2. It can be less than "
        "the bytes loaded (reuse in L2) or more (whole sectors, write-allocate reads)." },
    [COUNTER_DRAM_WRITE_BYTES] = { "dram_write_bytes", "dram__bytes_write.sum",
        "Bytes written to device memory during the kernel: dirty L2 lines evicted while it ran. Output still "
        "in L2 when the kernel ends is written later and is not counted here." },
    [COUNTER_L2_READ_SECTORS] = { "l2_read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum",
        "Sectors L2 served to the SMs' L1 for reads. Compared with the load sectors it shows how much L1 "
        "kept to itself." },
    [COUNTER_L2_WRITE_SECTORS] = { "l2_write_sectors", "lts__t_sectors_srcunit_tex_op_write.sum",
        "Sectors the SMs wrote into L2. Every global store sector arrives here, since L1 does not keep "
        "stores." },
    [COUNTER_L1_HIT_RATE] = { "l1_hit_rate", "l1tex__t_sector_hit_rate.pct",
        "Percentage of the sectors asked of L1 that it already held. Streaming kernels read each sector "
        "once, so theirs is near 0; stencils and reuse raise it." },
    [COUNTER_L2_HIT_RATE] = { "l2_hit_rate", "lts__t_sector_hit_rate.pct",
        "Percentage of the sectors asked of L2 that it already held. Stores count as hits, and a working "
        "set under the L2 size is mostly hits after the first pass." },
    /* The sass-level wavefronts: what each instruction's lanes cost. The l1tex__ ones
       add passes lost to other L1 traffic on the same banks, and vary run to run. */
    [COUNTER_SHARED_LOAD_WAVEFRONTS] = { "shared_load_wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "Passes the shared-memory pipeline needed for the warps' shared loads, as their instructions ask for "
        "them: one per instruction when no two lanes hit different words of one bank. Each bank conflict adds one." },
    [COUNTER_SHARED_STORE_WAVEFRONTS] = { "shared_store_wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "Passes the shared-memory pipeline needed for the warps' shared stores. A warp whose lanes write "
        "different words of the same bank needs one pass per such word." },
    [COUNTER_SHARED_LOAD_CONFLICTS] = { "shared_load_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "Extra shared-load passes the banks took, as Nsight Compute counts bank conflicts: lanes reading "
        "different words of one bank, plus passes lost to other L1 traffic on those banks. So it can exceed 0 "
        "with no conflicting lanes; shared_load.bank_conflicts counts the lanes' own." },
    [COUNTER_SHARED_STORE_CONFLICTS] = { "shared_store_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "Extra shared-store passes the banks took, as Nsight Compute counts bank conflicts: lanes writing "
        "different words of one bank, plus passes lost to other L1 traffic. So it can exceed 0 with no "
        "conflicting lanes; shared_store.bank_conflicts counts the lanes' own." },
};

const struct counter_decl derived_terms[] = {
    { "sectors_per_request", "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
      "Sectors touched per warp request: 4 for a warp of aligned, consecutive floats, 32 when every lane "
      "needs a sector of its own. It is the first number to read about coalescing." },
    { "ideal", "(derived: bytes asked for / 32, per request)",
      "The fewest sectors per request that could hold the bytes the lanes asked for. Sectors per request "
      "above it are bytes fetched and thrown away." },
    { "useful_fraction", "(derived: bytes asked for / (32 x sectors))",
      "The share of the fetched bytes that the lanes used. 100% is a perfectly coalesced access; 12.5% "
      "is a float per 32-byte sector." },
};
const int derived_term_count = sizeof derived_terms / sizeof derived_terms[0];
