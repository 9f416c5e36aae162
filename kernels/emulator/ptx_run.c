/*
** ptx_run.c — the PTX emulator's run (ptx.h): a module's kernel
** (ptx_module.h, as ptx_parse.c read it) run over the grid block by block,
** warp by warp. A warp runs its lanes in lock step: each step takes, among
** its live lanes' program counters, the one first in the kernel's
** control-flow order (a reverse postorder of its blocks, order_kernel) and
** runs that instruction for every lane standing there, which reconverges
** divergent paths where they join, as the hardware does, however the
** compiler laid the blocks out. bar.sync parks a warp until every warp of
** its block has arrived or ended. What each instruction does is an
** operation of operations[].
**
** Speed: an instruction works on rows of 32 lanes' values at once, and a
** register whose lanes hold base + lane * step (a parameter, a block's
** offset, a thread's index) is kept as that pair, so most index arithmetic
** and its addresses cost one operation per warp. The small helpers on this
** path are inline: as calls they took a fifth of the time.
*/
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/common.h"
#include "emulator/device_printf.h"
#include "support/threads.h"
#include "emulator/permute.h"
#include "emulator/ptx_module.h"
#include "support/text.h"

/* Threads a run shares its blocks among, at most. */
enum { MAX_RUNNERS = 16 };
/* How often a thread counts its warp-instructions into the launch's and looks for Ctrl-C (a power of 2). */
enum { WARP_INSTRUCTIONS_A_LOOK = 4096 };
/* A block's local memory, all its threads' together, at most this (a budget: a clear error beyond). */
static const uint64_t MAX_BLOCK_LOCAL_BYTES = 256ull << 20;

/* Operations work on rows: an operand's value in every lane of the warp at
   once, computed for all 32 lanes (loops the compiler can vectorise) and
   written back to the lanes that run the instruction. */
typedef uint64_t lane_values[WARP_SIZE];

#define EACH_LANE(i) for (int i = 0; i < WARP_SIZE; i++)
#define EACH(n, i) for (int i = 0; i < (n); i++)
/* Each lane set in lanes, lowest first; safe before an else. Two loops: a
   break in the body would only end the inner one, so none is used there. */
#define FOR_LANES(lanes, i)                                                   \
    for (uint32_t rest_##i = (lanes); rest_##i; rest_##i &= rest_##i - 1)     \
        for (int i = __builtin_ctz(rest_##i), once_##i = 1; once_##i; once_##i = 0)

/* A statement for each lane set in lanes; a whole warp in a plain loop, which the compiler can vectorise. */
#define LANE_LOOP(lanes, i, statement)           \
    do {                                         \
        if ((lanes) == ~0u)                      \
            EACH_LANE(i) statement;              \
        else                                     \
            FOR_LANES(lanes, i) statement;       \
    } while (0)

/* What a block runner keeps of what printf printed: each call's text, with
   its block, in the order they ran; its blocks run in increasing order, so
   the runners' records merge into the grid's block order (merge_printed). */
struct printf_record {
    unsigned long long block;
    size_t start, length;
};

struct printf_log {
    char *text;
    size_t used, capacity;
    struct printf_record *records;
    int count, capacity_records;
    uint64_t lines_kept, lines;   /* newlines in the records kept, and in every call's */
    uint64_t most;                /* lines to keep: none are before the first `most` in the grid's order */
};

/* One call's text at most (a width of a million is cut here). */
enum { PRINTF_CALL_BYTES = 4096 };

struct block {
    const struct ptx_module *m;
    const struct ptx_launch *l;
    const struct kernel *k;
    unsigned ctaid[3];
    unsigned threads;
    unsigned char *shared, *params;
    uint64_t shared_size;      /* static shared memory, then the launch's dynamic bytes */
    unsigned char *local;      /* each thread's local memory, local_stride bytes apart */
    uint64_t local_stride;
    int last_buffer;           /* the global buffer the last lane found: the next lane's likely one */
    void *user;                /* on_access's, this thread's */
    pthread_mutex_t *atomics;  /* held around each atomic update */
    /* With l->sums: the float atomic adds on this block's shared words, and
       how far all their sums may lie from exact, which the block's float
       atomic adds to global memory carry there (tally_shared_sum) */
    struct atomic_sum *shared_sums;
    double shared_rounding;
    /* Each shared word's first warp (1 + its index) to float-add to it, and
       the float adds since by another warp (tell_shared_float_add) */
    unsigned short *float_add_warp;
    uint64_t shared_float_collisions;
    char *why;
    size_t why_size;
    uint64_t lane_instructions;
    uint64_t warp_instructions;          /* this thread's, counted into the launch's a look at a time */
    uint64_t issued;                     /* this thread's, as a GPU issues them (instruction.issued) */
    uint64_t *launch_warp_instructions;  /* the whole launch's, which its budget limits */
    uint64_t block_warp_instructions;    /* this block's, counted a look at a time */
    struct printf_log *printed;          /* this thread's */
};

/* Index arithmetic is mostly the same in every lane (a block's offset, a
   parameter) or one step apart from lane to lane (the thread's index). A
   register holding such values keeps them as base + lane * step, and
   operations on them are done once for the warp instead of 32 times. */
struct affine {
    uint64_t base, step;   /* lane i's bits: base + i * step (mod 2^64); step 0: the same in every lane */
};

struct shape {
    struct affine value;
    unsigned char affine;      /* value gives the register's bits; else its row does */
    unsigned char row_valid;   /* an affine register's row holds them too */
};

struct warp {
    struct block *b;
    int index;
    uint32_t alive;        /* lanes that have not ended */
    int converged;         /* every live lane stands at pc; else lane_pc holds each one's */
    int pc;
    int lane_pc[WARP_SIZE];
    int at_barrier;
    uint64_t *regs;        /* register r's row at regs + r * WARP_SIZE */
    struct shape *shapes;  /* register r's at shapes + r */
};

/* The block's number in the grid, x fastest. */
static long long block_number(const struct block *b)
{
    const unsigned *grid = b->l->grid, *id = b->ctaid;
    return (long long)id[0] + (long long)grid[0] * ((long long)id[1] + (long long)grid[1] * id[2]);
}

/* Hands a to on_access, with the block that ran it (whose L1 it looks in) and its source line. */
static void tell(struct warp *w, struct warp_access *a, const struct instruction *in)
{
    a->block = block_number(w->b);
    a->l2_only = (in->modifiers & MOD_L2_ONLY) != 0;
    a->line = in->source_line;
    w->b->l->on_access(w->b->user, a);
}

/* Whether on_access hears of w's accesses: of every warp's, or of the one warp a warp map wants. */
static int told(const struct warp *w)
{
    const struct ptx_launch *l = w->b->l;
    int per_block = (int)((w->b->threads + WARP_SIZE - 1) / WARP_SIZE);
    return l->on_access && (!l->only_warp || (l->only_warp - 1) % per_block == w->index);
}

static int run_error(struct warp *w, const struct instruction *in, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int run_error(struct warp *w, const struct instruction *in, const char *format, ...)
{
    struct block *b = w->b;
    va_list args;
    int used = in->source_line ? snprintf(b->why, b->why_size, SAY("PTX line %d (source line %d), %s: ", "PTX 第 %d 行（源代码第 %d 行），%s："),
                                          in->ptx_line, in->source_line, in->name)
                               : snprintf(b->why, b->why_size, SAY("PTX line %d, %s: ", "PTX 第 %d 行，%s："), in->ptx_line, in->name);
    va_start(args, format);
    vsnprintf(b->why + used, b->why_size > (size_t)used ? b->why_size - (size_t)used : 0, format, args);
    va_end(args);
    return -1;
}

/* A variable's address in its own space; extern shared memory starts after the running kernel's static. */
static uint64_t symbol_address(const struct block *b, int symbol)
{
    const struct symbol *s = &b->m->symbols[symbol];
    return s->dynamic ? b->k->dynamic_offset : s->offset;
}

static uint64_t *row(const struct warp *w, int r)
{
    return w->regs + (size_t)r * WARP_SIZE;
}

/* How many lanes are set: a whole warp without counting (no popcount instruction is assumed). */
static inline int lane_count(uint32_t lanes)
{
    return lanes == ~0u ? WARP_SIZE : __builtin_popcount(lanes);
}

static inline uint64_t affine_lane(struct affine a, int lane)
{
    return a.base + (uint64_t)lane * a.step;
}

/* A register's row to read, written out from its affine value first when that is newer. */
static inline const uint64_t *read_row(struct warp *w, int r)
{
    struct shape *s = &w->shapes[r];
    uint64_t *d = row(w, r);
    if (s->affine && !s->row_valid) {
        EACH_LANE(i) d[i] = affine_lane(s->value, i);
        s->row_valid = 1;
    }
    return d;
}

/* A register's row to write `lanes` of: the lanes left out keep their values. */
static inline uint64_t *write_row(struct warp *w, int r, uint32_t lanes)
{
    if (lanes != w->alive)
        read_row(w, r);
    w->shapes[r].affine = 0;
    return row(w, r);
}

static uint64_t mask_of(int bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

static int64_t sign_extend(uint64_t bits, int bytes)
{
    if (bytes >= 8)
        return (int64_t)bits;
    uint64_t sign = 1ull << (8 * bytes - 1);
    bits &= mask_of(bytes);
    return (int64_t)((bits ^ sign) - sign);
}


static uint64_t special_value(const struct warp *w, const struct operand *o, int lane)
{
    const struct block *b = w->b;
    const unsigned *block = b->l->block;
    unsigned thread = (unsigned)(w->index * WARP_SIZE + lane);
    switch (o->special) {
    case SPECIAL_TID: return o->dim == 0 ? thread % block[0] : o->dim == 1 ? thread / block[0] % block[1] : thread / (block[0] * block[1]);
    case SPECIAL_NTID: return b->l->block[o->dim];
    case SPECIAL_CTAID: return b->ctaid[o->dim];
    case SPECIAL_NCTAID: return b->l->grid[o->dim];
    case SPECIAL_LANEID: return (uint64_t)lane;
    case SPECIAL_WARPID: return (uint64_t)w->index;
    default: return (b->threads + WARP_SIZE - 1) / WARP_SIZE;
    }
}

/* A register-free operand's bits in one lane, as a value of `type` (values() reads registers). */
static uint64_t get(const struct warp *w, const struct operand *o, int lane, struct value_type type)
{
    switch (o->kind) {
    case OPERAND_IMMEDIATE:   /* a float written 0f3F800000 is its bits already */
        return o->imm_is_float ? float_bits(o->fimm, type) : (uint64_t)o->imm;
    case OPERAND_SPECIAL:
        return special_value(w, o, lane);
    case OPERAND_SYMBOL:   /* a variable's address in its own space */
        return symbol_address(w->b, o->symbol);
    default:
        return 0;
    }
}

/* An operand as an affine value, when it is one: immediates, symbols and the
   block's and grid's sizes are the same in every lane; %tid.x steps by one
   across a warp when blocks are whole warps wide, and %laneid always. */
static inline int affine_operand(struct warp *w, const struct operand *o, struct value_type type, struct affine *a)
{
    switch (o->kind) {
    case OPERAND_REGISTER: {
        const struct shape *s = &w->shapes[o->reg];
        if (!s->affine || (o->negate && s->value.step))
            return 0;
        *a = o->negate ? (struct affine){ !s->value.base, 0 } : s->value;
        return 1;
    }
    case OPERAND_IMMEDIATE:
    case OPERAND_SYMBOL:
        *a = (struct affine){ get(w, o, 0, type), 0 };
        return 1;
    case OPERAND_SPECIAL:
        if (o->special == SPECIAL_LANEID)
            *a = (struct affine){ 0, 1 };
        else if (o->special != SPECIAL_TID)
            *a = (struct affine){ special_value(w, o, 0), 0 };
        else if (w->b->l->block[0] % WARP_SIZE == 0)
            *a = (struct affine){ special_value(w, o, 0), o->dim == 0 };
        else
            return 0;
        return 1;
    default:
        return 0;
    }
}

/* An operand's bits in every lane: a register's own row, or scratch filled. */
static inline const uint64_t *values(struct warp *w, const struct operand *o, struct value_type type, uint64_t *scratch)
{
    struct affine a;
    if (o->kind == OPERAND_REGISTER && !o->negate)
        return read_row(w, o->reg);
    if (o->kind == OPERAND_REGISTER) {
        const uint64_t *r = read_row(w, o->reg);
        EACH_LANE(i) scratch[i] = !r[i];
    } else if (affine_operand(w, o, type, &a)) {
        EACH_LANE(i) scratch[i] = affine_lane(a, i);
    } else {
        EACH_LANE(i) scratch[i] = get(w, o, i, type);
    }
    return scratch;
}

/* Writes v into the lanes of register r, cut to type's width (a predicate: 0 or 1). */
static inline void put_register(struct warp *w, int r, const uint64_t *v, uint32_t lanes, struct value_type type)
{
    uint64_t *d = write_row(w, r, lanes);
    uint64_t mask = mask_of(type.bytes);
    if (type.kind == KIND_PREDICATE)
        LANE_LOOP(lanes, i, d[i] = v[i] != 0);
    else
        LANE_LOOP(lanes, i, d[i] = v[i] & mask);
}

/* The same into an instruction's destination operand (none when it is not a register). */
static inline void put(struct warp *w, const struct operand *o, const uint64_t *v, uint32_t lanes, struct value_type type)
{
    if (o->kind == OPERAND_REGISTER)
        put_register(w, o->reg, v, lanes, type);
}

/* Whether lanes 0 to 31 of a stay within 0 .. mask without wrapping: then they are the values a row would hold. */
static inline int affine_fits(struct affine a, uint64_t mask)
{
    __int128 last = (__int128)a.base + 31 * (__int128)(int64_t)a.step;
    return mask == ~0ull || (a.base <= mask && last >= 0 && last <= (__int128)mask);
}

/* Writes an affine result into register r for every live lane: kept affine
   when its values fit the type's width (uniform ones are cut to it), else written out. */
static inline void put_affine_register(struct warp *w, int r, struct affine a, struct value_type type)
{
    int predicate = type.kind == KIND_PREDICATE;
    uint64_t mask = predicate ? 1 : mask_of(type.bytes);
    if (a.step == 0)
        a.base = predicate ? a.base != 0 : a.base & mask;
    if ((predicate && a.step) || !affine_fits(a, mask)) {
        uint64_t *d = write_row(w, r, ~0u);
        EACH_LANE(i) d[i] = predicate ? affine_lane(a, i) != 0 : affine_lane(a, i) & mask;
        return;
    }
    w->shapes[r] = (struct shape){ a, 1, 0 };
}

static inline void put_affine(struct warp *w, const struct operand *o, struct affine a, struct value_type type)
{
    if (o->kind == OPERAND_REGISTER)
        put_affine_register(w, o->reg, a, type);
}

/* An affine value of a given width read as its type reads it: unsigned as
   it is, signed widened with its sign; 0 when the lanes are not all one
   affine run at that width (some wrap, or cross the sign). */
static int widen(struct affine *a, struct value_type t)
{
    uint64_t mask = mask_of(t.bytes);
    if (!affine_fits(*a, mask))
        return 0;
    if (t.kind != KIND_SIGNED || t.bytes >= 8)
        return 1;
    uint64_t sign = 1ull << (8 * t.bytes - 1), last = affine_lane(*a, WARP_SIZE - 1);
    if ((a->base & sign) != (last & sign))
        return 0;
    a->base = (uint64_t)sign_extend(a->base, t.bytes);
    return 1;
}

static int check_operands(struct warp *w, const struct instruction *in, int count)
{
    if (in->operand_count != count)
        return run_error(w, in, "%d operands expected, got %d", count, in->operand_count);
    return 0;
}

/* --- arithmetic --------------------------------------------------------- */

enum arith { ADD, SUB, MUL, MIN, MAX, DIV, REM, AND, OR, XOR, SHL, SHR };

static uint64_t integer_op(enum arith op, struct value_type t, uint64_t a, uint64_t b, int modifiers)
{
    int is_signed = t.kind == KIND_SIGNED;
    int64_t sa = sign_extend(a, t.bytes), sb = sign_extend(b, t.bytes);
    uint64_t ua = a & mask_of(t.bytes), ub = b & mask_of(t.bytes);
    switch (op) {
    case ADD: return ua + ub;
    case SUB: return ua - ub;
    case MUL:
        if (modifiers & MOD_WIDE)
            return is_signed ? (uint64_t)(sa * sb) : ua * ub;
        if (modifiers & MOD_HI) {
            if (t.bytes == 8)
                return is_signed ? (uint64_t)(((__int128)sa * sb) >> 64) : (uint64_t)(((unsigned __int128)ua * ub) >> 64);
            return is_signed ? (uint64_t)((sa * sb) >> (8 * t.bytes)) : (ua * ub) >> (8 * t.bytes);
        }
        return ua * ub;
    case MIN: return is_signed ? (uint64_t)(sa < sb ? sa : sb) : ua < ub ? ua : ub;
    case MAX: return is_signed ? (uint64_t)(sa > sb ? sa : sb) : ua > ub ? ua : ub;
    case DIV:   /* the hardware's answers where C's division is undefined */
        if (is_signed)
            return sb == 0 ? ~0ull : sb == -1 ? 0 - (uint64_t)sa : (uint64_t)(sa / sb);
        return ub == 0 ? ~0ull : ua / ub;
    case REM:
        if (is_signed)
            return sb == 0 ? (uint64_t)sa : sb == -1 ? 0 : (uint64_t)(sa % sb);
        return ub == 0 ? ua : ua % ub;
    case AND: return a & b;
    case OR: return a | b;
    case XOR: return a ^ b;
    case SHL: return (uint32_t)b >= (uint32_t)(8 * t.bytes) ? 0 : ua << (uint32_t)b;   /* the amount: an unsigned 32-bit value */
    case SHR:
        if (is_signed)
            return (uint64_t)(sa >> ((uint32_t)b >= (uint32_t)(8 * t.bytes) ? 8 * t.bytes - 1 : (int)(uint32_t)b));
        return (uint32_t)b >= (uint32_t)(8 * t.bytes) ? 0 : ua >> (uint32_t)b;
    }
    return 0;
}

/* An integer operation in every lane; the common ones in loops of their own.
   Bits above the type's width never reach the low ones that put keeps. */
static inline void integer_values(enum arith op, struct value_type t, int modifiers, const uint64_t *a, const uint64_t *b,
                           uint64_t *out, int n)
{
    uint64_t mask = mask_of(t.bytes), width = 8u * (uint64_t)t.bytes;
    if (op == MUL && (modifiers & MOD_WIDE)) {
        if (t.kind == KIND_SIGNED)
            EACH(n, i) out[i] = (uint64_t)(sign_extend(a[i], t.bytes) * sign_extend(b[i], t.bytes));
        else
            EACH(n, i) out[i] = (a[i] & mask) * (b[i] & mask);
        return;
    }
    switch (modifiers & MOD_HI ? SHR + 1 : (int)op) {
    case ADD: EACH(n, i) out[i] = a[i] + b[i]; return;
    case SUB: EACH(n, i) out[i] = a[i] - b[i]; return;
    case MUL: EACH(n, i) out[i] = a[i] * b[i]; return;
    case AND: EACH(n, i) out[i] = a[i] & b[i]; return;
    case OR: EACH(n, i) out[i] = a[i] | b[i]; return;
    case XOR: EACH(n, i) out[i] = a[i] ^ b[i]; return;
    case SHL: EACH(n, i) out[i] = (uint32_t)b[i] >= width ? 0 : (a[i] & mask) << (uint32_t)b[i]; return;
    case SHR:
        if (t.kind == KIND_SIGNED)
            EACH(n, i) out[i] = (uint64_t)(sign_extend(a[i], t.bytes) >> ((uint32_t)b[i] >= width ? width - 1 : (uint32_t)b[i]));
        else
            EACH(n, i) out[i] = (uint32_t)b[i] >= width ? 0 : (a[i] & mask) >> (uint32_t)b[i];
        return;
    default: EACH(n, i) out[i] = integer_op(op, t, a[i], b[i], modifiers);
    }
}

/* A float operation in every lane, in the type's own precision. */
static void float_values(enum arith op, struct value_type t, const uint64_t *a, const uint64_t *b, uint64_t *out, int n)
{
    if (t.bytes == 4) {
        switch (op) {
        case ADD: EACH(n, i) out[i] = f32_bits(f32(a[i]) + f32(b[i])); return;
        case SUB: EACH(n, i) out[i] = f32_bits(f32(a[i]) - f32(b[i])); return;
        case MUL: EACH(n, i) out[i] = f32_bits(f32(a[i]) * f32(b[i])); return;
        case DIV: EACH(n, i) out[i] = f32_bits(f32(a[i]) / f32(b[i])); return;
        case MIN: EACH(n, i) out[i] = f32_bits(fminf(f32(a[i]), f32(b[i]))); return;
        default: EACH(n, i) out[i] = f32_bits(fmaxf(f32(a[i]), f32(b[i]))); return;
        }
    }
    switch (op) {
    case ADD: EACH(n, i) out[i] = f64_bits(f64(a[i]) + f64(b[i])); return;
    case SUB: EACH(n, i) out[i] = f64_bits(f64(a[i]) - f64(b[i])); return;
    case MUL: EACH(n, i) out[i] = f64_bits(f64(a[i]) * f64(b[i])); return;
    case DIV: EACH(n, i) out[i] = f64_bits(f64(a[i]) / f64(b[i])); return;
    case MIN: EACH(n, i) out[i] = f64_bits(fmin(f64(a[i]), f64(b[i]))); return;
    default: EACH(n, i) out[i] = f64_bits(fmax(f64(a[i]), f64(b[i]))); return;
    }
}

/* The result type: .wide doubles the width. */
static struct value_type result_type(const struct instruction *in)
{
    struct value_type t = in->type;
    if (in->modifiers & MOD_WIDE)
        t.bytes *= 2;
    return t;
}

/* A float result's bits clamped to [0, 1], NaN to 0: what .sat makes of it. */
static uint64_t saturated_float(uint64_t bits, struct value_type t)
{
    double v = float_of_bits(bits, t);
    return float_bits(!(v > 0) ? 0.0 : v > 1 ? 1.0 : v, t);
}

/* An integer clamped to the range of type t: what cvt.sat and add.sat.s32 make of a value too wide for it. */
static uint64_t saturated_integer(__int128 v, struct value_type t)
{
    int bits = 8 * t.bytes;
    __int128 low = t.kind == KIND_SIGNED ? -((__int128)1 << (bits - 1)) : 0;
    __int128 high = t.kind == KIND_SIGNED ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    return (uint64_t)(v < low ? low : v > high ? high : v);
}

/* A value of type t as a wide integer: signed ones with their sign. */
static __int128 wide_value(uint64_t bits, struct value_type t)
{
    return t.kind == KIND_SIGNED ? (__int128)sign_extend(bits, t.bytes) : (__int128)(bits & mask_of(t.bytes));
}

/* .sat: add and sub of s32 clamp to its range, float results to [0, 1]. */
static void saturated_values(enum arith op, struct value_type t, const uint64_t *a, const uint64_t *b, uint64_t *out, int n)
{
    if (t.kind == KIND_FLOAT) {
        EACH(n, i) out[i] = saturated_float(out[i], t);
        return;
    }
    if (op == ADD || op == SUB)
        EACH(n, i) out[i] = saturated_integer(op == ADD ? wide_value(a[i], t) + wide_value(b[i], t)
                                                        : wide_value(a[i], t) - wide_value(b[i], t), t);
}

/* One operation on n lanes' values, of any type. */
static inline void lane_op(enum arith op, struct value_type t, int modifiers, const uint64_t *a, const uint64_t *b, uint64_t *out,
                    int n)
{
    if (modifiers & MOD_SAT) {
        lane_op(op, t, modifiers & ~MOD_SAT, a, b, out, n);
        saturated_values(op, t, a, b, out, n);
    } else if (t.kind == KIND_FLOAT) {
        float_values(op, t, a, b, out, n);
    } else if (t.kind == KIND_PREDICATE) {
        EACH(n, i) out[i] = integer_op(op, (struct value_type){ KIND_BITS, 1 }, a[i], b[i], 0);
    } else {
        integer_values(op, t, modifiers, a, b, out, n);
    }
}

/* An operation on affine values, when its result is affine too: any
   operation on uniform values; integer sums and differences; products and
   left shifts by a uniform value. 0 when it is not. */
static inline int affine_result(enum arith op, struct value_type t, int modifiers, struct affine a, struct affine b, struct affine *r)
{
    if (a.step == 0 && b.step == 0) {
        uint64_t out;
        lane_op(op, t, modifiers, &a.base, &b.base, &out, 1);
        *r = (struct affine){ out, 0 };
        return 1;
    }
    if (t.kind == KIND_FLOAT || t.kind == KIND_PREDICATE || (modifiers & MOD_SAT))
        return 0;
    uint64_t shift = (uint32_t)b.base;
    switch (op) {
    case ADD: *r = (struct affine){ a.base + b.base, a.step + b.step }; return 1;
    case SUB: *r = (struct affine){ a.base - b.base, a.step - b.step }; return 1;
    case MUL:
        if ((modifiers & MOD_HI) || (a.step && b.step) || ((modifiers & MOD_WIDE) && !(widen(&a, t) && widen(&b, t))))
            return 0;
        *r = a.step ? (struct affine){ a.base * b.base, a.step * b.base } : (struct affine){ a.base * b.base, a.base * b.step };
        return 1;
    case SHL:
        if (b.step)
            return 0;
        *r = shift >= 8u * (uint64_t)t.bytes ? (struct affine){ 0, 0 } : (struct affine){ a.base << shift, a.step << shift };
        return 1;
    default:
        return 0;
    }
}

static int binary(struct warp *w, const struct instruction *in, uint32_t lanes, enum arith op)
{
    if (check_operands(w, in, 3))
        return -1;
    const struct operand *o = in->operands;
    struct value_type t = in->type, r = t.kind == KIND_PREDICATE ? t : result_type(in);
    if (t.kind == KIND_FLOAT && (op >= REM))
        return run_error(w, in, "not defined on floats");
    struct value_type shift_type = (op == SHL || op == SHR) ? (struct value_type){ KIND_UNSIGNED, 4 } : t;
    struct affine a, b, result;
    if (lanes == w->alive && affine_operand(w, &o[1], t, &a) && affine_operand(w, &o[2], shift_type, &b) &&
        affine_result(op, t, in->modifiers, a, b, &result)) {
        put_affine(w, &o[0], result, r);
        return 0;
    }
    lane_values first, second, out;
    lane_op(op, t, in->modifiers, values(w, &o[1], t, first), values(w, &o[2], shift_type, second), out, WARP_SIZE);
    put(w, &o[0], out, lanes, r);
    return 0;
}

static int op_add(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, ADD); }
static int op_sub(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, SUB); }
static int op_mul(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, MUL); }
static int op_min(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, MIN); }
static int op_max(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, MAX); }
static int op_div(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, DIV); }
static int op_rem(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, REM); }
static int op_and(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, AND); }
static int op_or(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, OR); }
static int op_xor(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, XOR); }
static int op_shl(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, SHL); }
static int op_shr(struct warp *w, const struct instruction *in, uint32_t lanes) { return binary(w, in, lanes, SHR); }

/* a * b + c in n lanes: fused for floats, .lo/.hi/.wide as mul's for integers. */
static void mad_values(const struct instruction *in, const uint64_t *a, const uint64_t *b, const uint64_t *c, uint64_t *out,
                       int n)
{
    struct value_type t = in->type;
    if (t.kind == KIND_FLOAT && t.bytes == 4) {
        EACH(n, i) out[i] = f32_bits(fmaf(f32(a[i]), f32(b[i]), f32(c[i])));
    } else if (t.kind == KIND_FLOAT) {
        EACH(n, i) out[i] = f64_bits(fma(f64(a[i]), f64(b[i]), f64(c[i])));
    } else {
        integer_values(MUL, t, in->modifiers, a, b, out, n);
        EACH(n, i) out[i] += c[i];
    }
    if (t.kind == KIND_FLOAT && (in->modifiers & MOD_SAT))
        EACH(n, i) out[i] = saturated_float(out[i], t);
}

/* mad and fma: a * b + c. */
static int op_mad(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 4))
        return -1;
    if ((in->modifiers & MOD_SAT) && in->type.kind != KIND_FLOAT)
        return run_error(w, in, ".sat on an integer mad is not emulated yet");
    const struct operand *o = in->operands;
    struct value_type t = in->type, r = result_type(in);
    struct affine a, b, c, product, sum;
    if (lanes == w->alive && affine_operand(w, &o[1], t, &a) && affine_operand(w, &o[2], t, &b) &&
        affine_operand(w, &o[3], r, &c)) {
        if (a.step == 0 && b.step == 0 && c.step == 0) {
            mad_values(in, &a.base, &b.base, &c.base, &sum.base, 1);
            put_affine(w, &o[0], (struct affine){ sum.base, 0 }, r);
            return 0;
        }
        if (t.kind != KIND_FLOAT && affine_result(MUL, t, in->modifiers, a, b, &product) &&
            affine_result(ADD, r, 0, product, c, &sum)) {
            put_affine(w, &o[0], sum, r);
            return 0;
        }
    }
    lane_values first, second, third, out;
    mad_values(in, values(w, &o[1], t, first), values(w, &o[2], t, second), values(w, &o[3], r, third), out, WARP_SIZE);
    put(w, &o[0], out, lanes, r);
    return 0;
}

enum unary_op { NEG, ABS, NOT, RCP, SQRT };

static uint64_t unary_value(enum unary_op which, struct value_type t, uint64_t bits)
{
    if (t.kind == KIND_FLOAT && t.bytes == 4) {   /* .rn: the float of the exact value; .approx is taken as exact */
        float a = f32(bits);
        return f32_bits(which == NEG ? -a : which == ABS ? fabsf(a) : which == RCP ? 1.0f / a : sqrtf(a));
    }
    if (t.kind == KIND_FLOAT) {
        double a = f64(bits);
        return f64_bits(which == NEG ? -a : which == ABS ? fabs(a) : which == RCP ? 1.0 / a : sqrt(a));
    }
    if (which == NOT)
        return t.kind == KIND_PREDICATE ? !bits : ~bits;
    int64_t a = sign_extend(bits, t.bytes);
    return (uint64_t)(which == NEG ? 0 - (uint64_t)a : a < 0 ? 0 - (uint64_t)a : (uint64_t)a);
}

static int unary(struct warp *w, const struct instruction *in, uint32_t lanes, enum unary_op which)
{
    if (check_operands(w, in, 2))
        return -1;
    if (in->type.kind != KIND_FLOAT && which >= RCP)
        return run_error(w, in, "defined on floats only");
    struct affine a;
    if (lanes == w->alive && affine_operand(w, &in->operands[1], in->type, &a) && a.step == 0) {
        put_affine(w, &in->operands[0], (struct affine){ unary_value(which, in->type, a.base), 0 }, in->type);
        return 0;
    }
    lane_values scratch, out;
    const uint64_t *v = values(w, &in->operands[1], in->type, scratch);
    EACH_LANE(i) out[i] = unary_value(which, in->type, v[i]);
    put(w, &in->operands[0], out, lanes, in->type);
    return 0;
}

static int op_neg(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, NEG); }
static int op_abs(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, ABS); }
static int op_not(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, NOT); }

/* --- bits ----------------------------------------------------------------- */

/* popc and clz: a value's set bits, its leading zero bits (all of them for 0); the result is a .u32. */
static int count_bits(struct warp *w, const struct instruction *in, uint32_t lanes, int leading)
{
    if (check_operands(w, in, 2))
        return -1;
    int bits = 8 * in->type.bytes;
    lane_values scratch, out;
    const uint64_t *a = values(w, &in->operands[1], in->type, scratch);
    EACH_LANE(i) {
        uint64_t v = a[i] & mask_of(in->type.bytes);
        out[i] = leading ? (v == 0 ? (uint64_t)bits : (uint64_t)(__builtin_clzll(v) - (64 - bits))) : (uint64_t)__builtin_popcountll(v);
    }
    put(w, &in->operands[0], out, lanes, (struct value_type){ KIND_UNSIGNED, 4 });
    return 0;
}

static int op_popc(struct warp *w, const struct instruction *in, uint32_t lanes) { return count_bits(w, in, lanes, 0); }
static int op_clz(struct warp *w, const struct instruction *in, uint32_t lanes) { return count_bits(w, in, lanes, 1); }

/* bfe.TYPE d, a, pos, len: len bits of a from bit pos; a signed type widens them with the last one taken. */
static uint64_t bit_field(struct value_type t, uint64_t a, uint64_t pos, uint64_t len)
{
    int msb = 8 * t.bytes - 1;
    pos &= 0xff, len &= 0xff;
    uint64_t sign = 0, d = 0;
    if (t.kind == KIND_SIGNED && len != 0) {
        uint64_t top = pos + len - 1 < (uint64_t)msb ? pos + len - 1 : (uint64_t)msb;
        sign = a >> top & 1;
    }
    for (int i = 0; i <= msb; i++)
        d |= ((uint64_t)i < len && pos + (uint64_t)i <= (uint64_t)msb ? a >> (pos + (uint64_t)i) & 1 : sign) << i;
    return d;
}

static int op_bfe(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 4))
        return -1;
    const struct operand *o = in->operands;
    struct value_type u32 = { KIND_UNSIGNED, 4 };
    lane_values first, second, third, out;
    const uint64_t *a = values(w, &o[1], in->type, first), *pos = values(w, &o[2], u32, second), *len = values(w, &o[3], u32, third);
    EACH_LANE(i) out[i] = bit_field(in->type, a[i], pos[i], len[i]);
    put(w, &o[0], out, lanes, in->type);
    return 0;
}

/* bfi.TYPE d, a, b, pos, len: b with len bits of a put in from bit pos. */
static int op_bfi(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 5))
        return -1;
    const struct operand *o = in->operands;
    struct value_type u32 = { KIND_UNSIGNED, 4 };
    int msb = 8 * in->type.bytes - 1;
    lane_values first, second, third, fourth, out;
    const uint64_t *a = values(w, &o[1], in->type, first), *b = values(w, &o[2], in->type, second),
                   *pos = values(w, &o[3], u32, third), *len = values(w, &o[4], u32, fourth);
    EACH_LANE(i) {
        uint64_t d = b[i], at = pos[i] & 0xff, count = len[i] & 0xff;
        for (uint64_t k = 0; k < count && at + k <= (uint64_t)msb; k++)
            d = (d & ~(1ull << (at + k))) | ((a[i] >> k & 1) << (at + k));
        out[i] = d;
    }
    put(w, &o[0], out, lanes, in->type);
    return 0;
}
/* prmt.b32{.mode} d, a, b, c: four bytes picked from b:a by c. */
static int op_prmt(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 4))
        return -1;
    const struct operand *o = in->operands;
    struct value_type u32 = { KIND_UNSIGNED, 4 };
    lane_values first, second, third, out;
    const uint64_t *a = values(w, &o[1], u32, first), *b = values(w, &o[2], u32, second), *c = values(w, &o[3], u32, third);
    enum permute_mode mode = in->mode >= PRMT_F4E ? (enum permute_mode)(in->mode - PRMT_F4E + PERMUTE_F4E) : PERMUTE_GENERIC;
    EACH_LANE(i) out[i] = permute(mode, (uint32_t)a[i], (uint32_t)b[i], (uint32_t)c[i]);
    put(w, &o[0], out, lanes, u32);
    return 0;
}

static int op_rcp(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, RCP); }
static int op_sqrt(struct warp *w, const struct instruction *in, uint32_t lanes) { return unary(w, in, lanes, SQRT); }

/* mov.b64 {lo, hi}, d and back: a wide value split into its parts or put together. */
static void move_parts(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    const struct operand *o = in->operands, *vector = o[0].kind == OPERAND_VECTOR ? &o[0] : &o[1];
    int part = in->type.bytes / vector->count;
    lane_values scratch, out = { 0 };
    if (o[0].kind == OPERAND_VECTOR) {
        const uint64_t *whole = values(w, &o[1], in->type, scratch);
        for (int k = 0; k < vector->count; k++) {
            uint64_t *d = write_row(w, vector->regs[k], lanes);
            FOR_LANES(lanes, i) d[i] = (whole[i] >> (8 * part * k)) & mask_of(part);
        }
        return;
    }
    for (int k = 0; k < vector->count; k++) {
        const uint64_t *p = read_row(w, vector->regs[k]);
        EACH_LANE(i) out[i] |= (p[i] & mask_of(part)) << (8 * part * k);
    }
    put(w, &o[0], out, lanes, in->type);
}

static int op_mov(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 2))
        return -1;
    const struct operand *o = in->operands;
    if (o[0].kind == OPERAND_VECTOR || o[1].kind == OPERAND_VECTOR) {
        move_parts(w, in, lanes);
        return 0;
    }
    struct affine a;
    if (lanes == w->alive && affine_operand(w, &o[1], in->type, &a)) {
        put_affine(w, &o[0], a, in->type);
        return 0;
    }
    lane_values scratch;
    put(w, &o[0], values(w, &o[1], in->type, scratch), lanes, in->type);
    return 0;
}

/* shfl.sync.MODE.b32 d[|p], a, b, c, membermask: each lane reads a from lane j
   of its segment (c packs the clamp and the segment mask), or keeps its own
   when j is out of range; p says whether j was in range. */
static int op_shfl(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (in->operand_count < 4)
        return run_error(w, in, "4 or 5 operands expected");
    const struct operand *o = in->operands;
    struct value_type t = { KIND_BITS, 4 };
    lane_values first, second, third, out = { 0 }, in_range = { 0 };
    const uint64_t *source = values(w, &o[1], t, first), *lane_b = values(w, &o[2], t, second),
                   *lane_c = values(w, &o[3], t, third);
    FOR_LANES(lanes, lane) {
        int b = (int)(lane_b[lane] & 0x1f), c = (int)lane_c[lane];
        int clamp = c & 0x1f, segment = (c >> 8) & 0x1f;
        int max_lane = (lane & segment) | (clamp & ~segment), min_lane = lane & segment, j;
        switch (in->mode) {
        case SHFL_UP: j = lane - b; in_range[lane] = j >= max_lane; break;
        case SHFL_DOWN: j = lane + b; in_range[lane] = j <= max_lane; break;
        case SHFL_BFLY: j = lane ^ b; in_range[lane] = j <= max_lane; break;
        case SHFL_IDX: j = min_lane | (b & ~segment); in_range[lane] = j <= max_lane; break;
        default: return run_error(w, in, "a mode (idx, up, down, bfly) expected");
        }
        out[lane] = source[in_range[lane] ? j : lane];
    }
    put(w, &o[0], out, lanes, t);
    if (o[0].predicate >= 0)
        put_register(w, o[0].predicate, in_range, lanes, (struct value_type){ KIND_PREDICATE, 1 });
    return 0;
}

/* vote.sync.MODE d, a, membermask: the lanes' predicates a, gathered. */
static int op_vote(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 3))
        return -1;
    const struct operand *o = in->operands;
    struct value_type predicate = { KIND_PREDICATE, 1 }, bits = { KIND_BITS, 4 };
    lane_values first, second, out = { 0 };
    const uint64_t *a = values(w, &o[1], predicate, first), *member_mask = values(w, &o[2], bits, second);
    uint32_t yes = 0;
    FOR_LANES(lanes, i) yes |= (uint32_t)(a[i] != 0) << i;
    FOR_LANES(lanes, i) {
        uint32_t members = (uint32_t)member_mask[i] & lanes;
        switch (in->mode) {
        case VOTE_BALLOT: out[i] = yes & members; break;
        case VOTE_ANY: out[i] = (yes & members) != 0; break;
        case VOTE_ALL: out[i] = (yes & members) == members; break;
        case VOTE_UNI: out[i] = (yes & members) == 0 || (yes & members) == members; break;
        default: return run_error(w, in, "a mode (ballot, any, all, uni) expected");
        }
    }
    put(w, &o[0], out, lanes, in->mode == VOTE_BALLOT ? bits : predicate);
    return 0;
}

/* activemask.b32 d: the lanes running this instruction. */
static int op_activemask(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 1))
        return -1;
    lane_values out;
    EACH_LANE(i) out[i] = lanes;
    put(w, &in->operands[0], out, lanes, (struct value_type){ KIND_BITS, 4 });
    return 0;
}

static int compare_floats(enum compare c, double fa, double fb)
{
    int unordered = isnan(fa) || isnan(fb);
    switch (c) {
    case CMP_EQ: return !unordered && fa == fb;
    case CMP_NE: return !unordered && fa != fb;
    case CMP_LT: return !unordered && fa < fb;
    case CMP_LE: return !unordered && fa <= fb;
    case CMP_GT: return !unordered && fa > fb;
    case CMP_GE: return !unordered && fa >= fb;
    case CMP_EQU: return unordered || fa == fb;
    case CMP_NEU: return unordered || fa != fb;
    case CMP_LTU: return unordered || fa < fb;
    case CMP_LEU: return unordered || fa <= fb;
    case CMP_GTU: return unordered || fa > fb;
    case CMP_GEU: return unordered || fa >= fb;
    case CMP_NUM: return !unordered;
    case CMP_NAN: return unordered;
    default: return 0;
    }
}

/* Integer comparisons in n lanes: signed ones on the values widened with
   their sign, the others (and .lo, .ls, .hi, .hs) on the values as unsigned. */
#define COMPARE_LANES(key)                                                       \
    switch (c) {                                                                 \
    case CMP_EQ: EACH(n, i) out[i] = key(a[i]) == key(b[i]); return;            \
    case CMP_NE: EACH(n, i) out[i] = key(a[i]) != key(b[i]); return;            \
    case CMP_LT: case CMP_LO: EACH(n, i) out[i] = key(a[i]) < key(b[i]); return;  \
    case CMP_LE: case CMP_LS: EACH(n, i) out[i] = key(a[i]) <= key(b[i]); return; \
    case CMP_GT: case CMP_HI: EACH(n, i) out[i] = key(a[i]) > key(b[i]); return;  \
    case CMP_GE: case CMP_HS: EACH(n, i) out[i] = key(a[i]) >= key(b[i]); return; \
    default: EACH(n, i) out[i] = 0; return;                                      \
    }

static void compare_integers(enum compare c, struct value_type t, const uint64_t *a, const uint64_t *b, uint64_t *out,
                             int n)
{
    uint64_t mask = mask_of(t.bytes);
    int bytes = t.bytes;
#define SIGNED_KEY(v) sign_extend(v, bytes)
#define UNSIGNED_KEY(v) ((v) & mask)
    if (t.kind == KIND_SIGNED && c >= CMP_LT && c <= CMP_GE)
        COMPARE_LANES(SIGNED_KEY)
    else
        COMPARE_LANES(UNSIGNED_KEY)
#undef SIGNED_KEY
#undef UNSIGNED_KEY
}

/* Comparisons in n lanes. */
static void compare_values(const struct instruction *in, const uint64_t *a, const uint64_t *b, uint64_t *out, int n)
{
    struct value_type t = in->type;
    if (t.kind == KIND_FLOAT)
        EACH(n, i) out[i] = (uint64_t)compare_floats(in->compare, float_of_bits(a[i], t), float_of_bits(b[i], t));
    else
        compare_integers(in->compare, t, a, b, out, n);
}

/* setp.CMP.TYPE p[|q], a, b: q, when given, is the complement. */
static int op_setp(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 3))
        return -1;
    const struct operand *o = in->operands;
    int q = o[0].predicate;   /* setp p|q's q, or -1 */
    struct value_type t = in->type, predicate = { KIND_PREDICATE, 1 };
    struct affine a, b;
    if (lanes == w->alive && affine_operand(w, &o[1], t, &a) && affine_operand(w, &o[2], t, &b) && !a.step && !b.step) {
        uint64_t holds;
        compare_values(in, &a.base, &b.base, &holds, 1);
        put_affine(w, &o[0], (struct affine){ holds, 0 }, predicate);
        if (q >= 0)
            put_affine_register(w, q, (struct affine){ !holds, 0 }, predicate);
        return 0;
    }
    lane_values first, second, out;
    compare_values(in, values(w, &o[1], t, first), values(w, &o[2], t, second), out, WARP_SIZE);
    put(w, &o[0], out, lanes, predicate);
    if (q >= 0) {
        EACH_LANE(i) out[i] = !out[i];
        put_register(w, q, out, lanes, predicate);
    }
    return 0;
}

/* selp.TYPE d, a, b, p: a where p, else b. */
static int op_selp(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 4))
        return -1;
    const struct operand *o = in->operands;
    struct value_type predicate = { KIND_PREDICATE, 1 };
    struct affine p, chosen;
    if (lanes == w->alive && affine_operand(w, &o[3], predicate, &p) && !p.step &&
        affine_operand(w, &o[p.base ? 1 : 2], in->type, &chosen)) {
        put_affine(w, &o[0], chosen, in->type);
        return 0;
    }
    lane_values first, second, third, out;
    const uint64_t *a = values(w, &o[1], in->type, first), *b = values(w, &o[2], in->type, second),
                   *pv = values(w, &o[3], predicate, third);
    EACH_LANE(i) out[i] = pv[i] ? a[i] : b[i];
    put(w, &o[0], out, lanes, in->type);
    return 0;
}

static double round_to_integer(double v, int modifiers)
{
    if (modifiers & MOD_RNI)
        return nearbyint(v);
    if (modifiers & MOD_RMI)
        return floor(v);
    if (modifiers & MOD_RPI)
        return ceil(v);
    return trunc(v);
}

/* One value converted: widths, signs, and integers to and from floats (saturating, NaN to 0). */
static uint64_t convert(struct value_type to, struct value_type from, int modifiers, uint64_t bits)
{
    if (from.kind == KIND_FLOAT && to.kind == KIND_FLOAT)   /* .rni .rzi .rmi .rpi: to an integral value */
        return float_bits(modifiers & (MOD_RNI | MOD_RZI | MOD_RMI | MOD_RPI) ? round_to_integer(float_of_bits(bits, from), modifiers)
                                                                            : float_of_bits(bits, from), to);
    if (from.kind == KIND_FLOAT) {
        double v = round_to_integer(float_of_bits(bits, from), modifiers);
        if (isnan(v))
            return 0;
        if (to.kind == KIND_SIGNED) {
            double most = ldexp(1.0, 8 * to.bytes - 1);
            return (uint64_t)(int64_t)(v >= most ? most - 1 : v < -most ? -most : v);
        }
        double most = ldexp(1.0, 8 * to.bytes);
        return v <= 0 ? 0 : v >= most ? mask_of(to.bytes) : (uint64_t)v;
    }
    if (to.kind == KIND_FLOAT)
        return float_bits(from.kind == KIND_SIGNED ? (double)sign_extend(bits, from.bytes) : (double)(bits & mask_of(from.bytes)), to);
    return from.kind == KIND_SIGNED ? (uint64_t)sign_extend(bits, from.bytes) : bits & mask_of(from.bytes);
}

/* cvt.DTYPE.STYPE d, a; integer to integer, the usual kind, in a loop of its own. */
static int op_cvt(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 2))
        return -1;
    struct value_type to = in->type, from = in->source_type;
    int integers = from.kind != KIND_FLOAT && to.kind != KIND_FLOAT, saturate = (in->modifiers & MOD_SAT) != 0;
    struct affine v;
    if (lanes == w->alive && !saturate && affine_operand(w, &in->operands[1], from, &v) &&
        (v.step == 0 || (integers && widen(&v, from)))) {
        put_affine(w, &in->operands[0], v.step ? v : (struct affine){ convert(to, from, in->modifiers, v.base), 0 }, to);
        return 0;
    }
    lane_values scratch, out;
    const uint64_t *a = values(w, &in->operands[1], from, scratch);
    if (integers && saturate)   /* .sat: clamped to the destination's range */
        EACH_LANE(i) out[i] = saturated_integer(wide_value(a[i], from), to);
    else if (integers && from.kind == KIND_SIGNED)
        EACH_LANE(i) out[i] = (uint64_t)sign_extend(a[i], from.bytes);
    else if (integers)
        EACH_LANE(i) out[i] = a[i] & mask_of(from.bytes);
    else
        EACH_LANE(i) out[i] = convert(to, from, in->modifiers, a[i]);
    if (saturate && to.kind == KIND_FLOAT)   /* .sat: to [0, 1] */
        EACH_LANE(i) out[i] = saturated_float(out[i], to);
    put(w, &in->operands[0], out, lanes, to);
    return 0;
}

/* cvta.to.SPACE / cvta.SPACE: between generic addresses and a space's own. */
static int op_cvta(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    if (check_operands(w, in, 2))
        return -1;
    uint64_t window = in->space == SPACE_SHARED ? SHARED_WINDOW : in->space == SPACE_LOCAL ? LOCAL_WINDOW : 0;
    uint64_t shift = in->modifiers & MOD_TO ? 0 - window : window;
    struct affine a;
    if (lanes == w->alive && affine_operand(w, &in->operands[1], in->type, &a)) {
        put_affine(w, &in->operands[0], (struct affine){ a.base + shift, a.step }, in->type);
        return 0;
    }
    lane_values scratch, out;
    const uint64_t *v = values(w, &in->operands[1], in->type, scratch);
    EACH_LANE(i) out[i] = v[i] + shift;
    put(w, &in->operands[0], out, lanes, in->type);
    return 0;
}

/* --- memory ------------------------------------------------------------- */

/* Every lane's address: base register or symbol, plus offset, in the instruction's space. */
static void addresses(struct warp *w, const struct operand *o, uint64_t *out)
{
    uint64_t offset = (uint64_t)o->imm;
    if (o->reg >= 0) {
        const uint64_t *base = read_row(w, o->reg);
        EACH_LANE(i) out[i] = base[i] + offset;
        return;
    }
    uint64_t same = (o->symbol >= 0 ? symbol_address(w->b, o->symbol) : 0) + offset;
    EACH_LANE(i) out[i] = same;
}

/* The global buffer holding [address, address + bytes), trying the last one found first; NULL if none. */
static unsigned char *global_at(struct block *b, uint64_t address, uint64_t bytes)
{
    const struct ptx_launch *l = b->l;
    for (int k = -1; k < l->buffer_count; k++) {
        int i = k < 0 ? b->last_buffer : k;
        const struct ptx_buffer *buffer = &l->buffers[i];
        if (i < l->buffer_count && address >= buffer->address && address + bytes <= buffer->address + buffer->bytes) {
            b->last_buffer = i;
            return (unsigned char *)buffer->data + (address - buffer->address);
        }
    }
    return NULL;
}

/* A generic address's space: shared memory's window, or global. */
static enum space resolve_space(enum space space, uint64_t address)
{
    return space != SPACE_GENERIC ? space : address >= LOCAL_WINDOW ? SPACE_LOCAL : address >= SHARED_WINDOW ? SPACE_SHARED : SPACE_GLOBAL;
}

/* Where a lane's bytes are: global memory in a buffer, shared memory in the
   block's, parameters in the parameter block; NULL when outside all. */
static unsigned char *memory_at(struct block *b, enum space space, uint64_t address, uint64_t bytes)
{
    if (space == SPACE_SHARED && address >= SHARED_WINDOW)
        address -= SHARED_WINDOW;
    switch (space) {
    case SPACE_SHARED:
        return address + bytes <= b->shared_size ? b->shared + address : NULL;
    case SPACE_PARAM:
        return address + bytes <= b->k->param_bytes ? b->params + address : NULL;
    case SPACE_CONST:
        return address + bytes <= b->m->constant_bytes ? b->m->constant + address : NULL;
    case SPACE_GLOBAL:
        return global_at(b, address, bytes);
    default:
        return NULL;
    }
}

/* The address the accounting sees: shared addresses as offsets in the block's shared memory. */
static uint64_t counted_address(enum space space, uint64_t address)
{
    return space == SPACE_SHARED && address >= SHARED_WINDOW ? address - SHARED_WINDOW : address;
}

/* How far outside its nearest named buffer a global address of an access
   of `bytes` lies, as the kernel's code would index it: " (a[104] of a's
   64 elements: 41 beyond its last)", or "" when no buffer is near (within
   the buffer's own size again) or none has a name. */
static void nearest_buffer(const struct ptx_launch *l, uint64_t address, uint64_t bytes, char *text, size_t size)
{
    text[0] = '\0';
    for (int i = 0; i < l->buffer_count && bytes > 0; i++) {
        const struct ptx_buffer *b = &l->buffers[i];
        uint64_t end = b->address + b->bytes;
        unsigned long long before = address < b->address ? (b->address - address + bytes - 1) / bytes : 0,
                           beyond = address >= end ? (address - end) / bytes + 1 : 0;
        if (!b->name || (before == 0 && beyond == 0) || (before ? before * bytes : beyond * bytes) > b->bytes + bytes)
            continue;   /* unnamed, inside it, or farther from it than its own size */
        if (beyond)
            snprintf(text, size, SAY(" (%s[%llu] of %s's %llu elements: %llu beyond its last)", "（%s[%llu]，%s 共 %llu 个元素：越过最后一个 %llu 个）"),
                     b->name, (unsigned long long)((address - b->address) / bytes), b->name,
                     (unsigned long long)(b->bytes / bytes), beyond);
        else
            snprintf(text, size, SAY(" (%s[-%llu]: %llu elements before %s's first)", "（%1$s[-%2$llu]：在 %4$s 的第一个元素之前 %3$llu 个）"),
                     b->name, before, before, b->name);
        return;
    }
}

/* An access at an address in no buffer: which kernel, what it did where
   (as an element of the buffer it missed, when one is near), and which
   lane; an address far below every buffer (they start at 2^40) is most
   likely a null pointer's. */
static int outside(struct warp *w, const struct instruction *in, int lane, const char *what, enum space space,
                   uint64_t address, uint64_t bytes)
{
    const char *hint = address >= STRINGS_WINDOW && address < SHARED_WINDOW
                         ? SAY(" (a __device__ variable or a string literal: the emulator reads neither yet)",
                               "（__device__ 变量或字符串字面量：模拟器还不能读取它们）") : "";
    char text[512];
    struct emulator_lane at = { w->b->k->name, lane, w->index, { w->b->ctaid[0], w->b->ctaid[1], w->b->ctaid[2] } };
    emulator_outside(w->b->l, &at, what, space_names[space], address, bytes, hint, text, sizeof text);
    return run_error(w, in, "%s", text);
}

void emulator_outside(const struct ptx_launch *l, const struct emulator_lane *at, const char *what, const char *space,
                      uint64_t address, uint64_t bytes, const char *hint, char *text, size_t size)
{
    char near[160] = "";
    if (address < (1ull << 32))
        hint = SAY(" (a null pointer?)", "（空指针？）");
    if (strcmp(space, "global") == 0)
        nearest_buffer(l, address, bytes, near, sizeof near);
    snprintf(text, size, SAY("kernel '%s' %s %s address 0x%llx, which is in no buffer%s%s; lane %d of warp %d of block (%u, %u, %u)",
                             "核函数 '%1$s' %2$s %3$s 地址 0x%4$llx，该地址不在任何缓冲区中%5$s%6$s；block (%9$u, %10$u, %11$u) 的 warp %8$d 的 lane %7$d"),
             at->kernel, what, space, (unsigned long long)address, near, hint, at->lane, at->warp, at->block[0], at->block[1],
             at->block[2]);
}

static const char *stored_or_loaded(int store)
{
    return store ? SAY("stored to", "写入") : SAY("loaded from", "读取");
}

/* The register of element k of a load's or store's value: {a, b, c, d} or one register. */
static int element_register(const struct operand *value, int k)
{
    return value->kind == OPERAND_VECTOR ? value->regs[k] : value->reg;
}

/* An element's bits at p, and back: copies of fixed sizes, each one move. */
static uint64_t load_bits(const unsigned char *p, int bytes)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (bytes) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    case 4: memcpy(&b4, p, 4); return b4;
    default: memcpy(&b8, p, 8); return b8;
    }
}

static void store_bits(unsigned char *p, uint64_t bits, int bytes)
{
    uint8_t b1 = (uint8_t)bits;
    uint16_t b2 = (uint16_t)bits;
    uint32_t b4 = (uint32_t)bits;
    switch (bytes) {
    case 1: memcpy(p, &b1, 1); return;
    case 2: memcpy(p, &b2, 2); return;
    case 4: memcpy(p, &b4, 4); return;
    default: memcpy(p, &bits, 8); return;
    }
}

/* Each lane's element at base + its affine address, and back: the element size chosen once, not lane by lane. */
#define BY_ELEMENT_SIZE(element, size, statement) \
    switch (element) {                            \
    case 1: { enum { size = 1 }; statement; } break; \
    case 2: { enum { size = 2 }; statement; } break; \
    case 4: { enum { size = 4 }; statement; } break; \
    default: { enum { size = 8 }; statement; } break; \
    }

static void load_lanes(const unsigned char *base, struct affine at, int element, uint32_t lanes, uint64_t *out)
{
    BY_ELEMENT_SIZE(element, size, LANE_LOOP(lanes, i, out[i] = load_bits(base + affine_lane(at, i), size)))
}

static void store_lanes(unsigned char *base, struct affine at, int element, uint32_t lanes, const uint64_t *v)
{
    BY_ELEMENT_SIZE(element, size, LANE_LOOP(lanes, i, store_bits(base + affine_lane(at, i), v[i], size)))
}

/* Copies each lane's element(s) between its memory and its value registers;
   a load's signed elements are widened with their sign. */
static void move_elements(struct warp *w, const struct instruction *in, const struct operand *value,
                          unsigned char *const *memory, uint32_t lanes, int store)
{
    int element = in->type.bytes;
    lane_values scratch;
    for (int k = 0; k < in->vector; k++) {
        if (store) {
            const uint64_t *v = value->kind == OPERAND_VECTOR ? read_row(w, value->regs[k]) : values(w, value, in->type, scratch);
            FOR_LANES(lanes, i) store_bits(memory[i] + k * element, v[i], element);
            continue;
        }
        if (value->kind != OPERAND_VECTOR && value->kind != OPERAND_REGISTER)
            continue;
        uint64_t *d = write_row(w, element_register(value, k), lanes);
        if (in->type.kind == KIND_SIGNED)
            FOR_LANES(lanes, i) d[i] = (uint64_t)sign_extend(load_bits(memory[i] + k * element, element), element);
        else
            FOR_LANES(lanes, i) d[i] = load_bits(memory[i] + k * element, element);
    }
}

/* A lane's local memory at offset (from its thread's first byte), or NULL past its end. */
static unsigned char *lane_local(const struct warp *w, int lane, uint64_t offset, uint64_t bytes)
{
    if (offset > w->b->k->local_bytes || bytes > w->b->k->local_bytes - offset)
        return NULL;
    return w->b->local + (uint64_t)(w->index * WARP_SIZE + lane) * w->b->local_stride + offset;
}

/* Each active lane's memory for [at, at + bytes) in one space; -1 with why when a lane's is outside every buffer.
   Lanes within one buffer, the usual case, are placed without a search each. */
static int place_lanes(struct warp *w, const struct instruction *in, enum space space, const uint64_t *at, uint64_t bytes,
                       uint32_t lanes, int store, unsigned char **memory)
{
    uint64_t low = ~0ull, high = 0;
    FOR_LANES(lanes, i) {
        low = at[i] < low ? at[i] : low;
        high = at[i] > high ? at[i] : high;
    }
    if (space == SPACE_LOCAL) {   /* each lane in its own thread's local memory */
        FOR_LANES(lanes, i)
            if (!(memory[i] = lane_local(w, i, at[i] >= LOCAL_WINDOW ? at[i] - LOCAL_WINDOW : at[i], bytes)))
                return outside(w, in, i, stored_or_loaded(store), space, at[i], bytes);
        return 0;
    }
    unsigned char *first = memory_at(w->b, space, low, high - low + bytes);
    if (first && high - low < (1ull << 40)) {
        FOR_LANES(lanes, i) memory[i] = first + (at[i] - low);
        return 0;
    }
    FOR_LANES(lanes, i)
        if (!(memory[i] = memory_at(w->b, space, at[i], bytes)))
            return outside(w, in, i, stored_or_loaded(store), space, at[i], bytes);
    return 0;
}

/* The access a warp's lanes make at affine addresses: affine itself when the lanes are one run. */
static void affine_access(struct warp_access *a, enum access_kind kind, int bytes, struct affine at, uint32_t lanes)
{
    int first = __builtin_ctz(lanes), count = lane_count(lanes);
    a->kind = kind;   /* not a whole initialiser: that would clear addr[] every time */
    a->bytes = bytes;
    if (lanes >> first == (count == WARP_SIZE ? ~0u : (1u << count) - 1)) {
        a->affine = 1;
        a->first_lane = first;
        a->lane_count = count;
        a->first_addr = affine_lane(at, first);
        a->step = (int64_t)at.step;
        return;
    }
    a->affine = 0;
    a->active = lanes;
    EACH_LANE(i) a->addr[i] = lanes >> i & 1 ? affine_lane(at, i) : 0;
}

static enum access_kind access_kind(enum space space, int store)
{
    return space == SPACE_CONST ? ACCESS_CONSTANT_LOAD
         : space == SPACE_SHARED ? (store ? ACCESS_SHARED_STORE : ACCESS_SHARED_LOAD)
         : store ? ACCESS_STORE : ACCESS_LOAD;
}

static int check_space(struct warp *w, const struct instruction *in, enum space space, int store)
{
    if (space == SPACE_CONST && store)
        return run_error(w, in, "a store to constant memory");
    return 0;
}

/* ld and st at affine addresses whose lanes all fall within one buffer: no
   lane is searched for, and a uniform address loads once for the warp.
   0 when done; 1 when the lanes are not so placed (memory_op's lane by lane
   path then finds the one outside, or the mixed spaces); -1 on an error. */
static int affine_memory_op(struct warp *w, const struct instruction *in, uint32_t lanes, int store, struct affine at)
{
    const struct operand *value = &in->operands[store ? 1 : 0];
    int element = in->type.bytes;
    uint64_t bytes = (uint64_t)(element * in->vector);
    uint64_t ends[2] = { affine_lane(at, __builtin_ctz(lanes)), affine_lane(at, 31 - __builtin_clz(lanes)) };
    uint64_t low = ends[0] < ends[1] ? ends[0] : ends[1], high = ends[0] ^ ends[1] ^ low;
    enum space space = resolve_space(in->space, low);
    int64_t step = (int64_t)at.step;
    if (resolve_space(in->space, high) != space || high - low >= (1ull << 40) || step >= (1ll << 35) || step <= -(1ll << 35))
        return 1;   /* steps that small cannot wrap past 2^64 between the ends unseen */
    if (check_space(w, in, space, store))
        return -1;
    unsigned char *first = space == SPACE_LOCAL ? NULL : memory_at(w->b, space, low, high - low + bytes);
    if (!first)
        return 1;   /* local memory is each lane's own: placed lane by lane */
    first -= low;   /* lane i's bytes: first + its address */
    lane_values scratch, out;
    for (int k = 0; k < in->vector; k++) {
        uint64_t offset = (uint64_t)(k * element);
        if (store) {
            const uint64_t *v = value->kind == OPERAND_VECTOR ? read_row(w, value->regs[k]) : values(w, value, in->type, scratch);
            store_lanes(first + offset, at, element, lanes, v);
            continue;
        }
        if (value->kind != OPERAND_VECTOR && value->kind != OPERAND_REGISTER)
            continue;
        int target = element_register(value, k);
        struct value_type loaded = { in->type.kind, 8 };
        if (at.step == 0 && lanes == w->alive) {
            uint64_t bits = load_bits(first + at.base + offset, element);
            put_affine_register(w, target, (struct affine){ in->type.kind == KIND_SIGNED ? (uint64_t)sign_extend(bits, element) : bits, 0 }, loaded);
            continue;
        }
        load_lanes(first + offset, at, element, lanes, out);
        if (in->type.kind == KIND_SIGNED)
            FOR_LANES(lanes, i) out[i] = (uint64_t)sign_extend(out[i], element);
        put_register(w, target, out, lanes, loaded);
    }
    if (space == SPACE_PARAM || !told(w))
        return 0;
    struct warp_access a;
    if (space == SPACE_SHARED && low >= SHARED_WINDOW)
        at.base -= SHARED_WINDOW;
    affine_access(&a, access_kind(space, store), (int)bytes, at, lanes);
    tell(w, &a, in);
    return 0;
}

/* ld or st by the lanes whose addresses are in space: each lane's element(s),
   and the access handed to on_access. */
static int space_access(struct warp *w, const struct instruction *in, enum space space, const uint64_t *where,
                        uint32_t lanes, int store)
{
    const struct operand *value = &in->operands[store ? 1 : 0];
    uint64_t bytes = (uint64_t)(in->type.bytes * in->vector);
    lane_values counted;
    unsigned char *memory[WARP_SIZE];
    if (check_space(w, in, space, store) || place_lanes(w, in, space, where, bytes, lanes, store, memory))
        return -1;
    move_elements(w, in, value, memory, lanes, store);
    if (space == SPACE_PARAM || space == SPACE_LOCAL || !told(w))   /* local traffic: not modelled (docs/model.md) */
        return 0;
    FOR_LANES(lanes, i) counted[i] = counted_address(space, where[i]);
    struct warp_access a;
    access_from_lanes(&a, access_kind(space, store), (int)bytes, counted, lanes);
    tell(w, &a, in);
    return 0;
}

/* ld and st: at affine addresses when they are, else lane by lane, each space's lanes apart. */
static int memory_op(struct warp *w, const struct instruction *in, uint32_t lanes, int store)
{
    if (check_operands(w, in, 2))
        return -1;
    const struct operand *address = &in->operands[store ? 0 : 1];
    if (address->kind != OPERAND_ADDRESS)
        return run_error(w, in, "an address [..] expected");
    struct affine at = { (uint64_t)address->imm + (address->symbol >= 0 ? symbol_address(w->b, address->symbol) : 0), 0 };
    const struct shape *base = address->reg >= 0 ? &w->shapes[address->reg] : NULL;
    if (!base || base->affine) {
        if (base)
            at = (struct affine){ at.base + base->value.base, base->value.step };
        int placed = affine_memory_op(w, in, lanes, store, at);
        if (placed <= 0)
            return placed;
    }
    lane_values where;
    uint32_t in_space[SPACE_LOCAL + 1] = { 0 };   /* a generic access's lanes may fall in different spaces */
    addresses(w, address, where);
    FOR_LANES(lanes, i) in_space[resolve_space(in->space, where[i])] |= 1u << i;
    for (int space = 0; space <= SPACE_LOCAL; space++)
        if (in_space[space] && space_access(w, in, (enum space)space, where, in_space[space], store))
            return -1;
    return 0;
}

static int op_ld(struct warp *w, const struct instruction *in, uint32_t lanes) { return memory_op(w, in, lanes, 0); }
static int op_st(struct warp *w, const struct instruction *in, uint32_t lanes) { return memory_op(w, in, lanes, 1); }

/* One atomic update of a value of type t: the new value, from the old one, b and (cas) c. */
static uint64_t atomic_update(enum mode mode, struct value_type t, uint64_t old, uint64_t b, uint64_t c)
{
    double fold = t.kind == KIND_FLOAT ? float_of_bits(old, t) : 0, fb = t.kind == KIND_FLOAT ? float_of_bits(b, t) : 0;
    switch (mode) {
    case ATOM_ADD: return t.kind == KIND_FLOAT ? float_bits(fold + fb, t) : old + b;
    case ATOM_MIN: return t.kind == KIND_FLOAT ? float_bits(fmin(fold, fb), t) : integer_op(MIN, t, old, b, 0);
    case ATOM_MAX: return t.kind == KIND_FLOAT ? float_bits(fmax(fold, fb), t) : integer_op(MAX, t, old, b, 0);
    case ATOM_EXCH: return b;
    case ATOM_CAS: return (old & mask_of(t.bytes)) == (b & mask_of(t.bytes)) ? c : old;
    case ATOM_AND: return old & b;
    case ATOM_OR: return old | b;
    case ATOM_XOR: return old ^ b;
    case ATOM_INC: return (old & mask_of(t.bytes)) >= (b & mask_of(t.bytes)) ? 0 : old + 1;
    case ATOM_DEC: return (old & mask_of(t.bytes)) == 0 || (old & mask_of(t.bytes)) > (b & mask_of(t.bytes)) ? b : old - 1;
    default: return old;
    }
}

/* A float atomic add on global memory, tallied in the launch's sums (the
   caller holds the atomics' lock; global_at has just found the buffer). Its
   term carries the rounding of the block's shared float sums so far: it may
   be one of them (a block's sum, added to the total by one thread), and the
   emulator cannot tell which. 0, or -1 when memory is short. */
static int tally_sum(struct block *b, struct value_type t, uint64_t address, uint64_t old, uint64_t term)
{
    const struct ptx_buffer *buffer = &b->l->buffers[b->last_buffer];
    return atomic_sums_add(b->l->sums, b->last_buffer, buffer->bytes, (size_t)(address - buffer->address), t.bytes,
                           float_of_bits(old, t), float_of_bits(term, t), b->shared_rounding);
}

/* A float atomic add on the block's shared memory: its word's sum grows,
   and with it the block's shared rounding (tally_sum). 0, or -1 when memory is short. */
static int tally_shared_sum(struct block *b, struct value_type t, uint64_t address, uint64_t old, uint64_t term)
{
    if (!b->shared_sums && !(b->shared_sums = calloc(b->shared_size / 4 + 1, sizeof *b->shared_sums)))
        return -1;
    struct atomic_sum *sum = &b->shared_sums[counted_address(SPACE_SHARED, address) / 4];
    b->shared_rounding -= atomic_sum_rounding(sum);
    atomic_sum_add(sum, t.bytes, float_of_bits(old, t), float_of_bits(term, t));
    b->shared_rounding += atomic_sum_rounding(sum);
    return 0;
}

static int is_float_add(const struct instruction *in)
{
    return in->mode == ATOM_ADD && in->type.kind == KIND_FLOAT;
}

/* Counts a float add on a shared word that another warp of the block
   float-added to first (tell_shared_float_add). 0, or -1 when memory is short. */
static int note_shared_float_add(struct warp *w, const struct instruction *in, enum space space, uint64_t address)
{
    struct block *b = w->b;
    if (space != SPACE_SHARED || !is_float_add(in))
        return 0;
    if (!b->float_add_warp && !(b->float_add_warp = calloc(b->shared_size / 4 + 1, sizeof *b->float_add_warp)))
        return -1;
    unsigned short *first = &b->float_add_warp[counted_address(SPACE_SHARED, address) / 4];
    *first = *first ? *first : (unsigned short)(w->index + 1);
    b->shared_float_collisions += *first != w->index + 1;
    return 0;
}

/* Tallies an atomic update when it is a float add and the launch keeps sums. 0, or -1 when memory is short. */
static int tally(struct block *b, const struct instruction *in, enum space space, uint64_t address, uint64_t old,
                 uint64_t term)
{
    if (!b->l->sums || !is_float_add(in))
        return 0;
    return space == SPACE_SHARED ? tally_shared_sum(b, in->type, address, old, term) : tally_sum(b, in->type, address, old, term);
}

/* The lanes of `lanes` that win a compare-and-swap trip: the first on each word. */
static uint32_t swap_winners(const uint64_t *word, uint32_t lanes)
{
    uint32_t winners = 0, seen = 0;
    FOR_LANES(lanes, i) {
        int taken = 0;
        FOR_LANES(seen, j)
            taken = taken || word[j] == word[i];
        winners |= taken ? 0 : 1u << i;
        seen |= 1u << i;
    }
    return winners;
}

/* A float add on shared memory is a compare-and-swap loop on the GPU (sm_90
   has no ATOMS.ADD.F32): each trip loads the word (LDS) and tries the swap
   (ATOMS.CAST), and one lane of each word wins. Told trip by trip. This is
   the least the GPU does: warps of a block that collide on a word retry
   again, as their timing falls (measured on the H200: docs/model.md). */
static void tell_shared_float_add(struct warp *w, const struct instruction *in, const uint64_t *word, uint32_t lanes)
{
    struct warp_access a;
    while (lanes) {
        access_from_lanes(&a, ACCESS_SHARED_LOAD, in->type.bytes, word, lanes);
        tell(w, &a, in);
        access_from_lanes(&a, ACCESS_SHARED_ATOMIC, in->type.bytes, word, lanes);
        tell(w, &a, in);
        lanes &= ~swap_winners(word, lanes);
    }
}

/* An atom or red, told to on_access: its lanes on global memory as an
   atomic when its result is used (ATOMG), else as a reduction (ptxas issues
   REDG for an atom whose result nothing reads, and Nsight Compute counts it
   under op_red), its lanes on shared memory as a shared atomic (ATOMS). */
static void tell_atomic(struct warp *w, const struct instruction *in, const uint64_t *at, uint32_t lanes, int result_used)
{
    uint32_t global = 0, shared = 0;
    lane_values counted = { 0 };
    FOR_LANES(lanes, i) {
        enum space space = resolve_space(in->space, at[i]);
        if (space == SPACE_SHARED)
            shared |= 1u << i;
        else
            global |= 1u << i;
        counted[i] = counted_address(space, at[i]);
    }
    struct warp_access a;
    if (global) {
        access_from_lanes(&a, result_used ? ACCESS_ATOMIC : ACCESS_REDUCTION, in->type.bytes, counted, global);
        tell(w, &a, in);
    }
    if (shared && is_float_add(in)) {
        tell_shared_float_add(w, in, counted, shared);
    } else if (shared) {
        access_from_lanes(&a, ACCESS_SHARED_ATOMIC, in->type.bytes, counted, shared);
        tell(w, &a, in);
    }
}

/* atom.SPACE.MODE.TYPE d, [a], b[, c] and red (no d): lane by lane, in lane
   order, then told to the counting as atomics (tell_atomic). */
static int atomic_op(struct warp *w, const struct instruction *in, uint32_t lanes, int returns)
{
    int first = returns ? 1 : 0;
    if (in->operand_count < first + 2 || in->operands[first].kind != OPERAND_ADDRESS)
        return run_error(w, in, "an address [..] and a value expected");
    const struct operand *o = in->operands;
    struct value_type t = in->type;
    lane_values at, second, third, old = { 0 };
    const uint64_t *b = values(w, &o[first + 1], t, second);
    const uint64_t *c = in->operand_count > first + 2 ? values(w, &o[first + 2], t, third) : second;
    addresses(w, &o[first], at);
    FOR_LANES(lanes, i) {
        enum space space = resolve_space(in->space, at[i]);
        unsigned char *memory = space == SPACE_GLOBAL || space == SPACE_SHARED ? memory_at(w->b, space, at[i], (uint64_t)t.bytes) : NULL;
        if (!memory)
            return outside(w, in, i, SAY("updated", "更新"), space, at[i], (uint64_t)t.bytes);
        pthread_mutex_lock(w->b->atomics);   /* other threads run other blocks */
        memcpy(&old[i], memory, (size_t)t.bytes);
        uint64_t updated = atomic_update(in->mode, t, old[i], b[i], c[i]);
        memcpy(memory, &updated, (size_t)t.bytes);
        int short_of_memory = tally(w->b, in, space, at[i], old[i], b[i]) || note_shared_float_add(w, in, space, at[i]);
        pthread_mutex_unlock(w->b->atomics);
        if (short_of_memory)
            return run_error(w, in, "out of memory");
        if (t.kind == KIND_SIGNED)
            old[i] = (uint64_t)sign_extend(old[i], t.bytes);
    }
    if (returns)
        put(w, &o[0], old, lanes, t);
    if (told(w))
        tell_atomic(w, in, at, lanes, returns && !in->result_unused);
    return 0;
}

int op_atom(struct warp *w, const struct instruction *in, uint32_t lanes) { return atomic_op(w, in, lanes, 1); }
static int op_red(struct warp *w, const struct instruction *in, uint32_t lanes) { return atomic_op(w, in, lanes, 0); }

/* cp.async.ca.shared.global [shared], [global], size[, source size]: done at once
   (a wait_group only makes it visible, and nothing may read it before), and
   counted as the H200 counts its LDGSTS: requests and sectors of its global
   side under op_ldgsts, neither a global load nor a shared store (the shared
   store wavefront counter gives 0 for it); bytes past the source size are zero. */
static int op_cp_async(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    const struct operand *o = in->operands;
    if (in->operand_count < 3 || o[0].kind != OPERAND_ADDRESS || o[1].kind != OPERAND_ADDRESS || o[2].kind != OPERAND_IMMEDIATE)
        return run_error(w, in, "[shared], [global], size expected");
    int size = (int)o[2].imm;
    lane_values to, from, scratch;
    const uint64_t *source_size = in->operand_count > 3 ? values(w, &o[3], (struct value_type){ KIND_UNSIGNED, 4 }, scratch) : NULL;
    addresses(w, &o[0], to);
    addresses(w, &o[1], from);
    FOR_LANES(lanes, i) {
        unsigned char *target = memory_at(w->b, SPACE_SHARED, to[i], (uint64_t)size);
        unsigned char *source = memory_at(w->b, SPACE_GLOBAL, from[i], (uint64_t)size);
        if (!target || !source)
            return run_error(w, in, "lane %d of warp %d copies from 0x%llx to shared 0x%llx, outside every buffer", i,
                             w->index, (unsigned long long)from[i], (unsigned long long)to[i]);
        int copied = source_size && (int)source_size[i] < size ? (int)source_size[i] : size;
        memcpy(target, source, (size_t)copied);
        memset(target + copied, 0, (size_t)(size - copied));
    }
    if (told(w)) {
        struct warp_access copy;
        access_from_lanes(&copy, ACCESS_LDGSTS, size, from, lanes);
        tell(w, &copy, in);
    }
    return 0;
}

/* --- printf --------------------------------------------------------------- */

/* Keeps one call's text in the thread's log while the log is short of the
   launch's lines (later ones cannot be among the grid's first); counts its lines either way. */
static void printf_keep(struct printf_log *log, unsigned long long block, const char *text)
{
    size_t length = strlen(text);
    uint64_t newlines = 0;
    for (size_t i = 0; i < length; i++)
        newlines += text[i] == '\n';
    log->lines += newlines;
    if (log->lines_kept >= log->most || log->used >= PTX_PRINTED_MOST_BYTES)
        return;
    if (log->used + length + 1 > log->capacity) {
        size_t capacity = (log->used + length + 1) * 2;
        char *grown = realloc(log->text, capacity);
        if (!grown)
            return;
        log->text = grown;
        log->capacity = capacity;
    }
    if (log->count == log->capacity_records) {
        int capacity = log->capacity_records ? 2 * log->capacity_records : 64;
        struct printf_record *grown = realloc(log->records, (size_t)capacity * sizeof *grown);
        if (!grown)
            return;
        log->records = grown;
        log->capacity_records = capacity;
    }
    memcpy(log->text + log->used, text, length);
    log->records[log->count++] = (struct printf_record){ block, log->used, length };
    log->used += length;
    log->lines_kept += newlines;
}

/* What the formatter reads through: one lane's argument buffer, and the module's strings. */
struct lane_printf {
    const struct warp *w;
    int lane;
    uint64_t arguments;   /* the buffer's generic address (0: the call has none) */
};

static int lane_argument(void *context, uint64_t offset, int bytes, uint64_t *bits)
{
    const struct lane_printf *c = context;
    const unsigned char *p = c->arguments >= LOCAL_WINDOW   /* the compilers pass a generic address: cvta.local's */
                                 ? lane_local(c->w, c->lane, c->arguments - LOCAL_WINDOW + offset, (uint64_t)bytes) : NULL;
    if (!p)
        return -1;
    *bits = load_bits(p, bytes);
    return 0;
}

static const char *module_string(const struct ptx_module *m, uint64_t address)
{
    return address >= STRINGS_WINDOW && address - STRINGS_WINDOW < m->strings_bytes
               ? (const char *)m->strings + (address - STRINGS_WINDOW) : NULL;
}

static const char *lane_string(void *context, uint64_t address)
{
    return module_string(((const struct lane_printf *)context)->w->b->m, address);
}

/* A call's parameter in a lane: its `bytes` bytes in the lane's local memory. */
static unsigned char *call_param(const struct warp *w, int lane, const struct operand *o, uint64_t bytes)
{
    return o->symbol >= 0 ? lane_local(w, lane, w->b->m->symbols[o->symbol].offset, bytes) : NULL;
}

/* call vprintf (format, arguments): each lane's call formatted as CUDA
   formats it (device_printf), in lane order, kept in the thread's log; its
   result, the arguments read, in the call's result. What cannot be emulated
   is one error naming printf, its format and the source line. */
int op_vprintf(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    const struct operand *o = in->operands;
    char text[PRINTF_CALL_BYTES], why[256], quoted[96];
    FOR_LANES(lanes, i) {
        const unsigned char *format_at = call_param(w, i, &o[1], 8), *arguments_at = call_param(w, i, &o[2], 8);
        const char *format = format_at ? module_string(w->b->m, load_bits(format_at, 8)) : NULL;
        if (!format || !arguments_at)
            return run_error(w, in, SAY("kernel '%s': printf's format is not a string literal of the kernel's",
                                        "核函数 '%s'：printf 的格式字符串不是核函数中的字符串字面量"), w->b->k->name);
        struct lane_printf context = { w, i, load_bits(arguments_at, 8) };
        struct printf_reader reader = { lane_argument, lane_string, &context };
        int result = device_printf(format, &reader, text, sizeof text, why, sizeof why);
        if (result < 0)
            return run_error(w, in, SAY("kernel '%s': printf(\"%s\") cannot be emulated: %s", "核函数 '%s'：printf(\"%s\") 无法模拟：%s"),
                             w->b->k->name, device_printf_quoted(format, quoted, sizeof quoted), why);
        unsigned char *returned = call_param(w, i, &o[0], 4);
        if (returned)
            store_bits(returned, (uint64_t)(uint32_t)result, 4);
        printf_keep(w->b->printed, (unsigned long long)block_number(w->b), text);
    }
    return 0;
}

/* Control flow is done by the warp's stepping (step_warp): these only mark. */
static int op_control(struct warp *w, const struct instruction *in, uint32_t lanes) { return 0; }

/* trap: the kernel ends there, as a GPU's launch fails. Compilers put one
   where they find the code would fault (a store through a null pointer). */
static int op_trap(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    int lane = __builtin_ctz(lanes);
    return run_error(w, in, SAY("kernel '%s' stopped at a trap (a __trap(), or where the compiler found a fault such as a "
                                "store through a null pointer); lane %d of warp %d of block (%u, %u, %u)",
                                "核函数 '%1$s' 在 trap 处停止（__trap()，或编译器发现了错误之处，例如通过空指针写入）；"
                                "block (%4$u, %5$u, %6$u) 的 warp %3$d 的 lane %2$d"),
                     w->b->k->name, lane, w->index, w->b->ctaid[0], w->b->ctaid[1], w->b->ctaid[2]);
}

#define OPERATION(op, ...) { .name = #op, .run = op_##op, __VA_ARGS__ }
static const struct operation_decl operations[] = {
    OPERATION(ld), OPERATION(st), OPERATION(mov), OPERATION(add), OPERATION(sub), OPERATION(mul),
    OPERATION(mad), { .name = "fma", .run = op_mad }, OPERATION(div), OPERATION(rem), OPERATION(min), OPERATION(max),
    OPERATION(and), OPERATION(or), OPERATION(xor), OPERATION(shl), OPERATION(shr), OPERATION(not),
    OPERATION(neg), OPERATION(abs), OPERATION(rcp), OPERATION(sqrt), OPERATION(popc), OPERATION(clz), OPERATION(bfe), OPERATION(bfi),
    OPERATION(prmt, .modes = 1), OPERATION(setp, .compares = 1), OPERATION(selp), OPERATION(cvt), OPERATION(cvta),
    OPERATION(activemask), OPERATION(shfl, .modes = 1), OPERATION(vote, .modes = 1), OPERATION(atom, .modes = 1),
    OPERATION(red, .modes = 1),
    { .name = "cp.async", .run = op_cp_async },
    { .name = "cp.async.group", .run = op_control },
    { .name = "bra", .run = op_control, .is_branch = 1 },
    { .name = "ret", .run = op_control, .is_exit = 1 },
    { .name = "exit", .run = op_control, .is_exit = 1 },
    { .name = "bar", .run = op_control, .is_barrier = 1 },
    { .name = "barrier", .run = op_control, .is_barrier = 1 },
    OPERATION(trap),
};

const struct operation_decl *find_operation(const char *name)
{
    for (size_t i = 0; i < sizeof operations / sizeof operations[0]; i++)
        if (strcmp(operations[i].name, name) == 0)
            return &operations[i];
    return NULL;
}

/* --- warps and blocks ----------------------------------------------------- */

enum step { STEP_RAN, STEP_BARRIER, STEP_DONE, STEP_FAILED };

/* A program counter's place in the kernel's control-flow order; past the end, last. */
static int order_of(const struct warp *w, int pc)
{
    return pc >= w->b->k->end ? INT_MAX : w->b->m->code[pc].order;
}

/* The lanes standing at the program counter first in the kernel's
   control-flow order (order_kernel), and that counter. When they are all
   the live lanes, the warp has reconverged. */
static uint32_t lowest_lanes(struct warp *w, int *pc)
{
    if (w->converged) {
        *pc = w->pc;
        return w->alive;
    }
    uint32_t lanes = 0;
    int lowest = INT_MAX;
    *pc = w->b->k->end;
    FOR_LANES(w->alive, i) {
        int order = order_of(w, w->lane_pc[i]);
        if (order < lowest) {
            lowest = order;
            *pc = w->lane_pc[i];
            lanes = 0;
        }
        if (w->lane_pc[i] == *pc)
            lanes |= 1u << i;
    }
    if (lanes == w->alive) {
        w->converged = 1;
        w->pc = *pc;
    }
    return lanes;
}

/* Moves the lanes to pc (taken ones) or next (the others). */
static inline void move_lanes(struct warp *w, uint32_t lanes, uint32_t taken, int target, int next)
{
    if (w->converged && (taken == lanes || taken == 0)) {
        w->pc = taken ? target : next;
        return;
    }
    if (w->converged) {   /* the warp diverges here */
        FOR_LANES(w->alive, i) w->lane_pc[i] = w->pc;
        w->converged = 0;
    }
    FOR_LANES(lanes, i) w->lane_pc[i] = taken >> i & 1 ? target : next;
}

/* The lanes whose guard predicate lets them run the instruction. */
static inline uint32_t guarded_lanes(struct warp *w, const struct instruction *in, uint32_t lanes)
{
    const struct shape *s = in->guard >= 0 ? &w->shapes[in->guard] : NULL;
    if (!s)
        return lanes;
    if (s->affine && !s->value.step)
        return lanes & ((s->value.base != 0) != in->guard_negate ? ~0u : 0);
    const uint64_t *p = read_row(w, in->guard);
    uint32_t yes = 0;
    EACH_LANE(i) yes |= (uint32_t)(p[i] != 0) << i;
    return lanes & (in->guard_negate ? ~yes : yes);
}

/* n with a comma between thousands ("68,719,476,736"), in out. */
static const char *with_commas(uint64_t n, char *out, size_t size)
{
    char digits[32];
    int length = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), used = 0;
    for (int i = 0; i < length && used + 2 < (int)size; i++) {
        if (i > 0 && (length - i) % 3 == 0)
            out[used++] = ',';
        out[used++] = digits[i];
    }
    out[used] = 0;
    return out;
}

int emulator_over_budget(const struct ptx_launch *l, const char *kernel, uint64_t launch_ran, uint64_t block_ran,
                         const unsigned block[3], char *text, size_t size)
{
    char budget[32];
    if (l->instruction_budget && launch_ran > l->instruction_budget)
        snprintf(text, size, SAY("kernel '%s' ran over %s warp-instructions (a loop that never ends?)",
                                 "核函数 '%s' 运行超过 %s 条 warp 指令（是不是有死循环？）"),
                 kernel, with_commas(l->instruction_budget, budget, sizeof budget));
    else if (l->block_instruction_budget && block_ran > l->block_instruction_budget)
        snprintf(text, size, SAY("block (%u, %u, %u) of kernel '%s' ran over %s warp-instructions, far more than a block's part "
                                 "of the launch's (a loop that never ends?)",
                                 "核函数 '%4$s' 的线程块 (%1$u, %2$u, %3$u) 运行超过 %5$s 条 warp 指令，远超一个线程块应占的份额（是不是有死循环？）"),
                 block[0], block[1], block[2], kernel, with_commas(l->block_instruction_budget, budget, sizeof budget));
    else
        return 0;
    return 1;
}

/* Every WARP_INSTRUCTIONS_A_LOOK warp-instructions a thread runs: they count
   into the launch's, against its budget (a warp-instruction whatever lanes
   run it, so one spinning lane stops as soon as a spinning warp would), and
   Ctrl-C stops the run. -1 with why when it must stop. */
static int must_stop(struct warp *w, const struct instruction *in)
{
    struct block *b = w->b;
    char text[320];
    uint64_t total = __atomic_add_fetch(b->launch_warp_instructions, WARP_INSTRUCTIONS_A_LOOK, __ATOMIC_RELAXED);
    b->block_warp_instructions += WARP_INSTRUCTIONS_A_LOOK;
    if (emulator_over_budget(b->l, b->k->name, total, b->block_warp_instructions, b->ctaid, text, sizeof text))
        return run_error(w, in, "%s", text);
    if (b->l->interrupted && *b->l->interrupted) {
        snprintf(b->why, b->why_size, "interrupted");
        return -1;
    }
    return 0;
}

static enum step step_warp(struct warp *w)
{
    struct block *b = w->b;
    int pc;
    uint32_t lanes = lowest_lanes(w, &pc);
    if (pc >= b->k->end) {   /* ran off the kernel's end: as ret */
        w->alive &= ~lanes;
        return w->alive ? STEP_RAN : STEP_DONE;
    }
    const struct instruction *in = &b->m->code[pc];
    uint32_t taken = guarded_lanes(w, in, lanes);
    b->lane_instructions += (uint64_t)lane_count(lanes);
    b->issued += (uint64_t)in->issued;
    if ((++b->warp_instructions & (WARP_INSTRUCTIONS_A_LOOK - 1)) == 0 && must_stop(w, in))
        return STEP_FAILED;
    if (in->is_exit) {
        move_lanes(w, lanes, 0, pc, pc + 1);
        w->alive &= ~taken;
        return w->alive ? STEP_RAN : STEP_DONE;
    }
    if (in->is_branch) {
        move_lanes(w, lanes, taken, in->operands[0].target, pc + 1);
        return STEP_RAN;
    }
    if (taken && in->run(w, in, taken))
        return STEP_FAILED;
    move_lanes(w, lanes, 0, pc, pc + 1);
    if (in->is_barrier && !(in->modifiers & MOD_WARP) && lanes == w->alive) {
        w->at_barrier = 1;
        return STEP_BARRIER;
    }
    return STEP_RAN;
}

/* Runs a warp until it parks at a barrier, ends, or fails. */
static enum step run_warp(struct warp *w)
{
    enum step s;
    while ((s = step_warp(w)) == STEP_RAN)
        ;
    return s;
}

static int run_block(struct block *b, struct warp *warps, int warp_count)
{
    for (;;) {
        int live = 0, parked = 0;
        for (int i = 0; i < warp_count; i++) {
            struct warp *w = &warps[i];
            if (!w->alive)
                continue;
            enum step s = w->at_barrier ? STEP_BARRIER : run_warp(w);
            if (s == STEP_FAILED)
                return -1;
            live += w->alive != 0;
            parked += w->alive && w->at_barrier;
        }
        if (live == 0)
            return 0;
        if (parked == live)   /* every live warp has arrived: the barrier opens */
            for (int i = 0; i < warp_count; i++)
                warps[i].at_barrier = 0;
    }
}

/* What the threads of one run share: the next block to take, and the first failure. */
struct grid_run {
    const struct ptx_module *m;
    const struct ptx_launch *l;
    const struct kernel *k;
    unsigned long long next_block, blocks;
    unsigned long long per_take;   /* blocks a thread takes at once: runs keep threads apart in the DRAM bitmaps */
    int stop;
    pthread_mutex_t atomics;   /* atomics of different threads' blocks, one at a time */
    uint64_t warp_instructions;   /* every thread's, WARP_INSTRUCTIONS_A_LOOK at a time */
};

/* One thread's part: its own block state, taking blocks until none are left. */
struct block_runner {
    struct grid_run *run;
    struct block b;
    struct warp *warps;
    uint64_t *regs;
    struct shape *shapes;
    int warp_count, failed;
    char why[512];
    pthread_t thread;
    struct printf_log printed;
};

static void start_block(struct block_runner *r, unsigned long long index)
{
    struct grid_run *g = r->run;
    struct block *b = &r->b;
    b->ctaid[0] = (unsigned)(index % g->l->grid[0]);
    b->ctaid[1] = (unsigned)(index / g->l->grid[0] % g->l->grid[1]);
    b->ctaid[2] = (unsigned)(index / ((unsigned long long)g->l->grid[0] * g->l->grid[1]));
    memset(b->shared, 0, b->shared_size);
    memset(b->local, 0, b->local_stride * b->threads);
    if (b->shared_rounding > 0)   /* the last block's shared float sums */
        memset(b->shared_sums, 0, (b->shared_size / 4 + 1) * sizeof *b->shared_sums);
    b->shared_rounding = 0;
    b->block_warp_instructions = 0;
    if (b->float_add_warp)
        memset(b->float_add_warp, 0, (b->shared_size / 4 + 1) * sizeof *b->float_add_warp);
    for (int i = 0; i < r->warp_count; i++) {
        struct warp *w = &r->warps[i];
        unsigned first = (unsigned)i * WARP_SIZE;
        w->b = b;
        w->index = i;
        w->at_barrier = 0;
        w->regs = r->regs + (size_t)i * (size_t)g->m->register_count * WARP_SIZE;
        w->shapes = r->shapes + (size_t)i * (size_t)g->m->register_count;
        w->alive = b->threads - first >= WARP_SIZE ? ~0u : (1u << (b->threads - first)) - 1;
        w->converged = 1;
        w->pc = g->k->first;
    }
}

static void *run_blocks(void *argument)
{
    struct block_runner *r = argument;
    struct grid_run *g = r->run;
    unsigned long long first;
    while (!r->failed && !__atomic_load_n(&g->stop, __ATOMIC_RELAXED) &&
           (first = __atomic_fetch_add(&g->next_block, g->per_take, __ATOMIC_RELAXED)) < g->blocks) {
        for (unsigned long long index = first; index < first + g->per_take && index < g->blocks && !r->failed; index++) {
            start_block(r, index);
            r->failed = run_block(&r->b, r->warps, r->warp_count);
        }
    }
    if (r->failed)
        __atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
    return NULL;
}

/* A runner's memory; -1 when it runs out. */
static int make_runner(struct block_runner *r, struct grid_run *g, unsigned threads, void *user)
{
    const struct kernel *k = g->k;
    r->run = g;
    r->warp_count = (int)((threads + WARP_SIZE - 1) / WARP_SIZE);
    r->b = (struct block){ .m = g->m, .l = g->l, .k = k, .threads = threads, .why = r->why, .why_size = sizeof r->why,
                           .user = user, .atomics = &g->atomics, .launch_warp_instructions = &g->warp_instructions,
                           .printed = &r->printed };
    r->printed.most = g->l->printed ? (uint64_t)g->l->printed_lines : 0;
    r->warps = calloc((size_t)r->warp_count, sizeof *r->warps);
    r->regs = calloc((size_t)r->warp_count * (size_t)g->m->register_count * WARP_SIZE + 1, sizeof *r->regs);
    r->shapes = calloc((size_t)r->warp_count * (size_t)g->m->register_count + 1, sizeof *r->shapes);
    r->b.shared_size = g->l->dynamic_shared_bytes ? k->dynamic_offset + g->l->dynamic_shared_bytes : k->shared_bytes;
    r->b.shared = calloc(r->b.shared_size + 1, 1);
    r->b.params = calloc(k->param_bytes + 1, 1);
    r->b.local_stride = (k->local_bytes + 15) / 16 * 16;
    r->b.local = calloc(r->b.local_stride * threads + 1, 1);
    if (!r->warps || !r->regs || !r->shapes || !r->b.shared || !r->b.params || !r->b.local)
        return -1;
    for (int i = 0, word = 0; i < k->param_count; i++) {
        const struct symbol *s = &g->m->symbols[k->params[i]];
        memcpy(r->b.params + s->offset, &g->l->args[word], s->bytes);
        word += (int)((s->bytes + 7) / 8);
    }
    return 0;
}

static void free_runner(struct block_runner *r)
{
    free(r->warps);
    free(r->regs);
    free(r->shapes);
    free(r->b.shared);
    free(r->b.params);
    free(r->b.local);
    free(r->b.shared_sums);
    free(r->b.float_add_warp);
    free(r->printed.text);
    free(r->printed.records);
}

/* The runners' records of printf's output in the grid's block order, cut
   after `most` lines (or PTX_PRINTED_MOST_BYTES), into out; the lines left out counted. */
static void merge_printed(const struct block_runner *runners, int count, uint64_t most, struct ptx_printed *out)
{
    int next[MAX_RUNNERS] = { 0 };
    uint64_t lines = 0, shown = 0;
    size_t used = 0;
    for (int i = 0; i < count; i++)
        lines += runners[i].printed.lines;
    if (!(out->text = malloc(PTX_PRINTED_MOST_BYTES + 1)))
        return;
    for (;;) {
        int pick = -1;
        for (int i = 0; i < count; i++)
            if (next[i] < runners[i].printed.count &&
                (pick < 0 || runners[i].printed.records[next[i]].block < runners[pick].printed.records[next[pick]].block))
                pick = i;
        if (pick < 0 || shown >= most || used >= PTX_PRINTED_MOST_BYTES)
            break;
        const struct printf_log *log = &runners[pick].printed;
        const struct printf_record *r = &log->records[next[pick]++];
        for (size_t c = 0; c < r->length && shown < most && used < PTX_PRINTED_MOST_BYTES; c++) {
            out->text[used++] = log->text[r->start + c];
            shown += log->text[r->start + c] == '\n';
        }
    }
    out->text[used] = 0;
    out->lines_not_shown = lines - shown;
}

int ptx_run(const struct ptx_module *m, const struct ptx_launch *l, struct ptx_ran *ran, char *why, size_t why_size)
{
    const struct kernel *k = find_kernel(m, l->kernel);
    *ran = (struct ptx_ran){ 0 };
    if (l->printed)
        *l->printed = (struct ptx_printed){ NULL, 0 };
    if (!k) {
        snprintf(why, why_size, "the PTX has no kernel named '%s'", l->kernel);
        return -1;
    }
    int words = 0;   /* a parameter takes a word per 8 bytes (a struct passed by value, several) */
    for (int i = 0; i < k->param_count; i++)
        words += (int)((m->symbols[k->params[i]].bytes + 7) / 8);
    if (l->arg_count != words) {
        snprintf(why, why_size, "kernel '%s' takes %d parameters (%d 8-byte words), %d words were given", k->name,
                 k->param_count, words, l->arg_count);
        return -1;
    }
    unsigned threads = l->block[0] * l->block[1] * l->block[2];
    if (threads == 0) {
        snprintf(why, why_size, "a block of 0 threads");
        return -1;
    }
    if ((k->local_bytes + 15) / 16 * 16 * threads > MAX_BLOCK_LOCAL_BYTES) {
        snprintf(why, why_size, "kernel '%s' asks for %llu bytes of local memory a thread, %llu for a block of %u: "
                 "more than the emulator's budget of %llu MB a block", k->name, (unsigned long long)k->local_bytes,
                 (unsigned long long)((k->local_bytes + 15) / 16 * 16 * threads), threads,
                 (unsigned long long)(MAX_BLOCK_LOCAL_BYTES >> 20));
        return -1;
    }
    uint64_t shared = l->dynamic_shared_bytes ? k->dynamic_offset + l->dynamic_shared_bytes : k->shared_bytes;
    if (l->shared_bytes_most && shared > l->shared_bytes_most) {
        snprintf(why, why_size, SAY("kernel '%s' asks for %llu bytes of shared memory a block; the device allows %llu",
                                    "核函数 '%s' 每块需要 %llu 字节共享内存；设备最多允许 %llu 字节"),
                 k->name, (unsigned long long)shared, (unsigned long long)l->shared_bytes_most);
        return -1;
    }
    struct grid_run g = { .m = m, .l = l, .k = k,
                          .blocks = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2] };
    if (l->only_warp) {   /* its block alone */
        g.next_block = (unsigned long long)(l->only_warp - 1) / ((threads + WARP_SIZE - 1) / WARP_SIZE);
        g.blocks = g.next_block + 1;
    }
    int count = l->only_warp || l->threads < 1 ? 1 : l->threads > MAX_RUNNERS ? MAX_RUNNERS : l->threads;
    count = (unsigned long long)count > g.blocks ? (int)(g.blocks ? g.blocks : 1) : count;
    g.per_take = g.blocks / (16ull * (unsigned long long)count);   /* about 16 runs a thread, as the model takes warps */
    g.per_take = g.per_take < 1 ? 1 : g.per_take > 256 ? 256 : g.per_take;
    struct block_runner *runners = calloc((size_t)count, sizeof *runners);
    int failed = !runners;
    pthread_mutex_init(&g.atomics, NULL);
    for (int i = 0; i < count && !failed; i++)
        failed = make_runner(&runners[i], &g, threads, l->users ? l->users[i] : l->user);
    if (failed) {
        snprintf(why, why_size, "out of memory");
    } else {
        int started = 1;
        while (started < count && start_worker(&runners[started].thread, run_blocks, &runners[started]) == 0)
            started++;
        run_blocks(&runners[0]);
        for (int i = 1; i < started; i++)
            pthread_join(runners[i].thread, NULL);
        for (int i = 0; i < started; i++) {
            ran->lane_instructions += runners[i].b.lane_instructions;
            ran->issued += runners[i].b.issued;
            ran->shared_float_collisions += runners[i].b.shared_float_collisions;
            if (runners[i].failed && !failed) {
                failed = 1;
                snprintf(why, why_size, "%s", runners[i].why);
            }
        }
        if (!failed && l->printed)
            merge_printed(runners, started, (uint64_t)l->printed_lines, l->printed);
    }
    for (int i = 0; runners && i < count; i++)
        free_runner(&runners[i]);
    free(runners);
    pthread_mutex_destroy(&g.atomics);
    return failed ? -1 : 0;
}
