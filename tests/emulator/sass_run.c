/*
** sass_run.c — the SASS engine (sass_run.c) on small listings written
** as nvdisasm prints sm_90 code: lanes that branch apart at a BSSY run
** apart and meet again at its BSYNC (each side's store with its own lanes),
** carries between IADD3 and IADD3.X, LOP3's truth table, a barrier, an
** LDS.128 told as one access of 16 bytes a lane; a called function, local
** memory and constant bank 3; and an opcode it does not know named with
** its offset.
*/
#include <stdint.h>
#include <string.h>
#include "emulator/sass_run.h"
#include "model/model.h"
#include "../lib/tap.h"

/* out[tid] = tid < 16 ? tid : 2 tid; out[32 + tid] = the carry of tid - 1;
   out[64 + tid] = tid & 3, or 9 where that is 0 (LOP3's
   predicate, written before its register, says whether the result is non-zero); shared[tid] = tid, then out[96 + tid] = shared[4 (tid % 8) + 1]. */
static const char listing[] =
    "//--------------------- .text.k --------------------------\n"
    ".text.k:\n"
    "        /*0000*/                   S2R R0, SR_TID.X ;\n"
    "        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;\n"
    "        /*0020*/                   ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;\n"
    "        /*0030*/                   IMAD.WIDE.U32 R4, R0, 0x4, R2 ;\n"
    "        /*0040*/                   BSSY B0, `(.L_x_1) ;\n"
    "        /*0050*/              @P0 BRA `(.L_x_0) ;\n"
    "        /*0060*/                   STG.E desc[UR4][R4.64], R0 ;\n"
    "        /*0070*/                   BRA `(.L_x_1) ;\n"
    ".L_x_0:\n"
    "        /*0080*/                   SHF.L.U32 R7, R0, 0x1, RZ ;\n"
    "        /*0090*/                   STG.E desc[UR4][R4.64], R7 ;\n"
    ".L_x_1:\n"
    "        /*00a0*/                   BSYNC B0 ;\n"
    "        /*00b0*/                   IADD3 R10, P1, R0, -0x1, RZ ;\n"
    "        /*00c0*/                   IADD3.X R11, RZ, RZ, RZ, P1, !PT ;\n"
    "        /*00d0*/                   STG.E desc[UR4][R4.64+0x80], R11 ;\n"
    "        /*00e0*/                   LOP3.LUT P2, R12, R0, 0x3, RZ, 0xc0, !PT ;\n"
    "        /*00f0*/                   SEL R12, R12, 0x9, P2 ;\n"
    "        /*0100*/                   STG.E desc[UR4][R4.64+0x100], R12 ;\n"
    "        /*0110*/                   LEA R13, R0, 0x400, 0x2 ;\n"
    "        /*0120*/                   STS [R13], R0 ;\n"
    "        /*0130*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
    "        /*0140*/                   LOP3.LUT R14, R0, 0x7, RZ, 0xc0, !PT ;\n"
    "        /*0150*/                   LEA R14, R14, 0x400, 0x4 ;\n"
    "\t//## File \"k.cu\", line 7\n"
    "        /*0160*/                   LDS.128 R16, [R14] ;\n"
    "        /*0170*/                   STG.E desc[UR4][R4.64+0x180], R17 ;\n"
    "        /*0180*/                   EXIT ;\n"
    ".L_x_2:\n"
    "        /*0190*/                   BRA `(.L_x_2);\n";

enum { MOST_TOLD = 16 };
struct told {
    int count;
    struct warp_access a[MOST_TOLD];
};

static void remember(void *user, const struct warp_access *a)
{
    struct told *t = user;
    if (t->count < MOST_TOLD)
        t->a[t->count] = *a;
    t->count++;
}

/* A listing's kernel k, run as one block over out, its one argument; what its accesses told. */
struct one_block {
    struct sass_program *p;
    struct ptx_buffer buffer;
    uint64_t args[1];
    struct ptx_launch l;
    struct told told;
    struct sass_ran ran;
};

/* Runs the block (again); 0, or -1 (its why shown). */
static int run_block(struct one_block *b)
{
    char why[256] = "";
    int arg_bytes[1] = { 8 };
    int failed = sass_run(b->p, &b->l, arg_bytes, &b->ran, why, sizeof why);
    if (!ok(!failed, "it runs"))
        printf("#   %s\n", why);
    return failed ? -1 : 0;
}

/* Decodes text's kernel k (what: the test's words) and runs it as one block of threads over out. */
static int decode_and_run(struct one_block *b, const char *text, const char *what, unsigned threads, void *out, size_t bytes)
{
    char why[256] = "";
    memset(b, 0, sizeof *b);
    b->p = sass_decode(text, "k", why, sizeof why);
    if (!ok(b->p != NULL, what)) {
        printf("#   %s\n", why);
        return -1;
    }
    uint64_t base[1];
    model_buffer_bases(1, base);
    b->buffer = (struct ptx_buffer){ base[0], out, bytes, "out" };
    b->args[0] = base[0];
    b->l = (struct ptx_launch){ .kernel = "k", .grid = { 1, 1, 1 }, .block = { threads, 1, 1 }, .args = b->args, .arg_count = 1,
                                .buffers = &b->buffer, .buffer_count = 1, .on_access = remember, .user = &b->told };
    return run_block(b);
}

static void runs_the_listing(void)
{
    uint32_t out[128] = { 0 };
    struct one_block b;
    if (decode_and_run(&b, listing, "the listing decodes", 32, out, sizeof out) != 0 && !b.p)
        return;
    const struct told told = b.told;
    const struct sass_ran ran = b.ran;
    struct sass_program *p = b.p;
    int right = 1;
    for (unsigned t = 0; t < 32; t++)
        right &= out[t] == (t < 16 ? t : 2 * t) && out[32 + t] == (t >= 1) && out[64 + t] == ((t & 3) ? (t & 3) : 9) &&
                 out[96 + t] == 4 * (t % 8) + 1;
    ok(right, "each lane wrote what its side of the branch, its carry, its LOP3 (register and predicate) and its LDS.128 give");
    is_int(told.count, 7, "seven memory instructions told");
    is_int(told.a[0].active, 0x0000ffff, "the side that falls through stores with lanes 0-15 alone");
    is_int(told.a[1].active, (long long)0xffff0000u, "the side that branched, with lanes 16-31");
    is_int(told.a[2].active, (long long)0xffffffffu, "after the BSYNC all 32 lanes again");
    is_int(told.a[5].kind, ACCESS_SHARED_LOAD, "LDS.128 is a shared load");
    is_int(told.a[5].bytes, 16, "of 16 bytes a lane, one access");
    is_int((long long)told.a[5].addr[1], 16, "at the lane's offset in the kernel's shared memory");
    is_int(told.a[5].line, 7, "counted at its source line");
    is_int(told.a[4].kind, ACCESS_SHARED_STORE, "STS is a shared store");
    ok(ran.warp_instructions > 20 && ran.lane_instructions > ran.warp_instructions, "instructions counted");
    sass_program_free(p);
}

/* out[tid] = table[tid % 4] + twice(tid), where twice is a called function
   (CALL.REL.NOINC, its return address in R20, RET.REL.NODEC), the table is
   constant bank 3 (the listing's .nv.constant3 data) and tid passes through
   the lane's own local memory (STL, LDL under the stack's top, c[0x0][0x28]). */
static const char calls[] =
    "\t.section\t.nv.constant3,\"a\",@progbits\n"
    "table:\n"
    ".nv.constant3:\n"
    "        /*0000*/ \t.word\t0x00000064, 0x000000c8\n"
    "        /*0008*/ \t.byte\t0x2c, 0x01, 0x00, 0x00, 0x90, 0x01, 0x00, 0x00\n"
    "\t.section\t.text.k,\"ax\",@progbits\n"
    "k:\n"
    ".text.k:\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
    "        /*0010*/                   IADD3 R1, R1, -0x10, RZ ;\n"
    "        /*0020*/                   S2R R0, SR_TID.X ;\n"
    "        /*0030*/                   STL [R1+0x4], R0 ;\n"
    "        /*0040*/                   MOV R20, 0x60 ;\n"
    "        /*0050*/                   CALL.REL.NOINC `($__internal_0_twice) ;\n"
    "        /*0060*/                   LOP3.LUT R3, R0, 0x3, RZ, 0xc0, !PT ;\n"
    "        /*0070*/                   SHF.L.U32 R3, R3, 0x2, RZ ;\n"
    "        /*0080*/                   LDC R4, c[0x3][R3] ;\n"
    "        /*0090*/                   IADD3 R5, R4, R6, RZ ;\n"
    "        /*00a0*/                   LDC.64 R8, c[0x0][0x210] ;\n"
    "        /*00b0*/                   IMAD.WIDE.U32 R8, R0, 0x4, R8 ;\n"
    "        /*00c0*/                   STG.E desc[UR4][R8.64], R5 ;\n"
    "        /*00d0*/                   EXIT ;\n"
    "$__internal_0_twice:\n"
    "        /*00e0*/                   LDL R7, [R1+0x4] ;\n"
    "        /*00f0*/                   IMAD.SHL.U32 R6, R7, 0x2, RZ ;\n"
    "        /*0100*/                   RET.REL.NODEC R20 `(k) ;\n"
    ".L_x_0:\n"
    "        /*0110*/                   BRA `(.L_x_0);\n";

static void runs_calls_local_and_constants(void)
{
    uint32_t out[64] = { 0 };
    struct one_block b;
    if (decode_and_run(&b, calls, "a listing with a called function, local memory and constant bank 3 decodes", 64, out,
                       sizeof out) != 0 && !b.p)
        return;
    const struct told told = b.told;
    struct sass_program *p = b.p;
    int right = 1;
    for (unsigned t = 0; t < 64; t++)
        right &= out[t] == 100 * (t % 4 + 1) + 2 * t;
    ok(right, "each lane: bank 3's word (.word and .byte data) plus twice its own local value, through the call and back");
    is_int(told.count, 4, "the constant load and the global store told, for each warp; local traffic not (as the PTX emulator's)");
    is_int(told.a[0].kind, ACCESS_CONSTANT_LOAD, "LDC of bank 3: a constant load");
    is_int((long long)told.a[0].addr[5], 4, "at the lane's offset in the bank");
    uint32_t table[4] = { 1, 2, 3, 4 };
    ok(sass_write_constant(p, "table", table, sizeof table) == 0 && sass_write_constant(p, "none", table, 4) != 0,
       "a __constant__ variable written by name (as cudaMemcpyToSymbol); a name the bank has not, refused");
    run_block(&b);
    right = 1;
    for (unsigned t = 0; t < 64; t++)
        right &= out[t] == t % 4 + 1 + 2 * t;
    ok(right, "the next run reads what was written");
    sass_program_free(p);
}

static void unknown_opcode(void)
{
    static const char text[] = ".text.k:\n"
                               "        /*0000*/                   S2R R0, SR_TID.X ;\n"
                               "        /*0010*/                   HMMA.16816.F32 R4, R8, R12, R4 ;\n"
                               "        /*0020*/                   EXIT ;\n";
    char why[256] = "";
    struct sass_program *p = sass_decode(text, "k", why, sizeof why);
    ok(p == NULL, "a kernel with an opcode the engine does not know is refused before it runs");
    ok(strstr(why, "'HMMA'") && strstr(why, "0010"), "naming the opcode and its offset");
    static const char printf_call[] = ".text.k:\n"
                                      "        /*0000*/                   ULDC.64 UR4, c[0x4][0x8] ;\n"
                                      "        /*0010*/                   CALL.ABS.NOINC `(vprintf) ;\n"
                                      "        /*0020*/                   EXIT ;\n";
    p = sass_decode(printf_call, "k", why, sizeof why);
    ok(p == NULL && strstr(why, "c[0x4][0x8]") && strstr(why, "0000"),
       "printf's constant bank 4 (its format's address) is refused, naming the operand");
    printf("#   %s\n", why);
    sass_program_free(p);
    ok(sass_decode(text, "other", why, sizeof why) == NULL && strstr(why, "'other'"), "an unknown kernel is named");
}

int main(void)
{
    runs_the_listing();
    runs_calls_local_and_constants();
    unknown_opcode();
    return done();
}
