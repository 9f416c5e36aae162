/*
** unit_model.c — the access model's accounting against hand-computed cases.
*/
#include "model/model.h"
#include "model/registry.h"
#include "model/common.h"
#include "../lib/tap.h"

static struct model_counts run(const char *kernel, long long n, const char *name, long long value)
{
    const struct family *f = family_find(kernel);
    struct params p;
    struct model_counts counts;
    params_defaults(f, &p);
    p.v[PARAM_N] = n;
    if (name)
        p.v[param_index(f, name)] = value;
    model_run(f, &p, &counts, NULL);
    return counts;
}

/* One warp instruction over explicit lane addresses. */
static struct traffic one_access(int bytes, uint32_t active, uint64_t first, uint64_t step)
{
    struct warp_access a = { .kind = ACCESS_LOAD, .bytes = bytes, .active = active };
    struct traffic t = { 0 };
    for (int lane = 0; lane < WARP_SIZE; lane++)
        a.addr[lane] = first + lane * step;
    traffic_add(&t, &a);
    return t;
}

static void test_offset_notes_experiment(void)
{
    /* The H200's counters for the reference notes' offset kernel, n = 2^18. */
    struct model_counts c = run("offset", 262144, "offset", 1);
    is_int(c.load.requests, 16384, "offset=1: 16,384 load requests");
    is_int(c.load.sectors, 81918, "offset=1: 81,918 load sectors (last warp has 31 lanes)");
    is_int(c.store.requests, 8192, "offset=1: 8,192 store requests");
    is_int(c.store.sectors, 32768, "offset=1: 32,768 store sectors");
    ok(per_request(c.load.sectors, c.load.requests) == 5.0, "offset=1: 5.00 sectors per request");
    for (long long offset = 0; offset <= 8; offset++) {
        c = run("offset", 262144, "offset", offset);
        double expected = offset % 8 == 0 ? 4.0 : 5.0;
        char name[64];
        snprintf(name, sizeof name, "offset=%lld: %.2f sectors per request", offset, expected);
        ok(per_request(c.load.sectors, c.load.requests) == expected, name);
    }
}

static void test_strided(void)
{
    static const long long strides[] = { 1, 2, 4, 8, 16, 32, 64 };
    static const long long sectors[] = { 4, 8, 16, 32, 32, 32, 32 };
    for (int i = 0; i < 7; i++) {
        struct model_counts c = run("strided", 4194304, "stride", strides[i]);
        char name[64];
        snprintf(name, sizeof name, "stride %lld: %lld sectors per request", strides[i], sectors[i]);
        is_int(c.load.sectors, sectors[i] * c.load.requests, name);
    }
}

static void test_copy_widths(void)
{
    struct model_counts c = run("copy", 1 << 20, "vec", 1);
    is_int(c.load.sectors / c.load.requests, 4, "copy float: 4 sectors per request");
    c = run("copy", 1 << 20, "vec", 2);
    is_int(c.load.sectors / c.load.requests, 8, "copy float2: 8 sectors per request");
    c = run("copy", 1 << 20, "vec", 4);
    is_int(c.load.sectors / c.load.requests, 16, "copy float4: 16 sectors per request");
    is_int(c.load.lines / c.load.requests, 4, "copy float4: 4 lines per request");
}

static void test_partial_warp(void)
{
    /* n = 100 with blocks of 256: warps 0-2 full, warp 3 has 4 lanes, warps 4-7 idle. */
    struct model_counts c = run("copy", 100, NULL, 0);
    is_int(c.load.requests, 4, "partial warp: idle warps make no request");
    is_int(c.load.sectors, 13, "partial warp: 4 lanes of floats fill one sector");
    is_int(c.load.ideal_sectors, 13, "partial warp: ideal counts only the bytes asked for");
    is_int(c.load.bytes, 400, "partial warp: 400 bytes asked for");
}

static void test_lane_patterns(void)
{
    struct traffic t = one_access(4, 0xffffffffu, 1 << 20, 0);
    is_int(t.sectors, 1, "broadcast: one sector for 32 lanes on one word");
    t = one_access(4, 0xffffffffu, (1 << 20) + 4, 4);
    is_int(t.sectors, 5, "misaligned by one float: 5 sectors");
    t = one_access(8, 0xffffffffu, 1 << 20, 8);
    is_int(t.sectors, 8, "8-byte elements: 8 sectors");
    t = one_access(16, 0xffffffffu, (1 << 20) + 16, 16);
    is_int(t.sectors, 17, "16-byte elements misaligned by 16: 17 sectors");
    t = one_access(4, 0x1u, (1 << 20) + 30, 0);
    is_int(t.sectors, 2, "a word across a sector boundary touches both");
    t = one_access(4, 0x0u, 1 << 20, 4);
    is_int(t.requests, 0, "no active lane: no request");
    t = one_access(4, 0x55555555u, 1 << 20, 4);
    is_int(t.sectors, 4, "every other lane of a contiguous warp: still 4 sectors");
    is_int(t.ideal_sectors, 2, "every other lane: 64 bytes fit 2 sectors");
    t = one_access(4, 0xffffffffu, 1 << 20, 128);
    is_int(t.lines, 32, "a 128-byte stride: a line per lane");
}

/* Whether an affine access counts as its lanes one by one do: global traffic, or shared wavefronts. */
static int fast_equals_slow(const struct warp_access *a)
{
    struct warp_access expanded = *a;
    warp_access_expand(&expanded);
    if (a->kind == ACCESS_SHARED_LOAD) {
        struct shared_traffic fast = { 0 }, slow = { 0 };
        shared_add(&fast, a);
        shared_add(&slow, &expanded);
        return memcmp(&fast, &slow, sizeof fast) == 0;
    }
    struct traffic fast = { 0 }, slow = { 0 };
    traffic_add(&fast, a);
    traffic_add(&slow, &expanded);
    return memcmp(&fast, &slow, sizeof fast) == 0;
}

/* The affine shortcut (remembered counts) agrees with lane-by-lane counting. */
static void test_affine_matches_lanes(void)
{
    static const int64_t steps[] = { 0, 1, 4, 8, 12, 16, 32, 36, 100, 128, 4096 };
    static const int widths[] = { 1, 2, 4, 8, 16 };
    static const int lane_counts[] = { 1, 7, 31, 32 };
    int mismatches = 0, cases = 0;
    for (uint64_t first = 0; first < 256; first += 1)
        for (int s = 0; s < COUNT_OF(steps); s++)
            for (int w = 0; w < COUNT_OF(widths); w++)
                for (int l = 0; l < COUNT_OF(lane_counts); l++) {
                    struct warp_access a = { .kind = ACCESS_LOAD, .bytes = widths[w], .affine = 1,
                                             .first_lane = 32 - lane_counts[l], .lane_count = lane_counts[l],
                                             .first_addr = (1ull << 40) + first, .step = steps[s] };
                    mismatches += !fast_equals_slow(&a);
                    cases++;
                }
    char name[96];
    snprintf(name, sizeof name, "affine shortcut equals lane-by-lane counting in %d cases", cases);
    is_int(mismatches, 0, name);
}

/* Remembered wavefronts of affine shared accesses agree with lane-by-lane
   counting, whatever the first address. Passes 1 and 3 read what passes 0
   and 2 remembered; pass 2 moves the lanes up, which must not find pass 1's. */
static void test_shared_affine_matches_lanes(void)
{
    static const int64_t steps[] = { 0, 4, 8, 12, 16, 32, 64, 128, 132, 256, 512 };
    static const int widths[] = { 4, 8, 16 };
    static const int lane_counts[] = { 1, 5, 16, 17, 32 };
    int mismatches = 0, cases = 0;
    for (int pass = 0; pass < 4; pass++)
        for (uint64_t first = 0; first < 512; first += 4)
            for (int s = 0; s < COUNT_OF(steps); s++)
                for (int w = 0; w < COUNT_OF(widths); w++)
                    for (int l = 0; l < COUNT_OF(lane_counts); l++) {
                        struct warp_access a = { .kind = ACCESS_SHARED_LOAD, .bytes = widths[w], .affine = 1,
                                                 .first_lane = pass / 2 * (32 - lane_counts[l]) / 2,
                                                 .lane_count = lane_counts[l],
                                                 .first_addr = first / widths[w] * widths[w], .step = steps[s] * widths[w] / 4 };
                        mismatches += !fast_equals_slow(&a);
                        cases++;
                    }
    char name[96];
    snprintf(name, sizeof name, "shared: remembered wavefronts equal lane-by-lane counting in %d cases", cases);
    is_int(mismatches, 0, name);
}

/* The cold-L2 DRAM estimate against hand-computed cases (and the H200's
   dram__bytes_read for the same launches, 2026-11-30, in the comments). */
static void test_dram_estimate(void)
{
    struct model_counts c = run("offset", 262144, "offset", 1);
    /* a and b: bytes 4..1048575 each, 16,384 blocks of 64; r's last sector is written in part */
    is_int(c.dram.read_bytes, 2 * 16384 * 64 + 32, "offset=1: two arrays of 64-byte blocks, one write-allocate (H200: 2,097,152)");
    is_int(c.dram.write_allocate_bytes, 32, "offset=1: the last store sector is partial");
    is_int(c.dram.write_bytes, 262144 * 4, "offset=1: every stored sector written once, at most");
    c = run("strided", 4194304, "stride", 16);
    is_int(c.dram.read_bytes, 4194304LL * 64, "stride 16: a 64-byte block per lane (H200: 268,449,792)");
    c = run("strided", 4194304, "stride", 8);
    is_int(c.dram.read_bytes, 4194304LL * 32, "stride 8: every 64-byte block, half used twice (H200: 134,220,800)");
    c = run("copy", 1000, NULL, 0);
    is_int(c.dram.read_bytes, 63 * 64, "copy n=1000: 63 blocks (H200: 4,096)");
    ok(c.dram.estimated, "small launches are tracked");
}

/* The remembered wavefronts of affine shared-memory accesses agree with lane-by-lane counting. */
static void test_affine_shared_matches_lanes(void)
{
    static const int64_t steps[] = { 0, 4, 8, 12, 16, 32, 36, 64, 128, 132, 260, -4, -132 };
    static const int widths[] = { 1, 2, 4, 8, 16 };
    static const int lanes[][2] = { { 0, 32 }, { 0, 7 }, { 5, 16 }, { 16, 16 }, { 31, 1 } };
    int mismatches = 0, cases = 0;
    for (uint64_t first = 4096; first < 4096 + 512; first += 4)
        for (int s = 0; s < COUNT_OF(steps); s++)
            for (int w = 0; w < COUNT_OF(widths); w++)
                for (int l = 0; l < COUNT_OF(lanes); l++) {
                    struct warp_access a = { .kind = ACCESS_SHARED_LOAD, .bytes = widths[w], .affine = 1,
                                             .first_lane = lanes[l][0], .lane_count = lanes[l][1],
                                             .first_addr = first, .step = steps[s] };
                    mismatches += !fast_equals_slow(&a);
                    cases++;
                }
    char name[96];
    snprintf(name, sizeof name, "remembered shared wavefronts equal lane-by-lane counting in %d cases", cases);
    is_int(mismatches, 0, name);
}

/* Write-allocate for a store whose lanes form several runs (a warp over two
   or four rows of a 16- or 8-wide block): only sectors it fills in part are read. */
static uint64_t allocate_bytes(int run_lanes, uint64_t first, uint64_t row_bytes)
{
    size_t bytes[1] = { 1 << 20 };
    struct dram_tracker *t = dram_tracker_new(1, bytes, 0);
    struct dram_estimate d = { 0 };
    struct warp_access a = { .kind = ACCESS_STORE, .bytes = 4, .active = 0xffffffffu };
    for (int lane = 0; lane < WARP_SIZE; lane++)
        a.addr[lane] = (1ull << 40) + first + (uint64_t)(lane / run_lanes) * row_bytes + 4ull * (lane % run_lanes);
    dram_add(t, &d, &a);
    dram_tracker_finish(t, &d);
    dram_tracker_free(t);
    return d.write_allocate_bytes;
}

/* Write-allocate bytes after stores of 4 bytes every 8, one request per
   starting byte in `starts`: the launch as a whole decides what is partial. */
static uint64_t allocate_after_interleaved(const int *starts, int count)
{
    size_t bytes[1] = { 1 << 20 };
    struct dram_tracker *t = dram_tracker_new(1, bytes, 0);
    struct dram_estimate d = { 0 };
    for (int i = 0; i < count; i++) {
        struct warp_access a = { .kind = ACCESS_STORE, .bytes = 4, .affine = 1, .first_lane = 0,
                                 .lane_count = WARP_SIZE, .first_addr = (1ull << 40) + (uint64_t)starts[i],
                                 .step = 8, .active = 0xffffffffu };
        dram_add(t, &d, &a);
    }
    dram_tracker_finish(t, &d);
    dram_tracker_free(t);
    return d.write_allocate_bytes;
}

static void test_write_allocate_runs(void)
{
    int halves[] = { 0, 4 };
    is_int(allocate_after_interleaved(halves, 1), 8 * 32, "4 bytes every 8, alone: its 8 sectors are read first");
    is_int(allocate_after_interleaved(halves, 2), 0, "a second request fills the gaps: the launch wrote them whole, nothing read");
    is_int(allocate_bytes(16, 0, 4096), 0, "two runs of 64 aligned bytes: whole sectors, no write-allocate");
    is_int(allocate_bytes(8, 0, 4096), 0, "four runs of 32 aligned bytes: whole sectors, no write-allocate");
    is_int(allocate_bytes(16, 4, 4096), 4 * 32, "two runs of 64 bytes off by 4: 2 partial sectors each");
    is_int(allocate_bytes(8, 16, 4096), 8 * 32, "four runs of 32 bytes off by 16: 2 partial sectors each");
    is_int(allocate_bytes(16, 0, 32), 0, "two runs that overlap in half: whole sectors still");
}

/* A shared-memory access with explicit lane addresses. */
static int wavefronts_of(int bytes, const uint64_t *addr)
{
    struct warp_access a = { .kind = ACCESS_SHARED_LOAD, .bytes = bytes, .active = 0xffffffffu };
    memcpy(a.addr, addr, sizeof a.addr);
    return shared_wavefronts(&a);
}

static void test_bank_conflicts(void)
{
    uint64_t addr[WARP_SIZE];
    int all_degrees = 1;
    for (int degree = 1; degree <= 32; degree++) {
        /* lanes 0..degree-1 hit distinct words of bank 0; the rest one word each in other banks */
        for (int lane = 0; lane < WARP_SIZE; lane++)
            addr[lane] = lane < degree ? (uint64_t)lane * 128 : (uint64_t)(lane % 31 + 1) * 4 + 4096;
        int got = wavefronts_of(4, addr);
        if (got != degree) {
            printf("#   degree %d gave %d wavefronts\n", degree, got);
            all_degrees = 0;
        }
    }
    ok(all_degrees, "every bank-conflict degree from 1 to 32 gives that many wavefronts");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = 64;
    is_int(wavefronts_of(4, addr), 1, "broadcast: 32 lanes on one word, one wavefront");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = (uint64_t)(lane / 2) * 4;
    is_int(wavefronts_of(4, addr), 1, "pairs of lanes on a word: still one wavefront");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = (uint64_t)lane * 4 * 2;
    is_int(wavefronts_of(4, addr), 2, "stride of 2 words: 2-way conflict");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = (uint64_t)lane * 4 * 33;
    is_int(wavefronts_of(4, addr), 1, "stride of 33 words (a padded column): no conflict");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = (uint64_t)lane * 8;
    is_int(wavefronts_of(8, addr), 2, "consecutive doubles: two half-warp wavefronts");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = (uint64_t)lane * 16;
    is_int(wavefronts_of(16, addr), 4, "consecutive 16-byte elements: four quarter-warp wavefronts");
    is_int(wavefronts_of(8, addr), 4, "the same addresses as doubles two apart: each half-warp 2-way");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = 64;
    is_int(wavefronts_of(16, addr), 2, "one 16-byte address for the warp (a tile row, LDS.128): 2 half-warp wavefronts, as on the H200");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = (uint64_t)(lane / 8) * 32;
    is_int(wavefronts_of(16, addr), 2, "four rows of an 8-wide tile, 8 lanes each: 2 wavefronts, as on the H200");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = (uint64_t)(lane / 2) * 16;
    is_int(wavefronts_of(16, addr), 2, "lane pairs on one 16-byte address: half warps, no conflict");
    for (int lane = 0; lane < WARP_SIZE; lane++)
        addr[lane] = lane == 5 ? 4096 : 64;
    is_int(wavefronts_of(16, addr), 4, "one lane off the shared address: quarter warps again");
    struct shared_traffic t = { 0 };
    struct warp_access a = { .kind = ACCESS_SHARED_STORE, .bytes = 4, .affine = 1, .lane_count = 32,
                             .first_addr = 0, .step = 4 * 32 };
    shared_add(&t, &a);
    is_int(t.wavefronts - t.ideal_wavefronts, 31, "a column of a 32-wide tile: 31 extra wavefronts");
}

/* Strides 1 to 64 floats and misalignments of 1 to 8 floats, against the closed forms. */
static void test_strides_and_offsets(void)
{
    int strides_ok = 1, offsets_ok = 1;
    for (int stride = 1; stride <= 64; stride++) {
        struct traffic t = one_access(4, 0xffffffffu, 1ull << 40, 4ull * stride);
        long long expected = stride >= 8 ? 32 : 4LL * stride;   /* a sector per lane once 8 floats apart */
        strides_ok &= (long long)t.sectors == expected;
    }
    ok(strides_ok, "strides 1..64: 4 x stride sectors, at most 32");
    for (int offset = 1; offset <= 8; offset++) {
        struct traffic t = one_access(4, 0xffffffffu, (1ull << 40) + 4ull * offset, 4);
        offsets_ok &= (long long)t.sectors == (offset % 8 ? 5 : 4);
    }
    ok(offsets_ok, "misaligned by 1..7 floats: 5 sectors; by 8: 4");
}

/* Atomics: per request, the most lanes on one address; over the launch,
   each thread's address map merged, the busiest address and how many. */
static void test_atomics(void)
{
    struct model_counts first = { 0 }, second = { 0 }, launch = { 0 };
    struct warp_access a = { .kind = ACCESS_REDUCTION, .bytes = 4, .active = 0xffffffffu };
    const uint64_t bins = 1ull << 41;
    for (int lane = 0; lane < WARP_SIZE; lane++)
        a.addr[lane] = bins;   /* every lane on one word */
    model_count_access(&first, NULL, &a);
    for (int lane = 0; lane < WARP_SIZE; lane++)
        a.addr[lane] = bins + 4 * (uint64_t)(lane % 2) + 64 * (uint64_t)(lane >= 24);   /* words 0, 1, 16, 17 */
    model_count_access(&second, NULL, &a);
    a.kind = ACCESS_ATOMIC;
    a.active = 0x3;   /* two lanes on words 0 and 1 */
    model_count_access(&second, NULL, &a);
    /* lanes on one address go one pass each, and each pass counts its sectors (the H200's rule) */
    ok(first.reduction.requests == 1 && first.reduction.sectors == 32 && first.reduction.operations == 32 &&
       first.reduction.same_address_lanes == 32, "32 lanes on one word: 1 request, 32 passes of 1 sector, 32 operations");
    ok(second.reduction.sectors == 16 && second.reduction.same_address_lanes == 12 &&
       second.reduction.hottest_sector_requests == 0,
       "lanes over words 0, 1, 16 and 17: 4 passes over 2 sectors, 8 over 1, at most 12 lanes on one address");
    model_counts_add(&launch, &first);
    model_counts_add(&launch, &second);
    model_counts_finish(&launch);
    ok(first.atomic_addresses == NULL && second.atomic_addresses == NULL && launch.atomic_addresses == NULL,
       "the address maps are moved into the launch's and freed when it is finished");
    ok(launch.reduction.requests == 2 && launch.reduction.operations == 64 && launch.reduction.hottest_operations == 44 &&
       launch.reduction.addresses == 4 && launch.reduction.hottest_sector_requests == 2 && !launch.reduction.at_least,
       "merged over threads: word 0 got 32 + 12 reductions, 4 addresses, its sector 2 requests");
    ok(launch.atomic.requests == 1 && launch.atomic.operations == 2 && launch.atomic.hottest_operations == 1 &&
       launch.atomic.addresses == 2, "atomics whose result is used are counted apart from reductions");
    struct model_counts copy = { 0 };
    a.kind = ACCESS_LDGSTS;
    a.active = 0xffffffffu;
    for (int lane = 0; lane < WARP_SIZE; lane++)
        a.addr[lane] = bins + 4 * (uint64_t)lane;
    model_count_access(&copy, NULL, &a);
    ok(copy.ldgsts.requests == 1 && copy.ldgsts.sectors == 4 && copy.load.requests == 1 && copy.shared_store.requests == 0,
       "a cp.async (LDGSTS) is counted as itself and as a load (the H200's op_ld), not as a shared store");
}

/* More distinct addresses than the map holds: requests and operations stay
   exact, and the launch-wide figures say they are lower bounds. */
static void test_atomic_addresses_cap(void)
{
    struct model_counts c = { 0 };
    struct warp_access a = { .kind = ACCESS_ATOMIC, .bytes = 4, .active = 0xffffffffu };
    long long requests = ATOMIC_ADDRESSES_MOST / WARP_SIZE + 1;
    for (long long r = 0; r < requests; r++) {
        for (int lane = 0; lane < WARP_SIZE; lane++)
            a.addr[lane] = (1ull << 40) + 4 * (uint64_t)(r * WARP_SIZE + lane);
        model_count_access(&c, NULL, &a);
    }
    model_counts_finish(&c);
    ok(c.atomic.requests == (uint64_t)requests && c.atomic.operations == (uint64_t)requests * WARP_SIZE && c.atomic.at_least &&
       c.atomic.addresses < (uint64_t)requests * WARP_SIZE && c.atomic.hottest_operations == 1,
       "past the address map's cap: requests and operations exact, the busiest address and the count lower bounds");
}

/* L1: a block's warps hit what another of its warps loaded; another block,
   or a load that skips L1 (ld.global.cg), goes to L2. The estimate is the
   same whether a request comes lane by lane or affine. */
static void test_l1_hits(void)
{
    struct model_counts c = { .l1 = l1_cache_new() };
    struct warp_access a;
    const uint64_t base = 1ull << 40;
    warp_affine(&a, ACCESS_LOAD, 4, base, 4, WARP_SIZE);   /* 4 sectors, 1 line */
    a.block = 0, a.l2_only = 0;
    model_count_access(&c, NULL, &a);
    ok(c.load.l2_sectors == 4 && c.load.l2_lines == 1, "a block's first load: its 4 sectors and 1 line go to L2");
    struct warp_access shifted;
    warp_affine(&shifted, ACCESS_LOAD, 4, base + 4, 4, WARP_SIZE);   /* one float on: 5 sectors, the last one new */
    shifted.block = 0, shifted.l2_only = 0;
    warp_access_expand(&shifted);
    model_count_access(&c, NULL, &shifted);
    ok(c.load.sectors == 9 && c.load.l2_sectors == 5 && c.load.l2_lines == 2,
       "a neighbouring warp of the block, one float on, lane by lane: 1 of its 5 sectors is new to L1");
    a.l2_only = 1;
    model_count_access(&c, NULL, &a);
    ok(c.load.l2_sectors == 9, "the same sectors by ld.global.cg: all 4 go to L2");
    a.l2_only = 0, a.block = 1;
    model_count_access(&c, NULL, &a);
    ok(c.load.l2_sectors == 13 && c.load.l2_lines == 4, "the same sectors in the next block (another SM): all 4 go to L2");
    struct model_counts no_l1 = { 0 };
    model_count_access(&no_l1, NULL, &a);
    model_count_access(&no_l1, NULL, &a);
    ok(no_l1.load.l2_sectors == 8 && no_l1.load.l2_lines == 2, "counted with no L1: every sector goes to L2");
    struct warp_access falling;   /* lanes walking down, two sectors each side of a boundary */
    warp_affine(&falling, ACCESS_LOAD, 16, base + 4096 + 31 * 16, -16, WARP_SIZE);
    falling.block = 2, falling.l2_only = 0;
    model_count_access(&c, NULL, &falling);
    ok(c.load.l2_sectors == 13 + 16 && c.load.l2_lines == 4 + 4, "16-byte lanes walking down: 16 sectors, 4 lines");
    l1_cache_free(c.l1);
}

int main(void)
{
    test_l1_hits();
    test_atomics();
    test_atomic_addresses_cap();
    test_bank_conflicts();
    test_strides_and_offsets();
    test_affine_matches_lanes();
    test_shared_affine_matches_lanes();
    test_dram_estimate();
    test_write_allocate_runs();
    test_affine_shared_matches_lanes();
    test_offset_notes_experiment();
    test_strided();
    test_copy_widths();
    test_partial_warp();
    test_lane_patterns();
    return done();
}
