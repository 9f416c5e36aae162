/*
** spmv.c — y = A·x for an n×n CSR matrix with exactly nnz_per_row
** non-zeros in every row. Row r's j-th column is drawn from the j-th of
** nnz_per_row equal strips of the columns, so each row's columns ascend,
** differ (when n >= nnz_per_row), and land anywhere in x[]: an unstructured
** sparse matrix. The structure is a pure function of (n, nnz_per_row, seed);
** the values come from the backend's seed.
*/
#include "model/common.h"
#include "families/indirect.h"
#include "families/spmv.h"

extern const char spmv_kernel_cu[];

enum { SPMV_ROW_PTR, SPMV_COL, SPMV_VAL, SPMV_X, SPMV_Y };
enum { SPMV_MAX_NNZ_PER_ROW = 64 };

/* The scalar variant lists 2 row_ptr loads, 3 loads per non-zero and a store. */
_Static_assert(3 + 3 * SPMV_MAX_NNZ_PER_ROW <= MAX_WARP_ACCESSES, "a CSR row must fit one warp's list");

static const char *const spmv_variants[] = { "scalar", "vector", NULL };

static const struct param_decl spmv_params[] = {
    [PARAM_N] = { .name = "n", .type = PARAM_INT, .fallback = 7LL << 17, .min = 1, .max = 1LL << 24,
      .doc = /* 128 MB of buffers at 16 per row */
      "rows of the matrix, and columns (it is square)",
      .doc_zh = "矩阵的行数，也是列数（方阵）" },
    [PARAM_BLOCK] = { .name = "block", .type = PARAM_INT, .fallback = 256, .min = 32, .max = 1024, .multiple_of = 32,
      .doc = "threads per block",
      .doc_zh = "每个线程块的线程数" },
    [SPMV_VARIANT] = { .name = "variant", .type = PARAM_CHOICE, .fallback = SPMV_SCALAR, .choices = spmv_variants,
      .doc = "\"scalar\": one thread per row; \"vector\": one warp per row",
      .doc_zh = "\"scalar\"：每行一个线程；\"vector\"：每行一个 warp" },
    [SPMV_NNZ_PER_ROW] = { .name = "nnz_per_row", .type = PARAM_INT, .fallback = 16, .min = 1, .max = SPMV_MAX_NNZ_PER_ROW,
      .doc = "non-zeros in every row",
      .doc_zh = "每行的非零元个数" },
    [SPMV_SEED] = { .name = "seed", .type = PARAM_INT, .fallback = 1, .max = (1LL << 31) - 1,
      .doc = "seed of the hash that places the non-zeros (one seed, one matrix, on both backends)",
      .doc_zh = "决定非零元位置的哈希种子（同一种子在两个后端上给出同一个矩阵）" },
};

static const struct buffer_decl spmv_buffers[] = {
    { "row_ptr", BUFFER_IN, 4 },
    { "col", BUFFER_IN, 4 },
    { "val", BUFFER_IN, 4 },
    { "x", BUFFER_IN, 4 },
    { "y", BUFFER_OUT, 4 },
};

static long long spmv_nnz(const struct params *p)
{
    return p->v[PARAM_N] * p->v[SPMV_NNZ_PER_ROW];
}

static void spmv_buffer_elements(const struct params *p, size_t *elements)
{
    size_t rows = (size_t)p->v[PARAM_N];
    elements[SPMV_ROW_PTR] = rows + 1;
    elements[SPMV_COL] = elements[SPMV_VAL] = (size_t)spmv_nnz(p);
    elements[SPMV_X] = elements[SPMV_Y] = rows;
}

/* Each array read once (x once though it is read nnz times) and y written once. */
static uint64_t spmv_useful_bytes(const struct params *p)
{
    uint64_t rows = (uint64_t)p->v[PARAM_N];
    return 4 * ((rows + 1) + 2 * (uint64_t)spmv_nnz(p) + 2 * rows);
}

/* Scalar: a thread per row. Vector: a warp (32 threads) per row. */
static struct launch_shape spmv_shape(const struct params *p)
{
    long long rows = p->v[PARAM_N], block = p->v[PARAM_BLOCK];
    long long threads = p->v[SPMV_VARIANT] == SPMV_VECTOR ? rows * WARP_SIZE : rows;
    struct launch_shape shape = { (threads + block - 1) / block * block, (int)block };
    return shape;
}

/* The columns split into nnz_per_row strips, in order: the first n % k are
   n / k + 1 wide, the rest n / k (with more strips than columns, the extra
   ones hold only the last column). Row r's j-th non-zero is somewhere in
   strip j, so a row's columns ascend. Worked out once per warp. */
struct strips {
    long long n, per_row, narrow, wide_count;
    uint64_t key;   /* indirect_mix(seed), for indirect_hash_keyed */
};

static struct strips spmv_strips(const struct params *p)
{
    long long n = p->v[PARAM_N], per_row = p->v[SPMV_NNZ_PER_ROW];
    struct strips s = { n, per_row, n / per_row, n % per_row, indirect_mix((uint64_t)p->v[SPMV_SEED]) };
    return s;
}

static long long spmv_column(const struct strips *s, long long row, long long j)
{
    long long low = j * s->narrow + (j < s->wide_count ? j : s->wide_count);
    long long width = s->narrow + (j < s->wide_count);
    if (width == 0)
        return s->n - 1;
    uint64_t hash = indirect_hash_keyed(s->key, (uint64_t)(row * s->per_row + j));
    return low + (long long)indirect_below(hash, (uint64_t)width);
}

static void spmv_fill_inputs(const struct params *p, void *const *buffers, uint64_t seed)
{
    int32_t *row_ptr = buffers[SPMV_ROW_PTR], *col = buffers[SPMV_COL];
    float *val = buffers[SPMV_VAL], *x = buffers[SPMV_X];
    long long rows = p->v[PARAM_N], per_row = p->v[SPMV_NNZ_PER_ROW];
    struct strips strips = spmv_strips(p);
    for (long long r = 0; r <= rows; r++)
        row_ptr[r] = (int32_t)(r * per_row);
    for (long long r = 0; r < rows; r++)
        for (long long j = 0; j < per_row; j++)
            col[r * per_row + j] = (int32_t)spmv_column(&strips, r, j);
    for (long long k = 0; k < spmv_nnz(p); k++)
        val[k] = indirect_unit_float(indirect_hash(seed ^ STREAM_VALUES, (uint64_t)k));
    for (long long c = 0; c < rows; c++)
        x[c] = indirect_unit_float(indirect_hash(seed ^ STREAM_VECTOR, (uint64_t)c));
}

/* In double, row by row: the GPU's float sums differ in order, hence the tolerance. */
static void spmv_reference(const struct params *p, void *const *buffers)
{
    const int32_t *row_ptr = buffers[SPMV_ROW_PTR], *col = buffers[SPMV_COL];
    const float *val = buffers[SPMV_VAL], *x = buffers[SPMV_X];
    float *y = buffers[SPMV_Y];
    for (long long r = 0; r < p->v[PARAM_N]; r++) {
        double sum = 0;
        for (int32_t k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            sum += (double)val[k] * (double)x[col[k]];
        y[r] = (float)sum;
    }
}

/* x[col[...]] for the given lanes: each lane's address from its own column. */
static void x_through_columns(struct warp_access *a, const uint64_t *base, const long long *row,
                              const long long *j, int lanes, const struct strips *strips)
{
    a->kind = ACCESS_LOAD;
    a->bytes = 4;
    a->affine = 0;
    a->active = 0;
    for (int lane = 0; lane < lanes; lane++) {
        a->addr[lane] = base[SPMV_X] + 4 * (uint64_t)spmv_column(strips, row[lane], j[lane]);
        a->active |= 1u << lane;
    }
}

/* A thread per row: row_ptr[r], row_ptr[r+1], then per non-zero j (in the
   kernel's order) col[rk+j], x[col], val[rk+j] — lanes a row (k floats) apart —
   and the store of y[r]. */
static int spmv_scalar_accesses(const struct params *p, const uint64_t *base, long long warp,
                                struct warp_access *acc)
{
    long long rows = p->v[PARAM_N], per_row = p->v[SPMV_NNZ_PER_ROW], first = warp * WARP_SIZE;
    long long row[WARP_SIZE], j[WARP_SIZE];
    struct strips strips = spmv_strips(p);
    int lanes = first >= rows ? 0 : rows - first < WARP_SIZE ? (int)(rows - first) : WARP_SIZE, count = 0;
    if (lanes == 0)
        return 0;
    warp_affine(&acc[count++], ACCESS_LOAD, 4, base[SPMV_ROW_PTR] + 4 * (uint64_t)first, 4, lanes);
    warp_affine(&acc[count++], ACCESS_LOAD, 4, base[SPMV_ROW_PTR] + 4 * (uint64_t)(first + 1), 4, lanes);
    for (int lane = 0; lane < lanes; lane++)
        row[lane] = first + lane;
    for (long long k = 0; k < per_row; k++) {
        for (int lane = 0; lane < lanes; lane++)
            j[lane] = k;
        warp_linear(&acc[count++], ACCESS_LOAD, 4, warp, base[SPMV_COL], per_row, k, rows);
        x_through_columns(&acc[count++], base, row, j, lanes, &strips);
        warp_linear(&acc[count++], ACCESS_LOAD, 4, warp, base[SPMV_VAL], per_row, k, rows);
    }
    warp_linear(&acc[count++], ACCESS_STORE, 4, warp, base[SPMV_Y], 1, 0, rows);
    return count;
}

/* A warp per row: every lane loads row_ptr[r] and row_ptr[r+1] (one address
   each); round m's lanes take non-zeros 32m + lane: col, x[col], val; lane 0
   stores y[r]. */
static int spmv_vector_accesses(const struct params *p, const uint64_t *base, long long warp,
                                struct warp_access *acc)
{
    long long per_row = p->v[SPMV_NNZ_PER_ROW], row[WARP_SIZE], j[WARP_SIZE];
    struct strips strips = spmv_strips(p);
    uint64_t first_nonzero = (uint64_t)(warp * per_row);
    int count = 0;
    if (warp >= p->v[PARAM_N])
        return 0;
    warp_affine(&acc[count++], ACCESS_LOAD, 4, base[SPMV_ROW_PTR] + 4 * (uint64_t)warp, 0, WARP_SIZE);
    warp_affine(&acc[count++], ACCESS_LOAD, 4, base[SPMV_ROW_PTR] + 4 * (uint64_t)(warp + 1), 0, WARP_SIZE);
    for (long long round = 0; round * WARP_SIZE < per_row; round++) {
        long long left = per_row - round * WARP_SIZE;
        int lanes = left < WARP_SIZE ? (int)left : WARP_SIZE;
        uint64_t offset = 4 * (first_nonzero + (uint64_t)(round * WARP_SIZE));
        for (int lane = 0; lane < lanes; lane++) {
            row[lane] = warp;
            j[lane] = round * WARP_SIZE + lane;
        }
        warp_affine(&acc[count++], ACCESS_LOAD, 4, base[SPMV_COL] + offset, 4, lanes);
        x_through_columns(&acc[count++], base, row, j, lanes, &strips);
        warp_affine(&acc[count++], ACCESS_LOAD, 4, base[SPMV_VAL] + offset, 4, lanes);
    }
    warp_affine(&acc[count++], ACCESS_STORE, 4, base[SPMV_Y] + 4 * (uint64_t)warp, 0, 1);
    return count;
}

static int spmv_warp_accesses(const struct params *p, const uint64_t *base, long long warp,
                              struct warp_access *acc)
{
    return p->v[SPMV_VARIANT] == SPMV_VECTOR ? spmv_vector_accesses(p, base, warp, acc)
                                             : spmv_scalar_accesses(p, base, warp, acc);
}

/* As spmv_launch: spmv_scalar or spmv_vector(row_ptr, col, val, x, y, n). */
static void spmv_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, spmv_shape(p), "%s", p->v[SPMV_VARIANT] == SPMV_VECTOR ? "spmv_vector" : "spmv_scalar");
    for (int i = 0; i < 5; i++)
        call_buffer(call, i);
    call_value(call, p->v[PARAM_N]);
}

const struct family family_spmv = {
    .name = "spmv",
    .summary = "y = A·x with A in CSR form: a thread per row (scalar) or a warp per row (vector)",
    .teaches = "a thread per row makes neighbouring lanes read col[] and val[] a whole row apart; a warp per "
               "row reads them coalesced, and either way x[col[j]] is a gather the matrix's structure decides",
    .summary_zh = "y = A·x，A 为 CSR 格式：每行一个线程（scalar）或每行一个 warp（vector）",
    .teaches_zh = "每行一个线程时，相邻线程读取 col[] 和 val[] 相隔整整一行；每行一个 warp 时读取是合并的；"
                  "而 x[col[j]] 无论哪种都是由矩阵结构决定的间接读取",
    .params = spmv_params,
    .param_count = COUNT_OF(spmv_params),
    .buffers = spmv_buffers,
    .buffer_count = COUNT_OF(spmv_buffers),
    .element_bytes = four_byte_elements,
    .buffer_elements = spmv_buffer_elements,
    .useful_bytes = spmv_useful_bytes,
    .shape = spmv_shape,
    .reference = spmv_reference,
    .warp_accesses = spmv_warp_accesses,
    .source = spmv_kernel_cu,
    .fill_inputs = spmv_fill_inputs,
    .tolerance = 1e-4,
    .kernel_call = spmv_kernel_call,
    .costs = (const struct warp_cost[]){ { 65.13, 1.8, 3 }, { 40.01, 5.16, 3 } },   /* scalar, vector: row_ptr, then col, then x[col] */
    .cost_by = SPMV_VARIANT,
};
