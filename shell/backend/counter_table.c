/*
** counter_table.c — one row per hardware counter, in enum counter_id order.
** other_metric is the name a counter has on chips that name it differently:
** CUPTI 13.0's host API gives the DRAM byte counts of GB202 to GB207 (the RTX
** 50 series) as dram__bytes_op_read/_op_write, and of the integrated chips
** (GA10B, GB10B, GB20B) none at all; it names LDGSTS's (cp.async's) counters on
** GH100 and the Blackwells only. tests/gpu/counter_table checks every chip.
*/
#include <stddef.h>
#include "backend/counter_table.h"
#include "backend/counters.h"

const struct counter_decl counter_table[COUNTER_COUNT] = {
    [COUNTER_LOAD_REQUESTS] = { "load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "Warp-wide global load instructions that reached L1: one per instruction per warp, however many "
        "lanes were active. Dividing sectors by requests gives sectors per request.",
        "到达 L1 的 warp 级全局内存读取指令：每个 warp 每条指令计一次，无论有多少线程处于活动状态。"
        "扇区数除以请求数即每请求扇区数。" },
    [COUNTER_LOAD_SECTORS] = { "load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "The 32-byte sectors those load requests touched, counted once per request. A coalesced warp of "
        "floats touches 4; every sector beyond the ideal is bandwidth spent on bytes nobody asked for.",
        "这些读取请求访问的 32 字节扇区，每个请求各计一次。一个合并访问的 float warp 访问 4 个扇区；"
        "超出理想值的每个扇区，都是把带宽花在了没人要的字节上。" },
    [COUNTER_STORE_REQUESTS] = { "store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "Warp-wide global store instructions: one per instruction per warp. Stores go through L1 to L2 "
        "without being cached in L1.",
        "warp 级全局内存写入指令：每个 warp 每条指令计一次。写入经由 L1 送往 L2，不在 L1 中缓存。" },
    [COUNTER_STORE_SECTORS] = { "store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "The 32-byte sectors the store requests wrote, counted once per request. A partly written sector "
        "costs as much traffic to L2 as a full one.",
        "写入请求写到的 32 字节扇区，每个请求各计一次。只写了一部分的扇区，送往 L2 的流量与写满的扇区一样多。" },
    [COUNTER_DRAM_READ_BYTES] = { "dram_read_bytes", "dram__bytes_read.sum",
        "Bytes read from device memory (DRAM/HBM) during the kernel: what missed in L2. It can be less than "
        "the bytes loaded (reuse in L2) or more (whole sectors, write-allocate reads).",
        "核函数运行期间从显存（DRAM/HBM）读取的字节数，即 L2 未命中的部分。它可能少于读取的字节数（L2 中的复用），"
        "也可能更多（整扇区读取、写分配读取）。",
        .other_metric = "dram__bytes_op_read.sum" },
    [COUNTER_DRAM_WRITE_BYTES] = { "dram_write_bytes", "dram__bytes_write.sum",
        "Bytes written to device memory during the kernel: dirty L2 lines evicted while it ran. Output still "
        "in L2 when the kernel ends is written later and is not counted here.",
        "核函数运行期间写入显存的字节数：运行时被逐出 L2 的脏缓存行。核函数结束时仍在 L2 中的输出稍后才写回，"
        "不计在这里。",
        .other_metric = "dram__bytes_op_write.sum" },
    [COUNTER_L2_READ_SECTORS] = { "l2_read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum",
        "Sectors L2 served to the SMs' L1 for reads. Compared with the load sectors it shows how much L1 "
        "kept to itself.",
        "L2 为读取提供给各 SM 的 L1 的扇区数。与读取扇区数相比，可以看出 L1 自己留住了多少。" },
    [COUNTER_L2_WRITE_SECTORS] = { "l2_write_sectors", "lts__t_sectors_srcunit_tex_op_write.sum",
        "Sectors the SMs wrote into L2. Every global store sector arrives here, since L1 does not keep "
        "stores.",
        "各 SM 写入 L2 的扇区数。每个全局内存写入扇区都会到达这里，因为 L1 不保留写入。" },
    [COUNTER_L1_HIT_RATE] = { "l1_hit_rate", "l1tex__t_sector_hit_rate.pct",
        "Percentage of the sectors asked of L1 that it already held. Streaming kernels read each sector "
        "once, so theirs is near 0; stencils and reuse raise it.",
        "向 L1 请求的扇区中已在 L1 中的百分比。流式核函数每个扇区只读一次，所以命中率接近 0；"
        "模板计算和复用会提高它。" },
    [COUNTER_L2_HIT_RATE] = { "l2_hit_rate", "lts__t_sector_hit_rate.pct",
        "Percentage of the sectors asked of L2 that it already held. Stores count as hits, and a working "
        "set under the L2 size is mostly hits after the first pass.",
        "向 L2 请求的扇区中已在 L2 中的百分比。写入算作命中；工作集小于 L2 容量时，第一遍之后大多是命中。" },
    /* The sass-level wavefronts: what each instruction's lanes cost. The l1tex__ ones
       add passes lost to other L1 traffic on the same banks, and vary run to run. */
    [COUNTER_SHARED_LOAD_WAVEFRONTS] = { "shared_load_wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "Passes the shared-memory pipeline needed for the warps' shared loads, as their instructions ask for "
        "them: one per instruction when no two lanes hit different words of one bank. Each bank conflict adds one.",
        "各 warp 的共享内存读取按指令所需而占用的共享内存流水线轮次（wavefront）：没有两个线程访问同一存储体的"
        "不同字在时，每条指令一轮。每个存储体冲突多一轮。" },
    [COUNTER_SHARED_STORE_WAVEFRONTS] = { "shared_store_wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "Passes the shared-memory pipeline needed for the warps' shared stores. A warp whose lanes write "
        "different words of the same bank needs one pass per such word.",
        "各 warp 的共享内存写入所需的共享内存流水线轮次。一个 warp 的线程写同一存储体的不同字时，"
        "每个这样的字需要一轮。" },
    [COUNTER_SHARED_LOAD_CONFLICTS] = { "shared_load_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "Extra shared-load passes the banks took, as Nsight Compute counts bank conflicts: lanes reading "
        "different words of one bank, plus passes lost to other L1 traffic on those banks. So it can exceed 0 "
        "with no conflicting lanes; shared_load.bank_conflicts counts the lanes' own.",
        "存储体多花的共享内存读取轮次，按 Nsight Compute 统计存储体冲突的方式：线程读取同一存储体的不同字，"
        "加上同一存储体上其他 L1 流量占去的轮次。所以即使没有冲突的线程，它也可能大于 0；"
        "shared_load.bank_conflicts 只计线程自身的冲突。" },
    [COUNTER_SHARED_STORE_CONFLICTS] = { "shared_store_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "Extra shared-store passes the banks took, as Nsight Compute counts bank conflicts: lanes writing "
        "different words of one bank, plus passes lost to other L1 traffic. So it can exceed 0 with no "
        "conflicting lanes; shared_store.bank_conflicts counts the lanes' own.",
        "存储体多花的共享内存写入轮次，按 Nsight Compute 统计存储体冲突的方式：线程写入同一存储体的不同字，"
        "加上其他 L1 流量占去的轮次。所以即使没有冲突的线程，它也可能大于 0；"
        "shared_store.bank_conflicts 只计线程自身的冲突。" },
    [COUNTER_ATOMIC_REQUESTS] = { "atomic_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
        "Warp-wide global atomic instructions whose result the kernel uses (ATOM): one per instruction per "
        "warp. Each active lane is a read-modify-write done in L2, and lanes on one address wait for each other.",
        "结果被核函数用到的 warp 级全局原子指令（ATOM）：每个 warp 每条指令计一次。每个活动线程都是一次在 L2 中"
        "完成的读-改-写，同一地址上的线程要彼此等待。" },
    [COUNTER_ATOMIC_SECTORS] = { "atomic_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "The 32-byte sectors those atomic requests touched, counted once per request.",
        "这些原子请求访问的 32 字节扇区，每个请求各计一次。" },
    [COUNTER_REDUCTION_REQUESTS] = { "reduction_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
        "Warp-wide global reductions (RED): atomics whose result is unused, such as atomicAdd(&count, 1) as a "
        "statement. The compiler issues them without waiting for an answer; L2 still does each lane's update.",
        "warp 级全局归约指令（RED）：结果未被使用的原子操作，例如作为一条语句的 atomicAdd(&count, 1)。"
        "编译器发出它们后不等待返回值；L2 仍要完成每个线程的更新。" },
    [COUNTER_REDUCTION_SECTORS] = { "reduction_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
        "The 32-byte sectors those reduction requests touched, counted once per request.",
        "这些归约请求访问的 32 字节扇区，每个请求各计一次。" },
    /* CUPTI 13.0 names LDGSTS's counters by their L1 policy: cache_access (cp.async.ca) on GH100
       and the Blackwells, none on Turing, Ampere and Ada; Nsight Compute's docs say op_ldgsts. */
    [COUNTER_LDGSTS_REQUESTS] = { "ldgsts_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "Warp-wide cp.async copies from global to shared memory (LDGSTS): one per instruction per warp. They "
        "are counted here, not as global loads, and not as shared-memory stores.",
        "从全局内存到共享内存的 warp 级 cp.async 复制（LDGSTS）：每个 warp 每条指令计一次。它们计在这里，"
        "既不算全局内存读取，也不算共享内存写入。",
        .other_metric = "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum" },
    [COUNTER_LDGSTS_SECTORS] = { "ldgsts_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "The 32-byte global sectors those cp.async requests read, counted once per request.",
        "这些 cp.async 请求读取的 32 字节全局内存扇区，每个请求各计一次。",
        .other_metric = "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum" },
    [COUNTER_INSTRUCTIONS] = { "instructions", "smsp__inst_executed.sum",
        "Warp-wide instructions the SMs issued, of every kind: one per instruction per warp. Each of an SM's "
        "four schedulers issues at most one a clock, so a kernel that computes more than it moves is limited here.",
        "各 SM 发出的 warp 级指令，不分种类：每个 warp 每条指令计一次。每个 SM 的四个调度器每个时钟周期最多各发出一条，"
        "所以计算多于数据搬运的核函数受限于此。" },
};

const struct counter_decl derived_terms[] = {
    { "sectors_per_request", "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
      "Sectors touched per warp request: 4 for a warp of aligned, consecutive floats, 32 when every lane "
      "needs a sector of its own. It is the first number to read about coalescing.",
      "每个 warp 请求访问的扇区数：一个 warp 读取对齐且连续的 float 时为 4，每个线程各需一个扇区时为 32。"
      "判断合并访问时，首先看这个数。", NULL, NULL },
    { "ideal", "(derived: bytes asked for / 32, per request)",
      "The fewest sectors per request that could hold the bytes the lanes asked for. Sectors per request "
      "above it are bytes fetched and thrown away.",
      "能容纳各线程所请求字节的最少每请求扇区数。每请求扇区数高于它的部分，就是取来又丢掉的字节。",
      "（推导值：请求的字节数 / 32，按每个请求）", NULL },
    { "useful_fraction", "(derived: bytes asked for / (32 x sectors))",
      "The share of the fetched bytes that the lanes used. 100% is a perfectly coalesced access; 12.5% "
      "is a float per 32-byte sector.",
      "取来的字节中被线程用到的比例。100% 是完全合并访问；12.5% 是每个 32 字节扇区只用一个 float。",
      "（推导值：请求的字节数 / (32 x 扇区数)）", NULL },
};
const int derived_term_count = sizeof derived_terms / sizeof derived_terms[0];

int counter_was_read(const struct counter_values *values, enum counter_id id)
{
    return values->state[id] == COUNTER_READ || values->state[id] == COUNTER_READ_AS_OTHER;
}

const char *counter_metric_read(const struct counter_values *values, enum counter_id id)
{
    return values->state[id] == COUNTER_READ_AS_OTHER ? counter_table[id].other_metric : counter_table[id].metric;
}
