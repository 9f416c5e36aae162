/*
** sass_run.c — the SASS engine (sass_run.h). A kernel's instructions are
** decoded once (operands into registers, immediates, constant-bank and
** memory references; branch labels into instruction indices), each opcode
** found in one table, opcodes[], with its semantics: a function run for
** each active lane, or for the warp at once (memory, control, shuffles).
**
** Threads of a warp each keep a program counter. The warp runs the ready
** lanes at the lowest counter together; lanes that branch apart run apart
** and rejoin at a BSYNC whose BSSY named them (or where their counters meet
** again), so a memory instruction's active lanes are the hardware's.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emulator/permute.h"
#include "emulator/sass_run.h"
#include "model/model.h"
#include "support/text.h"

enum { LANES = 32, RZ = 255, URZ = 63, PT = 7, BARRIERS = 16, MOST_OPERANDS = 8 };
/* sm_90's constant bank 0: blockDim at 0x0, gridDim at 0xc, the stack
   pointer at 0x28, the global memory descriptor at 0x208, parameters from 0x210 */
enum { CBANK_NTID = 0x0, CBANK_NCTAID = 0xc, CBANK_STACK = 0x28, CBANK_PARAMS = 0x210, CBANK_BYTES = 0x210 + 4096 };
/* A block's shared memory as its instructions address it: sm_90 reserves
   its first KB, the kernel's variables follow (the accounting sees offsets past it). */
enum { SHARED_RESERVED = 0x400, SHARED_MOST = 228 * 1024 };

enum operand_kind { O_NONE, O_REG, O_UREG, O_PRED, O_UPRED, O_IMM, O_CONST, O_MEM, O_LABEL, O_SPECIAL, O_BARRIER };
enum special { SR_ZERO, SR_TID_X, SR_TID_Y, SR_TID_Z, SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z, SR_LANEID, SR_CGACTAID };

struct operand {
    enum operand_kind kind;
    int reg;                       /* R, UR, P, UP, B number; RZ, URZ, PT */
    int negate, absolute, invert;  /* -R, |R|, ~R or !P */
    int wide;                      /* R2.64: a register pair */
    uint32_t bits;                 /* an immediate's (a float's, when written as one) */
    double number;                 /* an immediate as written */
    int bank, index_reg, ureg;     /* c[bank][index_reg + offset]; [index_reg(.64) + ureg + offset] */
    int64_t offset;
    int target;                    /* a label's instruction index */
    enum special special;
};

/* Modifier words that change what an opcode does, one bit each. */
#define MODIFIERS(M) M(WIDE) M(U32) M(S32) M(HI) M(X) M(EX) M(AND) M(OR) M(XOR) M(LT) M(LE) M(GT) M(GE) M(EQ) M(NE) \
    M(U8) M(S8) M(U16) M(S16) M(B64) M(B128) M(L) M(R) M(SX32) M(ADD) M(MIN) M(MAX) M(INC) M(EXCH) M(F32) M(IDX) M(UP) \
    M(DOWN) M(BFLY) M(ANY) M(ALL) M(RCP) M(RSQ) M(SQRT) M(EX2) M(LG2) M(SIN) M(COS) M(FLOOR) M(CEIL) M(U64) M(S64) \
    M(F64) M(POPC) M(SUM) M(GEU) M(GTU) M(LEU) M(LTU) M(NEU) M(EQU) M(NAN) M(NUM) M(SH) M(MOV) M(DEC) M(W) M(NOINC) M(NODEC) M(STRONG) M(GPU) M(SYS) \
    M(F4E) M(B4E) M(RC8) M(ECL) M(ECR) M(RC16)
#define AS_ENUM(name) MOD_##name,
enum modifier { MODIFIERS(AS_ENUM) MODIFIER_COUNT };
typedef unsigned __int128 modifier_set;   /* bit m: modifier m */
#define AS_TEXT(name) #name,
static const char *const modifier_words[] = { MODIFIERS(AS_TEXT) };

struct opcode_row;
struct decoded {
    const struct opcode_row *op;
    const struct sass_instruction *in;
    struct operand guard;         /* O_NONE: always */
    int count;
    struct operand o[MOST_OPERANDS];
    modifier_set mods;
    int uniform;                  /* writes uniform registers only: runs once a warp */
};

struct sass_program {
    struct sass_listing listing;
    struct decoded *code;
    int count;
    int registers;                /* R0 .. R(registers - 1) are all the code names (a 128-bit access's four included) */
};

enum lane_state { LANE_READY, LANE_AT_BSYNC, LANE_AT_BAR, LANE_EXITED };

struct warp {
    uint32_t r[256][LANES];       /* first: a block's start clears only the rows its code uses */
    uint32_t ur[64];
    uint32_t p[8];                /* each predicate's lanes; P7 is PT */
    uint8_t up[8];
    int pc[LANES];
    uint8_t state[LANES], waits_on[LANES];
    uint32_t barrier[BARRIERS];   /* the lanes each BSSY named */
    int index;
    uint32_t next;                /* the group that runs next, when known without a look at every lane (0: look) */
    int next_pc;
};

struct block {
    const struct sass_program *p;
    const struct ptx_launch *l;
    unsigned ctaid[3];
    long long number;
    int threads, warp_count;
    struct warp *warps;
    unsigned char cbank[CBANK_BYTES];
    unsigned char *shared;
    unsigned char *local;         /* each thread's local memory, local_bytes apart, its stack's top at the end */
    uint64_t local_bytes;
    size_t shared_touched;        /* cleared up to here for the next block */
    uint64_t *issued, *lanes_ran;
    uint64_t issued_before_block;   /* *issued when this block started: its own part is the rest */
    char *why;
    size_t why_size;
};

/* What one instruction runs with. */
struct exec {
    struct block *b;
    struct warp *w;
    const struct decoded *d;
    uint32_t active;              /* lanes that run it: the group, its predicate true */
};

typedef void lane_fn(struct exec *x, int lane);
typedef int warp_fn(struct exec *x, uint32_t group);
struct opcode_row {
    const char *name;
    lane_fn *lane;                /* semantics per active lane; or */
    warp_fn *warp;                /* the warp's, control and memory (sets the lanes' counters when control) */
    int control;
};

static int has(const struct decoded *d, enum modifier m) { return (int)(d->mods >> m & 1); }

/* The running instruction's number in its kernel, from 1, as sass() numbers them. */
static int instruction_number(const struct exec *x) { return (int)(x->d - x->b->p->code) + 1; }
_Static_assert(MODIFIER_COUNT <= 128, "a modifier_set holds 128 modifiers");

/* Whether the warp's accesses go to on_access: all, or (only_warp) one warp's. */
static int told(const struct exec *x)
{
    const struct ptx_launch *l = x->b->l;
    return l->on_access && (!l->only_warp || (l->only_warp - 1) % x->b->warp_count == x->w->index);
}

/* ---- operands ---- */

static uint32_t reg(const struct warp *w, int r, int lane) { return r == RZ ? 0 : w->r[r][lane]; }
static uint32_t ureg(const struct warp *w, int r) { return r == URZ ? 0 : w->ur[r]; }

/* A word of constant bank 0 (the launch's) or 3 (the __constant__ variables'); 0 past their ends. */
static uint32_t cbank_word(const struct block *b, int bank, int64_t at)
{
    const unsigned char *bytes = bank == 0 ? b->cbank : b->p->listing.constants;
    int64_t size = bank == 0 ? CBANK_BYTES : (int64_t)b->p->listing.constant_bytes;
    uint32_t v = 0;
    if (at >= 0 && at + 4 <= size)
        memcpy(&v, bytes + at, 4);
    return v;
}

static uint32_t special(const struct exec *x, enum special s, int lane)
{
    const unsigned *block = x->b->l->block;
    unsigned t = (unsigned)(x->w->index * LANES + lane);
    switch (s) {
    case SR_TID_X: return t % block[0];
    case SR_TID_Y: return t / block[0] % block[1];
    case SR_TID_Z: return t / (block[0] * block[1]);
    case SR_CTAID_X: case SR_CTAID_Y: case SR_CTAID_Z: return x->b->ctaid[s - SR_CTAID_X];
    case SR_LANEID: return (uint32_t)lane;
    default: return 0;
    }
}

/* An operand's bits, before its -, | | or ~. */
static uint32_t raw(const struct exec *x, const struct operand *o, int lane, int word)
{
    switch (o->kind) {
    case O_REG: return o->reg == RZ ? 0 : reg(x->w, o->reg + word, lane);
    case O_UREG: return o->reg == URZ ? 0 : ureg(x->w, o->reg + word);
    case O_IMM: return word ? (uint32_t)((int32_t)o->bits >> 31) : o->bits;
    case O_CONST: {
        int64_t at = o->offset + 4 * word + (o->index_reg >= 0 ? (int32_t)reg(x->w, o->index_reg, lane) : 0);
        return cbank_word(x->b, o->bank, at);
    }
    case O_SPECIAL: return special(x, o->special, lane);
    default: return 0;
    }
}

static uint32_t ival(const struct exec *x, int i, int lane)
{
    const struct operand *o = &x->d->o[i];
    uint32_t v = raw(x, o, lane, 0);
    if (o->absolute) v = (int32_t)v < 0 ? -v : v;
    if (o->invert) v = ~v;
    if (o->negate) v = -v;
    return v;
}

static uint64_t val64(const struct exec *x, int i, int lane)
{
    const struct operand *o = &x->d->o[i];
    return (uint64_t)raw(x, o, lane, 1) << 32 | raw(x, o, lane, 0);
}

static float fval(const struct exec *x, int i, int lane)
{
    const struct operand *o = &x->d->o[i];
    uint32_t bits = raw(x, o, lane, 0);
    float f;
    memcpy(&f, &bits, 4);
    if (o->absolute) f = fabsf(f);
    if (o->negate) f = -f;
    return f;
}

static double dval(const struct exec *x, int i, int lane)
{
    const struct operand *o = &x->d->o[i];
    double v = o->number;
    if (o->kind != O_IMM) {
        uint64_t bits = val64(x, i, lane);
        memcpy(&v, &bits, 8);
    }
    if (o->absolute) v = fabs(v);
    if (o->negate) v = -v;
    return v;
}

static void put(struct exec *x, int i, int lane, uint32_t v)
{
    const struct operand *o = &x->d->o[i];
    if (o->kind == O_REG && o->reg != RZ)
        x->w->r[o->reg][lane] = v;
    else if (o->kind == O_UREG && o->reg != URZ)
        x->w->ur[o->reg] = v;
}

static void put_next(struct exec *x, int i, int lane, uint32_t v)
{
    const struct operand *o = &x->d->o[i];
    if (o->kind == O_REG && o->reg != RZ && o->reg + 1 < RZ)
        x->w->r[o->reg + 1][lane] = v;
    else if (o->kind == O_UREG && o->reg != URZ && o->reg + 1 < URZ)
        x->w->ur[o->reg + 1] = v;
}

static void put64(struct exec *x, int i, int lane, uint64_t v)
{
    put(x, i, lane, (uint32_t)v);
    put_next(x, i, lane, (uint32_t)(v >> 32));
}

static void putf(struct exec *x, int i, int lane, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    put(x, i, lane, bits);
}

static void putd(struct exec *x, int i, int lane, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    put64(x, i, lane, bits);
}

static int pred_of(const struct warp *w, const struct operand *o, int lane)
{
    int v = o->kind == O_UPRED ? (o->reg == PT || w->up[o->reg]) : o->kind == O_PRED ? (o->reg == PT || (w->p[o->reg] >> lane & 1)) : 1;
    return v ^ o->invert;
}

static int pred(const struct exec *x, int i, int lane) { return pred_of(x->w, &x->d->o[i], lane); }

static void put_pred(struct exec *x, int i, int lane, int v)
{
    const struct operand *o = &x->d->o[i];
    if (o->kind == O_PRED && o->reg != PT)
        x->w->p[o->reg] = (x->w->p[o->reg] & ~(1u << lane)) | (uint32_t)(v != 0) << lane;
    else if (o->kind == O_UPRED && o->reg != PT)
        x->w->up[o->reg] = v != 0;
}

static int is_pred(const struct exec *x, int i) { return i < x->d->count && (x->d->o[i].kind == O_PRED || x->d->o[i].kind == O_UPRED); }

/* ---- integer ---- */

static void op_mov(struct exec *x, int lane) { put(x, 0, lane, ival(x, 1, lane)); }

/* IMAD d, [carry out,] a, b, c [, carry in]: a × b + c; .WIDE a 64-bit product and c a pair; .HI
   the high word of the 64-bit product plus c as a pair (c:c+1, so that IMAD.HI R7, R7, R11, R6 with
   R6 = 0 adds R7 to mulhi). The carry out is the sum's past 32 bits, or past 64 (.WIDE, .HI). */
static void op_imad(struct exec *x, int lane)
{
    const struct decoded *d = x->d;
    int out = is_pred(x, 1), i = 1 + out;
    uint32_t a = ival(x, i, lane), b = ival(x, i + 1, lane);
    int carry = is_pred(x, i + 3) ? pred(x, i + 3, lane) : 0;
    int is_signed = !has(d, MOD_U32);
    unsigned __int128 sum;
    if (has(d, MOD_WIDE) || has(d, MOD_HI)) {
        uint64_t product = is_signed ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b) : (uint64_t)a * b;
        sum = (unsigned __int128)product + val64(x, i + 2, lane) + (unsigned)carry;
        if (has(d, MOD_WIDE))
            put64(x, 0, lane, (uint64_t)sum);
        else
            put(x, 0, lane, (uint32_t)((uint64_t)sum >> 32));
        sum >>= 32;   /* the carry out, from bit 64, at bit 32 as below */
    } else {
        sum = (uint64_t)(uint32_t)(a * b) + ival(x, i + 2, lane) + (unsigned)carry;
        put(x, 0, lane, (uint32_t)sum);
    }
    if (out)
        put_pred(x, 1, lane, (int)((uint64_t)(sum >> 32) & 1));
}

/* An operand of an add, as a 33-bit term: -R as ~R + 1, so that a subtraction carries as the hardware's does. */
static uint64_t add_term(const struct exec *x, int i, int lane)
{
    const struct operand *o = &x->d->o[i];
    uint32_t v = raw(x, o, lane, 0);
    if (o->invert) v = ~v;
    return o->negate ? (uint64_t)(uint32_t)~v + 1 : v;
}

/* IADD3 d, [carry out, [carry out,]] a, b, c [, carry in, carry in]: a + b + c (+ the carries in).
   A three-way sum carries up to 2: with two carries out, each is one bit of that (1 + 1 for 2), so
   that an IADD3.X adding both in gets the whole carry of a 64-bit three-way sum. */
static void op_iadd3(struct exec *x, int lane)
{
    int i = 1, outs = 0;
    while (is_pred(x, i)) i++, outs++;
    uint64_t carries_in = 0;
    for (int k = i + 3; k < x->d->count; k++)
        if (is_pred(x, k)) carries_in += (uint64_t)pred(x, k, lane);
    uint64_t total = add_term(x, i, lane) + add_term(x, i + 1, lane) + add_term(x, i + 2, lane) + carries_in;
    unsigned carry = (unsigned)(total >> 32);   /* 0 to 2 where two carries go out: one bit each */
    put(x, 0, lane, (uint32_t)total);
    if (outs >= 1)
        put_pred(x, 1, lane, outs == 1 ? (int)(carry & 1) : carry >= 1);
    if (outs == 2)
        put_pred(x, 2, lane, carry >= 2);
}

static void op_viadd(struct exec *x, int lane) { put(x, 0, lane, ival(x, 1, lane) + ival(x, 2, lane)); }

/* LEA d, [carry out,] a, b, [hi,] shift [, carry in]: (a << shift) + b; .HI the high word of {hi:a} << shift. */
static void op_lea(struct exec *x, int lane)
{
    const struct decoded *d = x->d;
    int i = 1, out = is_pred(x, 1) ? 1 : 0;
    i += out;
    uint32_t a = ival(x, i, lane);
    uint64_t b = add_term(x, i + 1, lane);
    int shift_at = d->count - 1;
    while (shift_at > i && is_pred(x, shift_at)) shift_at--;
    unsigned shift = ival(x, shift_at, lane) & 63;
    uint32_t carry = shift_at + 1 < d->count && has(d, MOD_X) ? (uint32_t)pred(x, shift_at + 1, lane) : 0;
    uint64_t term;
    if (has(d, MOD_HI)) {
        uint32_t hi = has(d, MOD_SX32) ? (uint32_t)((int32_t)a >> 31) : shift_at > i + 2 ? ival(x, i + 2, lane) : 0;
        term = (uint32_t)(((uint64_t)hi << 32 | a) << shift >> 32);
    } else
        term = (uint32_t)(a << shift);
    uint64_t sum = term + b + carry;
    put(x, 0, lane, (uint32_t)sum);
    if (out)
        put_pred(x, 1, lane, (int)(sum >> 32 & 1));
}

/* SHF.L/.R d, lo, shift, hi: {hi:lo} shifted, its low word or (.HI) its high word;
   the shift clamped to the width, or (.W) wrapped. */
static void op_shf(struct exec *x, int lane)
{
    const struct decoded *d = x->d;
    uint32_t lo = ival(x, 1, lane), hi = ival(x, 3, lane);
    unsigned shift = ival(x, 2, lane);
    unsigned width = has(d, MOD_U64) || has(d, MOD_S64) ? 64 : 32;
    shift = has(d, MOD_W) ? shift & (width - 1) : shift > width ? width : shift;
    uint64_t v = (uint64_t)hi << 32 | lo, result;
    if (has(d, MOD_L))
        result = shift >= 64 ? 0 : v << shift;
    else if (has(d, MOD_S32) || has(d, MOD_S64))
        result = (uint64_t)((int64_t)v >> (shift >= 64 ? 63 : shift));
    else
        result = shift >= 64 ? 0 : v >> shift;
    put(x, 0, lane, has(d, MOD_HI) ? (uint32_t)(result >> 32) : (uint32_t)result);
}

/* The bits a three-input truth table picks: a is 0xF0, b 0xCC, c 0xAA. */
static uint32_t lut3(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
    uint32_t r = 0;
    for (int i = 0; i < 8; i++)
        if (lut >> i & 1)
            r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return r;
}

/* LOP3.LUT [p,] d, a, b, c, lut, pin: p, written first, says whether the result is non-zero. */
static void op_lop3(struct exec *x, int lane)
{
    int out = is_pred(x, 0), i = out ? 2 : 1;
    uint32_t r = lut3(ival(x, i, lane), ival(x, i + 1, lane), ival(x, i + 2, lane), ival(x, i + 3, lane) & 0xff);
    put(x, out, lane, r);
    if (out)
        put_pred(x, 0, lane, r != 0);
}

/* PLOP3.LUT p, q, a, b, c, lut, lut2: the truth table of three predicates. */
static void op_plop3(struct exec *x, int lane)
{
    uint32_t a = pred(x, 2, lane) ? 1 : 0, b = pred(x, 3, lane) ? 1 : 0, c = pred(x, 4, lane) ? 1 : 0;
    put_pred(x, 0, lane, (int)(lut3(a, b, c, ival(x, 5, lane)) & 1));
    put_pred(x, 1, lane, (int)(lut3(a, b, c, ival(x, 6, lane)) & 1));
}

static void op_sel(struct exec *x, int lane) { put(x, 0, lane, pred(x, 3, lane) ? ival(x, 1, lane) : ival(x, 2, lane)); }

/* FSEL d, a, b, p: SEL of floats (their -a and |a| a float's). */
static void op_fsel(struct exec *x, int lane) { putf(x, 0, lane, pred(x, 3, lane) ? fval(x, 1, lane) : fval(x, 2, lane)); }

/* Compares as the modifiers say: 1 below, 0 equal, -1 above, 2 unordered (floats). */
static int compare_holds(const struct decoded *d, int order)
{
    if (order == 2)
        return has(d, MOD_NAN) || has(d, MOD_GEU) || has(d, MOD_GTU) || has(d, MOD_LEU) || has(d, MOD_LTU) ||
               has(d, MOD_NEU) || has(d, MOD_EQU);
    if (has(d, MOD_LT) || has(d, MOD_LTU)) return order < 0;
    if (has(d, MOD_LE) || has(d, MOD_LEU)) return order <= 0;
    if (has(d, MOD_GT) || has(d, MOD_GTU)) return order > 0;
    if (has(d, MOD_GE) || has(d, MOD_GEU)) return order >= 0;
    if (has(d, MOD_EQ) || has(d, MOD_EQU)) return order == 0;
    if (has(d, MOD_NE) || has(d, MOD_NEU)) return order != 0;
    return has(d, MOD_NUM);
}

/* Sets p and q of a SETP: (holds) op c, and !(holds) op c. */
static void set_predicates(struct exec *x, int lane, int holds)
{
    const struct decoded *d = x->d;
    int c = pred(x, 4, lane);
    int p = has(d, MOD_OR) ? holds || c : has(d, MOD_XOR) ? holds ^ c : holds && c;
    int q = has(d, MOD_OR) ? !holds || c : has(d, MOD_XOR) ? !holds ^ c : !holds && c;
    put_pred(x, 0, lane, p);
    put_pred(x, 1, lane, q);
}

/* ISETP p, q, a, b, c [, low]: .EX compares high words, the low words' result (low) deciding a tie. */
static void op_isetp(struct exec *x, int lane)
{
    const struct decoded *d = x->d;
    uint32_t a = ival(x, 2, lane), b = ival(x, 3, lane);
    int order = has(d, MOD_U32) ? (a < b ? -1 : a > b) : ((int32_t)a < (int32_t)b ? -1 : (int32_t)a > (int32_t)b);
    int holds = compare_holds(d, order);
    if (has(d, MOD_EX) && order == 0 && x->d->count > 5)
        holds = pred(x, 5, lane);   /* the low words' compare, made with the same test */
    set_predicates(x, lane, holds);
}

static void op_fsetp(struct exec *x, int lane)
{
    float a = fval(x, 2, lane), b = fval(x, 3, lane);
    int order = isnan(a) || isnan(b) ? 2 : a < b ? -1 : a > b;
    set_predicates(x, lane, compare_holds(x->d, order));
}

/* FCHK.DIVIDE p, a, b: whether a / b must take the slow path ptxas calls
   (correctly rounded where the reciprocal's refinement may not be). The
   hardware's exact test is not published; this one sends every quotient
   whose operands are not plain normal numbers, or whose exponents are far
   apart, to the slow path: a quotient it sends there that the hardware
   would not costs instructions, never a different result. */
static void op_fchk(struct exec *x, int lane)
{
    float a = fval(x, 1, lane), b = fval(x, 2, lane);
    int plain_a = a == 0.0f || isnormal(a), plain_b = isnormal(b);
    int apart = plain_a && a != 0.0f && plain_b && abs(ilogbf(a) - ilogbf(b)) > 100;
    int edge = plain_a && a != 0.0f && (abs(ilogbf(a)) > 125 || abs(ilogbf(b)) > 125);
    put_pred(x, 0, lane, !plain_a || !plain_b || apart || edge);
}

/* VIMNMX d, a, b, min: the smaller when min (PT), else the larger. */
static void op_vimnmx(struct exec *x, int lane)
{
    uint32_t a = ival(x, 1, lane), b = ival(x, 2, lane);
    int less = has(x->d, MOD_U32) ? a < b : (int32_t)a < (int32_t)b;
    put(x, 0, lane, pred(x, 3, lane) == less ? a : b);
}

static void op_iabs(struct exec *x, int lane)
{
    uint32_t a = ival(x, 1, lane);
    put(x, 0, lane, (int32_t)a < 0 ? -a : a);
}

static void op_popc(struct exec *x, int lane) { put(x, 0, lane, (uint32_t)__builtin_popcount(ival(x, 1, lane))); }

/* FLO d, a: the highest set bit's position (.SH: from the top), or all ones when none. */
static void op_flo(struct exec *x, int lane)
{
    uint32_t a = ival(x, 1, lane);
    if (!has(x->d, MOD_U32) && (int32_t)a < 0)
        a = ~a;
    put(x, 0, lane, a == 0 ? 0xffffffffu : has(x->d, MOD_SH) ? (uint32_t)__builtin_clz(a) : 31u - (uint32_t)__builtin_clz(a));
}

static void op_s2r(struct exec *x, int lane) { put(x, 0, lane, raw(x, &x->d->o[1], lane, 0)); }

static void op_cs2r(struct exec *x, int lane) { put64(x, 0, lane, 0); }

/* LDC/ULDC d, c[bank][index + offset]: .64 a pair. */
static void op_ldc(struct exec *x, int lane)
{
    put(x, 0, lane, raw(x, &x->d->o[1], lane, 0));
    if (has(x->d, MOD_B64))
        put_next(x, 0, lane, raw(x, &x->d->o[1], lane, 1));
}

/* A load of the __constant__ variables (bank 3), told as the constant
   cache's request, each active lane at its offset in the bank (ULDC's one
   offset for all); the launch's own bank 0 is no traffic. */
static int op_constant_load(struct exec *x, uint32_t group)
{
    const struct operand *o = &x->d->o[1];
    uint32_t lanes = x->d->uniform && x->active ? x->active & -x->active : x->active;
    if (o->bank == 3 && x->active && told(x)) {
        struct warp_access a;
        memset(&a, 0, sizeof a);
        a.kind = ACCESS_CONSTANT_LOAD, a.bytes = has(x->d, MOD_B64) ? 8 : 4, a.active = x->active;
        for (int lane = 0; lane < LANES; lane++)
            if (x->active >> lane & 1)
                a.addr[lane] = (uint64_t)(o->offset + (o->index_reg >= 0 ? (int32_t)reg(x->w, o->index_reg, lane) : 0));
        a.block = x->b->number, a.line = x->d->in->line, a.instruction = instruction_number(x);
        x->b->l->on_access(x->b->l->user, &a);
    }
    for (int lane = 0; lane < LANES; lane++)
        if (lanes >> lane & 1)
            op_ldc(x, lane);
    (void)group;
    return 0;
}

/* ---- float ---- */

static void op_fadd(struct exec *x, int lane) { putf(x, 0, lane, fval(x, 1, lane) + fval(x, 2, lane)); }
static void op_fmul(struct exec *x, int lane) { putf(x, 0, lane, fval(x, 1, lane) * fval(x, 2, lane)); }
static void op_ffma(struct exec *x, int lane) { putf(x, 0, lane, fmaf(fval(x, 1, lane), fval(x, 2, lane), fval(x, 3, lane))); }
static void op_fmnmx(struct exec *x, int lane)
{
    float a = fval(x, 1, lane), b = fval(x, 2, lane);
    putf(x, 0, lane, pred(x, 3, lane) ? fminf(a, b) : fmaxf(a, b));
}
static void op_dadd(struct exec *x, int lane) { putd(x, 0, lane, dval(x, 1, lane) + dval(x, 2, lane)); }
static void op_dmul(struct exec *x, int lane) { putd(x, 0, lane, dval(x, 1, lane) * dval(x, 2, lane)); }
static void op_dfma(struct exec *x, int lane) { putd(x, 0, lane, fma(dval(x, 1, lane), dval(x, 2, lane), dval(x, 3, lane))); }

/* A half's bits for a value an HFMA2.MMA move writes (exact for the small constants ptxas moves this way). */
static uint32_t half_bits(double v)
{
    if (v == 0)
        return signbit(v) ? 0x8000u : 0;
    uint32_t sign = v < 0 ? 0x8000u : 0;
    int exponent;
    double m = frexp(fabs(v), &exponent);   /* v = m 2^e, m in [0.5, 1) */
    int e = exponent - 1 + 15;
    if (e <= 0)
        return sign | (uint32_t)lround(fabs(v) * 16777216.0);   /* subnormal: units of 2^-24 */
    return sign | (uint32_t)e << 10 | ((uint32_t)lround(m * 2048.0) & 0x3ff);
}

/* HFMA2.MMA d, -RZ, RZ, hi, lo: ptxas's move of a constant, as two halves. */
static void op_hfma2(struct exec *x, int lane)
{
    put(x, 0, lane, half_bits(x->d->o[3].number) << 16 | half_bits(x->d->o[4].number));
}

/* I2F d, a: an integer (.U32, .S64, .U64) as a float (.F64: a double);
   I2FP.F32.S32 (.U32), sm_90's conversion of a 32-bit integer, the same. */
static void op_i2f(struct exec *x, int lane)
{
    const struct decoded *d = x->d;
    double v = has(d, MOD_U64) ? (double)val64(x, 1, lane) : has(d, MOD_S64) ? (double)(int64_t)val64(x, 1, lane)
             : has(d, MOD_U32) ? (double)ival(x, 1, lane) : (double)(int32_t)ival(x, 1, lane);
    if (has(d, MOD_F64))
        putd(x, 0, lane, v);
    else
        putf(x, 0, lane, (float)v);
}

/* PRMT d, a, selector, b: four bytes picked from b:a (PTX's prmt, its c operand in the middle). */
static void op_prmt(struct exec *x, int lane)
{
    static const struct { enum modifier modifier; enum permute_mode mode; } modes[] = {
        { MOD_F4E, PERMUTE_F4E }, { MOD_B4E, PERMUTE_B4E }, { MOD_RC8, PERMUTE_RC8 },
        { MOD_ECL, PERMUTE_ECL }, { MOD_ECR, PERMUTE_ECR }, { MOD_RC16, PERMUTE_RC16 },
    };
    enum permute_mode mode = PERMUTE_GENERIC;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (has(x->d, modes[i].modifier))
            mode = modes[i].mode;
    put(x, 0, lane, permute(mode, ival(x, 1, lane), ival(x, 3, lane), ival(x, 2, lane)));
}

/* F2I d, a: a float truncated (or .FLOOR, .CEIL) to an integer, saturating as the hardware does. */
static void op_f2i(struct exec *x, int lane)
{
    const struct decoded *d = x->d;
    double v = has(d, MOD_F64) ? dval(x, 1, lane) : fval(x, 1, lane);
    v = has(d, MOD_FLOOR) ? floor(v) : has(d, MOD_CEIL) ? ceil(v) : trunc(v);
    if (isnan(v))
        v = 0;
    if (has(d, MOD_U64))
        put64(x, 0, lane, v <= 0 ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v);
    else if (has(d, MOD_U32))
        put(x, 0, lane, v <= 0 ? 0 : v >= 4294967295.0 ? UINT32_MAX : (uint32_t)v);
    else
        put(x, 0, lane, (uint32_t)(v <= -2147483648.0 ? INT32_MIN : v >= 2147483647.0 ? INT32_MAX : (int32_t)v));
}

static void op_mufu(struct exec *x, int lane)
{
    const struct decoded *d = x->d;
    float a = fval(x, 1, lane);
    float r = has(d, MOD_RCP) ? 1.0f / a : has(d, MOD_RSQ) ? 1.0f / sqrtf(a) : has(d, MOD_SQRT) ? sqrtf(a)
            : has(d, MOD_EX2) ? exp2f(a) : has(d, MOD_LG2) ? log2f(a) : has(d, MOD_SIN) ? sinf(a) : cosf(a);
    putf(x, 0, lane, r);
}

static void op_nop(struct exec *x, int lane) { (void)x, (void)lane; }

/* ---- across the warp ---- */

/* The lanes of a group whose guard holds. */
static uint32_t guarded(const struct exec *x, uint32_t group)
{
    uint32_t active = 0;
    for (int lane = 0; lane < LANES; lane++)
        if (group >> lane & 1 && pred_of(x->w, &x->d->guard, lane))
            active |= 1u << lane;
    return active;
}

/* SHFL.IDX/UP/DOWN/BFLY p, d, a, b, c: each lane takes lane j's a, as PTX's shfl.sync computes j from b and c. */
static int op_shfl(struct exec *x, uint32_t group)
{
    (void)group;
    uint32_t from[LANES];
    for (int lane = 0; lane < LANES; lane++)
        from[lane] = ival(x, 2, lane);
    for (int lane = 0; lane < LANES; lane++) {
        if (!(x->active >> lane & 1))
            continue;
        uint32_t b = ival(x, 3, lane), c = ival(x, 4, lane);
        int clamp = (int)(c & 0x1f), segmask = (int)(c >> 8 & 0x1f);
        int most = (lane & segmask) | (clamp & ~segmask), least = lane & segmask, j;
        int valid;
        if (has(x->d, MOD_UP))
            j = lane - (int)b, valid = j >= most;
        else if (has(x->d, MOD_DOWN))
            j = lane + (int)b, valid = j <= most;
        else if (has(x->d, MOD_BFLY))
            j = lane ^ (int)b, valid = j <= most;
        else
            j = least | ((int)b & ~segmask & 31), valid = j <= most;
        put(x, 1, lane, valid ? from[j & 31] : from[lane]);
        put_pred(x, 0, lane, valid);
    }
    return 0;
}

/* VOTE.ANY/ALL [d,] p, a: the active lanes' a, as a ballot in d and the answer in p. */
static int op_vote(struct exec *x, uint32_t group)
{
    (void)group;
    int ballot_at = x->d->o[0].kind == O_REG || x->d->o[0].kind == O_UREG ? 0 : -1, p = ballot_at + 1;
    uint32_t ballot = 0;
    for (int lane = 0; lane < LANES; lane++)
        if (x->active >> lane & 1 && pred(x, p + 1, lane))
            ballot |= 1u << lane;
    int answer = has(x->d, MOD_ALL) ? ballot == x->active : ballot != 0;
    for (int lane = 0; lane < LANES; lane++)
        if (x->active >> lane & 1) {
            if (ballot_at == 0)
                put(x, 0, lane, ballot);
            put_pred(x, p, lane, answer);
        }
    return 0;
}

/* REDUX.SUM/MIN/MAX/AND/OR/XOR ud, a: the active lanes' a reduced into a uniform register. */
static int op_redux(struct exec *x, uint32_t group)
{
    (void)group;
    const struct decoded *d = x->d;
    int first = 1, is_signed = has(d, MOD_S32);
    uint32_t r = 0;
    for (int lane = 0; lane < LANES; lane++) {
        if (!(x->active >> lane & 1))
            continue;
        uint32_t v = ival(x, 1, lane);
        if (first)
            r = v, first = 0;
        else if (has(d, MOD_SUM)) r += v;
        else if (has(d, MOD_MIN)) r = is_signed ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r);
        else if (has(d, MOD_MAX)) r = is_signed ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r);
        else if (has(d, MOD_AND)) r &= v;
        else if (has(d, MOD_OR)) r |= v;
        else r ^= v;
    }
    if (x->active)
        put(x, 0, __builtin_ctz(x->active), r);
    return 0;
}

/* UFLO ud, ua: the highest set bit of a uniform value. */
static void op_uflo(struct exec *x, int lane) { op_flo(x, lane); }

/* ---- memory ---- */

static int run_error(struct exec *x, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int run_error(struct exec *x, const char *format, ...)
{
    char text[384];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    const struct sass_instruction *in = x->d->in;
    snprintf(x->b->why, x->b->why_size, SAY("SASS /*%04x*/ %s%s (source line %d): %s", "SASS /*%04x*/ %s%s（源代码第 %d 行）：%s"),
             in->offset, in->opcode, in->modifiers, in->line, text);
    return -1;
}

/* A lane's address for a memory operand [R(.64) + UR + offset]. */
static uint64_t address_of(const struct exec *x, const struct operand *o, int lane)
{
    uint64_t a = (uint64_t)o->offset;
    if (o->index_reg >= 0)
        a += o->wide ? (uint64_t)reg(x->w, o->index_reg + 1, lane) << 32 | reg(x->w, o->index_reg, lane)
                     : reg(x->w, o->index_reg, lane);
    if (o->ureg >= 0)
        a += o->wide && o->index_reg < 0 ? (uint64_t)ureg(x->w, o->ureg + 1) << 32 | ureg(x->w, o->ureg) : ureg(x->w, o->ureg);
    return o->wide ? a : (uint32_t)a;
}

/* Where bytes at a global address are in the launch's buffers, or NULL. */
static unsigned char *global_at(const struct ptx_launch *l, uint64_t address, uint64_t bytes)
{
    for (int i = 0; i < l->buffer_count; i++) {
        const struct ptx_buffer *b = &l->buffers[i];
        if (address >= b->address && address + bytes <= b->address + b->bytes)
            return (unsigned char *)b->data + (address - b->address);
    }
    return NULL;
}

/* A thread's local memory grows as its stack does: the bytes below the
   stack's top (c[0x0][0x28]) it reaches, at most this much a block. */
enum { LOCAL_TOP = 0xfffff0 };
static const uint64_t MOST_BLOCK_LOCAL_BYTES = 256ull << 20;

/* Each thread's local memory, grown to depth bytes under its top (each thread's old bytes moved to its new end). */
static int grow_local(struct block *b, uint64_t depth)
{
    uint64_t bytes = b->local_bytes ? b->local_bytes : 256, slots = (uint64_t)b->warp_count * LANES;
    while (bytes < depth)
        bytes *= 2;
    if (bytes * slots > MOST_BLOCK_LOCAL_BYTES)
        return -1;
    unsigned char *more = calloc(slots, bytes);
    if (!more)
        return -1;
    for (uint64_t t = 0; b->local && t < slots; t++)
        memcpy(more + (t + 1) * bytes - b->local_bytes, b->local + t * b->local_bytes, b->local_bytes);
    free(b->local);
    b->local = more, b->local_bytes = bytes;
    return 0;
}

/* Where bytes at a lane's local address are, or NULL (above the stack's top, or past the budget). */
static unsigned char *local_at(struct block *b, int warp, int lane, uint64_t address, uint64_t bytes)
{
    if (address > LOCAL_TOP || bytes > LOCAL_TOP - address)
        return NULL;
    uint64_t depth = LOCAL_TOP - address;
    if (depth > b->local_bytes && grow_local(b, depth) != 0)
        return NULL;
    return b->local + ((uint64_t)warp * LANES + (uint64_t)lane + 1) * b->local_bytes - depth;
}

/* Where bytes at a shared address are (the CTA's id in a cluster dropped), or NULL. */
static unsigned char *shared_at(struct block *b, uint64_t address, uint64_t bytes)
{
    uint64_t offset = address & 0xffffff;
    if (offset < SHARED_RESERVED || offset + bytes > SHARED_RESERVED + SHARED_MOST)
        return NULL;
    if (offset + bytes > b->shared_touched)
        b->shared_touched = offset + bytes;
    return b->shared + offset;
}

static enum access_kind kind_of(const struct sass_instruction *in)
{
    int shared = in->space == SASS_SHARED;
    switch (in->access) {
    case SASS_STORE: return shared ? ACCESS_SHARED_STORE : ACCESS_STORE;
    case SASS_ATOMIC: return shared ? ACCESS_SHARED_ATOMIC : ACCESS_ATOMIC;
    case SASS_REDUCTION: return ACCESS_REDUCTION;
    default: return shared ? ACCESS_SHARED_LOAD : ACCESS_LOAD;
    }
}

/* A lane's access at an address in no buffer (or past its local or shared memory): the PTX emulator's message. */
static int outside(struct exec *x, int lane, uint64_t address, uint64_t bytes)
{
    const struct sass_instruction *in = x->d->in;
    const char *what = in->access == SASS_LOAD ? SAY("loaded from", "读取") : in->access == SASS_STORE ? SAY("stored to", "写入")
                                                                        : SAY("updated", "更新");
    struct emulator_lane at = { x->b->l->kernel, lane, x->w->index, { x->b->ctaid[0], x->b->ctaid[1], x->b->ctaid[2] } };
    char text[512];
    emulator_outside(x->b->l, &at, what, sass_space_name(in->space), address, bytes, "", text, sizeof text);
    return run_error(x, "%s", text);
}

/* Finds each active lane's bytes, the access told to on_access as the accounting counts it. */
static int locate(struct exec *x, const struct operand *where, int bytes, unsigned char **memory)
{
    const struct sass_instruction *in = x->d->in;
    struct warp_access a;
    a.kind = kind_of(in), a.bytes = bytes, a.affine = 0, a.active = x->active;
    a.first_lane = 0, a.lane_count = 0, a.first_addr = 0, a.step = 0;
    /* LDG.E.STRONG.GPU (ld.cg) and .SYS (volatile) pass L1 by; .STRONG.SM (ld.ca) does not */
    a.l2_only = in->space == SASS_GLOBAL && has(x->d, MOD_STRONG) && (has(x->d, MOD_GPU) || has(x->d, MOD_SYS));
    for (int lane = 0; lane < LANES; lane++) {
        a.addr[lane] = 0;
        if (!(x->active >> lane & 1))
            continue;
        uint64_t at = address_of(x, where, lane);
        memory[lane] = in->space == SASS_SHARED ? shared_at(x->b, at, (uint64_t)bytes)
                     : in->space == SASS_LOCAL ? local_at(x->b, x->w->index, lane, at, (uint64_t)bytes)
                     : global_at(x->b->l, at, (uint64_t)bytes);
        if (!memory[lane])
            return outside(x, lane, at, (uint64_t)bytes);
        a.addr[lane] = in->space == SASS_SHARED ? (at & 0xffffff) - SHARED_RESERVED : at;
    }
    if (x->active && told(x) && in->space != SASS_LOCAL) {   /* local traffic: not modelled, as the PTX emulator's */
        a.block = x->b->number, a.line = in->line, a.instruction = instruction_number(x);
        x->b->l->on_access(x->b->l->user, &a);
    }
    return 0;
}

/* A loaded value into registers from d on: 1 and 2 bytes widened (.S8, .S16 with their sign). */
static void load_lane(struct exec *x, int lane, const unsigned char *from, int bytes)
{
    uint32_t words[4] = { 0 };
    memcpy(words, from, (size_t)bytes);
    if (has(x->d, MOD_S8)) words[0] = (uint32_t)(int32_t)(int8_t)words[0];
    if (has(x->d, MOD_S16)) words[0] = (uint32_t)(int32_t)(int16_t)words[0];
    const struct operand *d = &x->d->o[0];
    for (int k = 0; k < (bytes + 3) / 4; k++)
        if (d->reg != RZ && d->reg + k < RZ)
            (d->kind == O_UREG ? &x->w->ur[d->reg + k] : &x->w->r[d->reg + k][lane])[0] = words[k];
}

/* LDG/LDS d, [address]. */
static int op_load(struct exec *x, uint32_t group)
{
    (void)group;
    unsigned char *memory[LANES];
    int bytes = x->d->in->bytes;
    if (locate(x, &x->d->o[1], bytes, memory))
        return -1;
    for (int lane = 0; lane < LANES; lane++)
        if (x->active >> lane & 1)
            load_lane(x, lane, memory[lane], bytes);
    return 0;
}

/* STG/STS [address], v. */
static int op_store(struct exec *x, uint32_t group)
{
    (void)group;
    unsigned char *memory[LANES];
    int bytes = x->d->in->bytes;
    if (locate(x, &x->d->o[0], bytes, memory))
        return -1;
    const struct operand *v = &x->d->o[1];
    for (int lane = 0; lane < LANES; lane++) {
        if (!(x->active >> lane & 1))
            continue;
        uint32_t words[4];
        for (int k = 0; k < 4; k++)
            words[k] = v->kind == O_REG && v->reg + k < RZ && v->reg != RZ ? x->w->r[v->reg + k][lane] : 0;
        memcpy(memory[lane], words, (size_t)bytes);
    }
    return 0;
}

/* One lane's read-modify-write of a 32-bit word; the old value. */
static uint32_t atomic_word(const struct decoded *d, unsigned char *at, uint32_t v)
{
    uint32_t old, r;
    memcpy(&old, at, 4);
    if (has(d, MOD_F32) && has(d, MOD_ADD)) {
        float f, g;
        memcpy(&f, &old, 4), memcpy(&g, &v, 4);
        f += g;
        memcpy(&r, &f, 4);
    } else if (has(d, MOD_POPC) && has(d, MOD_INC)) r = old + 1;
    else if (has(d, MOD_ADD)) r = old + v;
    else if (has(d, MOD_MIN)) r = has(d, MOD_S32) ? ((int32_t)v < (int32_t)old ? v : old) : (v < old ? v : old);
    else if (has(d, MOD_MAX)) r = has(d, MOD_S32) ? ((int32_t)v > (int32_t)old ? v : old) : (v > old ? v : old);
    else if (has(d, MOD_EXCH)) r = v;
    else if (has(d, MOD_AND)) r = old & v;
    else if (has(d, MOD_OR)) r = old | v;
    else r = old ^ v;
    memcpy(at, &r, 4);
    return old;
}

/* ATOMS/ATOMG [p,] d, [address], v and REDG [address], v: lane by lane in lane order. */
static int op_atomic(struct exec *x, uint32_t group)
{
    (void)group;
    const struct decoded *d = x->d;
    int reduction = d->in->access == SASS_REDUCTION, first = reduction ? 0 : is_pred(x, 0) ? 2 : 1;
    int dest = first - 1;
    unsigned char *memory[LANES];
    if (locate(x, &d->o[first], 4, memory))
        return -1;
    for (int lane = 0; lane < LANES; lane++)
        if (x->active >> lane & 1) {
            uint32_t old = atomic_word(d, memory[lane], first + 1 < d->count ? ival(x, first + 1, lane) : 1);
            if (!reduction)
                put(x, dest, lane, old);
        }
    return 0;
}

/* ---- control ---- */

static void advance(struct warp *w, uint32_t lanes)
{
    for (int lane = 0; lane < LANES; lane++)
        if (lanes >> lane & 1)
            w->pc[lane]++;
}

static int op_bra(struct exec *x, uint32_t group)
{
    for (int lane = 0; lane < LANES; lane++)
        if (group >> lane & 1)
            x->w->pc[lane] = x->active >> lane & 1 ? x->d->o[0].target : x->w->pc[lane] + 1;
    return 0;
}

/* CALL.REL.NOINC label: a jump to a function (its return address in a register, set before). */
static int op_call(struct exec *x, uint32_t group)
{
    if (!has(x->d, MOD_NOINC))
        return run_error(x, "%s", SAY("a CALL that keeps its return address on the call stack is not run here",
                                      "把返回地址留在调用栈上的 CALL 在这里无法执行"));
    return op_bra(x, group);
}

/* The instruction at a byte offset of the kernel's code, or -1. */
static int instruction_at(const struct sass_program *p, uint64_t offset)
{
    int low = 0, high = p->count - 1;
    while (low <= high) {
        int middle = (low + high) / 2;
        if (p->code[middle].in->offset == offset)
            return middle;
        if (p->code[middle].in->offset < offset)
            low = middle + 1;
        else
            high = middle - 1;
    }
    return -1;
}

/* RET.REL.NODEC Rn, function: back to the offset Rn holds, from the function's start. */
static int op_ret(struct exec *x, uint32_t group)
{
    const struct decoded *d = x->d;
    if (!has(d, MOD_NODEC) || d->count < 2 || d->o[0].kind != O_REG || d->o[1].kind != O_LABEL)
        return run_error(x, "%s", SAY("a RET that takes its return address off the call stack is not run here",
                                      "从调用栈取返回地址的 RET 在这里无法执行"));
    uint64_t start = x->b->p->code[d->o[1].target].in->offset;
    for (int lane = 0; lane < LANES; lane++) {
        if (!(group >> lane & 1))
            continue;
        if (!(x->active >> lane & 1)) {
            x->w->pc[lane]++;
            continue;
        }
        int to = instruction_at(x->b->p, start + reg(x->w, d->o[0].reg, lane));
        if (to < 0)
            return run_error(x, SAY("lane %d returns to 0x%x, where no instruction is", "lane %d 返回到 0x%x，那里没有指令"),
                             lane, (unsigned)(start + reg(x->w, d->o[0].reg, lane)));
        x->w->pc[lane] = to;
    }
    return 0;
}

/* BSSY Bn, label: the group's lanes are to meet again at Bn's BSYNC. */
static int op_bssy(struct exec *x, uint32_t group)
{
    x->w->barrier[x->d->o[0].reg] = x->active;
    advance(x->w, group);
    return 0;
}

static int op_bsync(struct exec *x, uint32_t group)
{
    for (int lane = 0; lane < LANES; lane++)
        if (x->active >> lane & 1)
            x->w->state[lane] = LANE_AT_BSYNC, x->w->waits_on[lane] = (uint8_t)x->d->o[0].reg;
    advance(x->w, group & ~x->active);
    return 0;
}

static int op_exit(struct exec *x, uint32_t group)
{
    for (int lane = 0; lane < LANES; lane++)
        if (x->active >> lane & 1)
            x->w->state[lane] = LANE_EXITED;
    advance(x->w, group & ~x->active);
    return 0;
}

static int op_bar(struct exec *x, uint32_t group)
{
    for (int lane = 0; lane < LANES; lane++)
        if (x->active >> lane & 1)
            x->w->state[lane] = LANE_AT_BAR;
    advance(x->w, group);
    return 0;
}

static const struct opcode_row opcodes[] = {
    { "MOV", op_mov, NULL, 0 },       { "UMOV", op_mov, NULL, 0 },      { "IMAD", op_imad, NULL, 0 },
    { "UIMAD", op_imad, NULL, 0 },    { "IADD3", op_iadd3, NULL, 0 },   { "UIADD3", op_iadd3, NULL, 0 },
    { "VIADD", op_viadd, NULL, 0 },   { "LEA", op_lea, NULL, 0 },       { "ULEA", op_lea, NULL, 0 },
    { "SHF", op_shf, NULL, 0 },       { "USHF", op_shf, NULL, 0 },      { "LOP3", op_lop3, NULL, 0 },
    { "ULOP3", op_lop3, NULL, 0 },    { "PLOP3", op_plop3, NULL, 0 },   { "UPLOP3", op_plop3, NULL, 0 },
    { "SEL", op_sel, NULL, 0 },       { "USEL", op_sel, NULL, 0 },      { "ISETP", op_isetp, NULL, 0 },
    { "UISETP", op_isetp, NULL, 0 },  { "FSETP", op_fsetp, NULL, 0 },   { "VIMNMX", op_vimnmx, NULL, 0 },
    { "IABS", op_iabs, NULL, 0 },     { "POPC", op_popc, NULL, 0 },     { "FLO", op_flo, NULL, 0 },
    { "UFLO", op_uflo, NULL, 0 },     { "S2R", op_s2r, NULL, 0 },       { "S2UR", op_s2r, NULL, 0 },
    { "CS2R", op_cs2r, NULL, 0 },     { "LDC", NULL, op_constant_load, 0 }, { "ULDC", NULL, op_constant_load, 0 },
    { "FADD", op_fadd, NULL, 0 },     { "FMUL", op_fmul, NULL, 0 },     { "FFMA", op_ffma, NULL, 0 },
    { "FMNMX", op_fmnmx, NULL, 0 },   { "DADD", op_dadd, NULL, 0 },     { "DMUL", op_dmul, NULL, 0 },
    { "DFMA", op_dfma, NULL, 0 },     { "HFMA2", op_hfma2, NULL, 0 },   { "I2F", op_i2f, NULL, 0 },
    { "I2FP", op_i2f, NULL, 0 },      { "F2I", op_f2i, NULL, 0 },       { "MUFU", op_mufu, NULL, 0 },
    { "NOP", op_nop, NULL, 0 },       { "PRMT", op_prmt, NULL, 0 },
    { "FSEL", op_fsel, NULL, 0 },     { "FCHK", op_fchk, NULL, 0 },
    { "SHFL", NULL, op_shfl, 0 },     { "VOTE", NULL, op_vote, 0 },     { "VOTEU", NULL, op_vote, 0 },
    { "REDUX", NULL, op_redux, 0 },   { "LDG", NULL, op_load, 0 },      { "LDS", NULL, op_load, 0 },
    { "STG", NULL, op_store, 0 },     { "STS", NULL, op_store, 0 },     { "ATOMG", NULL, op_atomic, 0 },
    { "ATOMS", NULL, op_atomic, 0 },  { "REDG", NULL, op_atomic, 0 },   { "BRA", NULL, op_bra, 1 },
    { "BSSY", NULL, op_bssy, 1 },     { "BSYNC", NULL, op_bsync, 1 },   { "EXIT", NULL, op_exit, 1 },
    { "BAR", NULL, op_bar, 1 },       { "CALL", NULL, op_call, 1 },     { "RET", NULL, op_ret, 1 },
    { "LDL", NULL, op_load, 0 },      { "STL", NULL, op_store, 0 },
};

/* ---- decoding ---- */

static const struct { const char *name; enum special special; } specials[] = {
    { "SRZ", SR_ZERO },          { "SR_TID.X", SR_TID_X },     { "SR_TID.Y", SR_TID_Y },     { "SR_TID.Z", SR_TID_Z },
    { "SR_CTAID.X", SR_CTAID_X }, { "SR_CTAID.Y", SR_CTAID_Y }, { "SR_CTAID.Z", SR_CTAID_Z }, { "SR_LANEID", SR_LANEID },
    { "SR_CgaCtaId", SR_CGACTAID },
};

/* A register word: "R12", "UR4", "RZ", "P0", "UPT", "B1"; its kind, or O_NONE. */
static enum operand_kind register_word(const char *s, int *number, const char **end)
{
    static const struct { const char *prefix; enum operand_kind kind; const char *zero; int zero_number; } kinds[] = {
        { "UR", O_UREG, "URZ", URZ }, { "UP", O_UPRED, "UPT", PT }, { "R", O_REG, "RZ", RZ },
        { "P", O_PRED, "PT", PT },    { "B", O_BARRIER, NULL, 0 },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].prefix);
        if (strncmp(s, kinds[i].prefix, n) != 0)
            continue;
        if (kinds[i].zero && strncmp(s, kinds[i].zero, strlen(kinds[i].zero)) == 0) {
            *number = kinds[i].zero_number, *end = s + strlen(kinds[i].zero);
            return kinds[i].kind;
        }
        if (s[n] >= '0' && s[n] <= '9') {
            char *after;
            *number = (int)strtol(s + n, &after, 10), *end = after;
            return kinds[i].kind;
        }
    }
    return O_NONE;
}

/* "[R2.64+UR4+0x10]" (after any desc[URn]): base register, uniform register, offset. */
static int decode_address(const char *s, struct operand *o)
{
    o->kind = O_MEM, o->index_reg = -1, o->ureg = -1;
    const char *open = strrchr(s, '[');
    if (!open)
        return -1;
    for (const char *at = open + 1; *at && *at != ']';) {
        int negative = 0, number;
        const char *end;
        while (*at == '+' || *at == '-' || *at == ' ')
            negative = *at++ == '-' ? !negative : negative;
        enum operand_kind kind = register_word(at, &number, &end);
        if (kind == O_REG) {
            o->index_reg = number == RZ ? -1 : number;
            if (strncmp(end, ".64", 3) == 0)
                o->wide = 1, end += 3;
            else if (strncmp(end, ".U32", 4) == 0)
                end += 4;
        } else if (kind == O_UREG) {
            o->ureg = number == URZ ? -1 : number;
            if (strncmp(end, ".64", 3) == 0)
                o->wide = 1, end += 3;
        } else {
            char *after;
            long long v = strtoll(at, &after, 0);
            if (after == at)
                return -1;
            o->offset += negative ? -v : v, end = after;
        }
        at = end;
    }
    return 0;
}

/* c[0x0][0x210] or c[0x3][R2+0x4]: bank 0, the kernel's parameters and launch, or 3, its
   __constant__ variables (bank 4, the addresses of its globals, printf's, is not run here). */
static int decode_constant(const char *s, struct operand *o)
{
    o->kind = O_CONST, o->index_reg = -1;
    char *after;
    o->bank = (int)strtol(s + 2, &after, 0);
    if ((o->bank != 0 && o->bank != 3) || *after != ']' || after[1] != '[')
        return -1;
    struct operand address = { 0 };
    if (decode_address(after + 1, &address) != 0)
        return -1;
    o->index_reg = address.index_reg, o->offset = address.offset;
    return 0;
}

/* One operand's text into o; -1 when it is none of the forms the engine runs. */
static int decode_operand(const char *s, struct operand *o, const struct sass_program *p, const struct sass_kernel *k)
{
    memset(o, 0, sizeof *o);
    o->index_reg = o->ureg = -1;
    for (;; s++) {
        if (*s == '-') o->negate = 1;
        else if (*s == '|') o->absolute = 1;
        else if (*s == '!' || *s == '~') o->invert = 1;
        else if (*s != ' ') break;
    }
    if (strncmp(s, "c[", 2) == 0)
        return decode_constant(s, o);
    if (strncmp(s, "desc[", 5) == 0 || *s == '[')
        return decode_address(s, o);
    if (strncmp(s, "`(", 2) == 0) {
        const char *end = strchr(s + 2, ')');
        const struct sass_label *label = end ? sass_label_named(&p->listing, s + 2, (size_t)(end - s - 2)) : NULL;
        if (!label || label->instruction < k->first || label->instruction >= k->first + k->count)
            return -1;   /* a label of no instruction of this kernel's */
        o->kind = O_LABEL, o->target = label->instruction - k->first;
        return 0;
    }
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (strcmp(s, specials[i].name) == 0) {
            o->kind = O_SPECIAL, o->special = specials[i].special;
            return 0;
        }
    const char *end;
    enum operand_kind kind = register_word(s, &o->reg, &end);
    if (kind != O_NONE) {
        o->kind = kind;
        if (strncmp(end, ".64", 3) == 0)
            o->wide = 1;
        return 0;
    }
    o->kind = O_IMM;
    if (strstr(s, "0x")) {
        unsigned long long v = strtoull(s, NULL, 16);
        o->bits = (uint32_t)v, o->number = (double)v;
        if (o->negate)
            o->bits = -o->bits, o->number = -o->number, o->negate = 0;
        return 0;
    }
    char *after;
    double v = strstr(s, "INF") ? INFINITY : strstr(s, "NAN") ? NAN : strtod(s, &after);
    if (o->negate)
        v = -v, o->negate = 0;
    float f = (float)v;
    o->number = v;
    memcpy(&o->bits, &f, 4);
    return 0;
}

static const struct opcode_row *opcode_named(const char *name)
{
    for (size_t i = 0; i < sizeof opcodes / sizeof opcodes[0]; i++)
        if (strcmp(opcodes[i].name, name) == 0)
            return &opcodes[i];
    return NULL;
}

static modifier_set modifiers_of(const char *text)
{
    modifier_set mods = 0;
    char words[64];
    snprintf(words, sizeof words, "%s", text);
    for (char *saved, *word = strtok_r(words, ".", &saved); word; word = strtok_r(NULL, ".", &saved)) {
        const char *name = strcmp(word, "64") == 0 ? "B64" : strcmp(word, "128") == 0 ? "B128" : word;
        for (int m = 0; m < MODIFIER_COUNT; m++)
            if (strcmp(name, modifier_words[m]) == 0)
                mods |= (modifier_set)1 << m;
    }
    return mods;
}

/* One instruction decoded: its row, guard, operands; -1 with why. */
static int decode_one(struct sass_program *p, const struct sass_kernel *k, int index, char *why, size_t why_size)
{
    const struct sass_instruction *in = &p->listing.instructions[k->first + index];
    struct decoded *d = &p->code[index];
    memset(d, 0, sizeof *d);
    d->in = in;
    d->op = opcode_named(in->opcode);
    if (!d->op) {
        snprintf(why, why_size, SAY("the SASS engine does not know opcode '%s' (at /*%04x*/)", "SASS 引擎不认识操作码 '%s'（位于 /*%04x*/）"),
                 in->opcode, in->offset);
        return -1;
    }
    d->mods = modifiers_of(in->modifiers);
    if (in->predicate[0] && decode_operand(in->predicate + 1, &d->guard, p, k) != 0)
        goto bad;
    char text[sizeof in->operands];
    snprintf(text, sizeof text, "%s", in->operands);
    for (char *label = strstr(text, " `("); label; label = strstr(label + 1, " `("))
        if (label > text && label[-1] != ',')
            *label = ',';   /* RET.REL.NODEC R4 `(kernel): the register and the label, two operands */
    for (char *saved, *piece = strtok_r(text, ",", &saved); piece; piece = strtok_r(NULL, ",", &saved)) {
        if (d->count == MOST_OPERANDS || decode_operand(piece, &d->o[d->count++], p, k) != 0)
            goto bad;
    }
    d->uniform = in->opcode[0] == 'U' || strcmp(in->opcode, "S2UR") == 0 || strcmp(in->opcode, "VOTEU") == 0;
    for (int i = 0; i < d->count; i++) {   /* a register and the three after it: the most a 128-bit access names */
        int named = d->o[i].kind == O_REG ? d->o[i].reg : d->o[i].kind == O_MEM || d->o[i].kind == O_CONST ? d->o[i].index_reg : -1;
        if (named >= 0 && named != RZ && named + 4 > p->registers)
            p->registers = named + 4 < RZ ? named + 4 : RZ;
    }
    return 0;
bad:
    snprintf(why, why_size, SAY("the SASS engine cannot read the operands of %s%s '%s' (at /*%04x*/)",
                                "SASS 引擎读不懂 %s%s 的操作数 '%s'（位于 /*%04x*/）"),
             in->opcode, in->modifiers, in->operands, in->offset);
    return -1;
}

struct sass_program *sass_decode(const char *listing, const char *kernel, char *why, size_t why_size)
{
    struct sass_program *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
        return NULL;
    }
    if (sass_parse(listing, &p->listing, why, why_size) != 0) {
        free(p);
        return NULL;
    }
    const struct sass_kernel *k = sass_kernel_named(&p->listing, kernel);
    if (!k)
        snprintf(why, why_size, SAY("the SASS listing holds no kernel '%s'", "SASS 列表中没有核函数 '%s'"), kernel);
    else if (!(p->code = calloc((size_t)k->count, sizeof *p->code)))
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
    int failed = !k || !p->code;
    for (int i = 0; !failed && i < k->count; i++)
        failed = decode_one(p, k, i, why, why_size) != 0;
    if (failed) {
        sass_program_free(p);
        return NULL;
    }
    p->count = k->count;
    return p;
}

int sass_write_constant(struct sass_program *p, const char *name, const void *data, size_t bytes)
{
    const struct sass_symbol *symbol = sass_symbol_named(&p->listing, name);
    struct sass_listing *l = &p->listing;
    if (!symbol)
        return -1;
    if (symbol->offset + bytes > l->constant_bytes) {
        unsigned char *more = realloc(l->constants, symbol->offset + bytes);
        if (!more)
            return -1;
        memset(more + l->constant_bytes, 0, symbol->offset + bytes - l->constant_bytes);
        l->constants = more, l->constant_bytes = symbol->offset + bytes;
    }
    memcpy(l->constants + symbol->offset, data, bytes);
    return 0;
}

void sass_program_free(struct sass_program *p)
{
    if (!p)
        return;
    sass_free(&p->listing);
    free(p->code);
    free(p);
}

/* ---- running ---- */

/* The ready lanes at the lowest counter: the group that runs next (0: none
   is ready). Where they were all the ready lanes and the last instruction
   moved them on together (no control), they are the group again, one on. */
static uint32_t next_group(struct warp *w, int *pc)
{
    if (w->next) {
        *pc = w->next_pc;
        return w->next;
    }
    uint32_t group = 0, ready = 0;
    *pc = -1;
    for (int lane = 0; lane < LANES; lane++) {
        if (w->state[lane] != LANE_READY)
            continue;
        ready |= 1u << lane;
        if (*pc < 0 || w->pc[lane] < *pc)
            *pc = w->pc[lane], group = 0;
        if (w->pc[lane] == *pc)
            group |= 1u << lane;
    }
    w->next = group == ready ? group : 0;   /* kept by step only when no control instruction ran */
    w->next_pc = *pc;
    return group;
}

/* Releases the lanes at a BSYNC once every lane its BSSY named that is still running has come. */
static void release_barriers(struct warp *w)
{
    for (int n = 0; n < BARRIERS; n++) {
        uint32_t waiting = 0, running = 0;
        for (int lane = 0; lane < LANES; lane++) {
            if (w->state[lane] == LANE_AT_BSYNC && w->waits_on[lane] == n)
                waiting |= 1u << lane;
            if (w->barrier[n] >> lane & 1 && w->state[lane] != LANE_EXITED)
                running |= 1u << lane;
        }
        if (!waiting || running & ~waiting)
            continue;
        for (int lane = 0; lane < LANES; lane++)
            if (waiting >> lane & 1)
                w->state[lane] = LANE_READY, w->pc[lane]++;
        w->barrier[n] = 0;
    }
}

/* Runs one instruction for the warp's next group; 1 when none is ready, 0 when one ran, -1 on an error. */
static int step(struct block *b, struct warp *w)
{
    int pc;
    uint32_t group = next_group(w, &pc);
    if (!group)
        return 1;
    struct exec x = { b, w, NULL, 0 };
    if (pc >= b->p->count) {
        x.d = &b->p->code[b->p->count - 1];
        return run_error(&x, "%s", SAY("a lane ran past the kernel's last instruction", "有 lane 执行越过了核函数的最后一条指令"));
    }
    x.d = &b->p->code[pc];
    x.active = x.d->guard.kind == O_NONE ? group : guarded(&x, group);
    (*b->issued)++;
    *b->lanes_ran += (uint64_t)__builtin_popcount(x.active);
    if (x.d->op->warp) {
        if (x.d->op->warp(&x, group))
            return -1;
    } else if (x.active && x.d->uniform) {
        x.d->op->lane(&x, __builtin_ctz(x.active));
    } else {
        for (int lane = 0; lane < LANES; lane++)
            if (x.active >> lane & 1)
                x.d->op->lane(&x, lane);
    }
    if (!x.d->op->control) {
        advance(w, group);
        w->next_pc = pc + 1;
    } else {
        w->next = 0;
        release_barriers(w);   /* only a lane that comes to a BSYNC or exits can free one */
    }
    return 0;
}

static int budget_spent(struct block *b)
{
    const struct ptx_launch *l = b->l;
    if (l->interrupted && *l->interrupted) {
        snprintf(b->why, b->why_size, "%s", SAY("interrupted", "已中断"));
        return 1;
    }
    return emulator_over_budget(l, l->kernel, *b->issued, *b->issued - b->issued_before_block, b->ctaid, b->why, b->why_size);
}

/* Runs every warp of the block to its end or the block's barrier, then frees the barrier, until all have exited. */
static int run_block(struct block *b)
{
    for (;;) {
        int at_bar = 0, stuck = 0;
        for (int i = 0; i < b->warp_count; i++) {
            struct warp *w = &b->warps[i];
            int ran;
            for (int n = 0; (ran = step(b, w)) == 0; n++)
                if ((n & 1023) == 0 && budget_spent(b))
                    return -1;
            if (ran < 0)
                return -1;
            for (int lane = 0; lane < LANES; lane++)
                at_bar += w->state[lane] == LANE_AT_BAR, stuck += w->state[lane] == LANE_AT_BSYNC;
        }
        if (!at_bar && stuck) {
            snprintf(b->why, b->why_size, "%s", SAY("lanes wait at a BSYNC that the rest of their warp never reaches",
                                                    "有 lane 在 BSYNC 等待，而同一 warp 的其他 lane 永远不会到达"));
            return -1;
        }
        if (!at_bar)
            return 0;
        for (int i = 0; i < b->warp_count; i++)
            for (int lane = 0; lane < LANES; lane++)
                if (b->warps[i].state[lane] == LANE_AT_BAR)
                    b->warps[i].state[lane] = LANE_READY, b->warps[i].next = 0;
    }
}

/* The block's warps at their start: lanes past the block's threads never run. */
static void start_block(struct block *b, unsigned x, unsigned y, unsigned z)
{
    b->ctaid[0] = x, b->ctaid[1] = y, b->ctaid[2] = z;
    b->issued_before_block = *b->issued;
    b->number = (long long)x + (long long)b->l->grid[0] * ((long long)y + (long long)b->l->grid[1] * z);
    memset(b->shared, 0, b->shared_touched);
    b->shared_touched = 0;
    for (int i = 0; i < b->warp_count; i++) {
        struct warp *w = &b->warps[i];
        memset(w->r, 0, (size_t)b->p->registers * sizeof w->r[0]);
        memset((char *)w + sizeof w->r, 0, sizeof *w - sizeof w->r);
        w->index = i;
        for (int lane = 0; lane < LANES; lane++)
            w->state[lane] = i * LANES + lane < b->threads ? LANE_READY : LANE_EXITED;
    }
}

/* Constant bank 0 as sm_90 lays it out: the launch's shape, a stack pointer, the parameters. */
static int fill_cbank(struct block *b, const int *arg_bytes)
{
    memset(b->cbank, 0, sizeof b->cbank);
    memcpy(b->cbank + CBANK_NTID, b->l->block, 12);
    memcpy(b->cbank + CBANK_NCTAID, b->l->grid, 12);
    uint32_t stack = LOCAL_TOP;
    memcpy(b->cbank + CBANK_STACK, &stack, 4);
    int at = CBANK_PARAMS;
    for (int i = 0; i < b->l->arg_count; i++) {
        int bytes = arg_bytes ? arg_bytes[i] : 8;
        at = (at + bytes - 1) / bytes * bytes;
        if (at + bytes > CBANK_BYTES)
            return -1;
        memcpy(b->cbank + at, &b->l->args[i], (size_t)bytes);
        at += bytes;
    }
    return 0;
}

int sass_run(const struct sass_program *p, const struct ptx_launch *l, const int *arg_bytes, struct sass_ran *ran,
             char *why, size_t why_size)
{
    memset(ran, 0, sizeof *ran);
    struct block *b = calloc(1, sizeof *b);
    int threads = (int)(l->block[0] * l->block[1] * l->block[2]), failed = 0;
    if (b) {
        b->p = p, b->l = l, b->threads = threads, b->warp_count = (threads + LANES - 1) / LANES;
        b->warps = malloc((size_t)b->warp_count * sizeof *b->warps);
        b->shared = calloc(1, SHARED_RESERVED + SHARED_MOST);
        b->issued = &ran->warp_instructions, b->lanes_ran = &ran->lane_instructions, b->why = why, b->why_size = why_size;
    }
    if (!b || !b->warps || !b->shared) {
        snprintf(why, why_size, "%s", SAY("out of memory", "内存不足"));
        failed = 1;
    } else if (fill_cbank(b, arg_bytes) != 0) {
        snprintf(why, why_size, "%s", SAY("the kernel's parameters do not fit its constant bank", "核函数参数放不进常量区"));
        failed = 1;
    }
    long long only_block = l->only_warp && b ? (l->only_warp - 1) / b->warp_count : -1;   /* a warp map's: its block alone */
    for (unsigned z = 0; !failed && z < l->grid[2]; z++)
        for (unsigned y = 0; !failed && y < l->grid[1]; y++)
            for (unsigned x = 0; !failed && x < l->grid[0]; x++) {
                long long number = (long long)x + (long long)l->grid[0] * ((long long)y + (long long)l->grid[1] * z);
                if (only_block >= 0 && number != only_block)
                    continue;
                start_block(b, x, y, z);
                failed = run_block(b) != 0;
            }
    if (b) {
        free(b->warps), free(b->shared), free(b->local);
        free(b);
    }
    return failed ? -1 : 0;
}
