/*
** sass_listing.c — nvdisasm's listing read into instructions
** (sass_parse.c): kernels by their section labels, source positions that
** hold until the next, branch labels and the instruction each names,
** predicates, opcodes split from their modifiers, and each memory
** instruction's space, access and bytes a lane, on listings as nvdisasm
** 12.4 prints them for CUDA 13.0's sm_90 code; and constant bank 3's
** variables and bytes from the data sections.
*/
#include <string.h>
#include "emulator/sass.h"
#include "../lib/tap.h"

/* Cut from `nvdisasm -c -g` of a 16×16 tiled matmul (nvcc -lineinfo), with
   a second kernel and lines of every other kind a listing has. */
static const char listing[] =
    "\t.headerflags\t@\"EF_CUDA_TEXMODE_INDEPENDENT\"\n"
    "//--------------------- .text._Z12matmul_tiledPKfS0_Pfi --------------------------\n"
    "\t.section\t.text._Z12matmul_tiledPKfS0_Pfi,\"ax\",@progbits\n"
    "        .global         _Z12matmul_tiledPKfS0_Pfi\n"
    "_Z12matmul_tiledPKfS0_Pfi:\n"
    ".text._Z12matmul_tiledPKfS0_Pfi:\n"
    "\t//## File \"/tmp/sass/k.cu\", line 2\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
    "\t//## File \"/tmp/sass/k.cu\", line 7\n"
    "        /*00d0*/              @!P1 BRA `(.L_x_0) ;\n"
    ".L_x_1:\n"
    "\t//## File \"/tmp/sass/k.cu\", line 8\n"
    "        /*0240*/                   LDG.E R9, desc[UR8][R8.64] ;\n"
    "        /*02a0*/                   STS [R18], R9 ;\n"
    "\t//## File \"/tmp/sass/k.cu\", line 12\n"
    "        /*02d0*/                   LDS R26, [R20] ;\n"
    "        /*02e0*/                   LDS.128 R12, [R16] ;\n"
    "        /*0340*/                   FFMA R12, R26, R12, R21 ;\n"
    "\t//## File \"/tmp/sass/other.h\", line 3 inlined at \"/tmp/sass/k.cu\", line 14\n"
    "        /*0350*/                   ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R5, desc[UR8][R2.64], R4 ;\n"
    "        /*0360*/                   EXIT ;\n"
    ".L_x_3:\n"
    "//--------------------- .text._Z4copyPKfPfx --------------------------\n"
    ".text._Z4copyPKfPfx:\n"
    "        /*0000*/                   LDG.E.64 R2, desc[UR4][R2.64] ;\n"
    "        /*0010*/                   STG.E.U8 desc[UR4][R4.64], R2 ;\n"
    "        /*0020*/                   LDSM.16.M88.4 R8, [R3] ;\n"
    "        /*0030*/                   EXIT ;\n";

static const struct sass_instruction *at_offset(const struct sass_listing *l, const struct sass_kernel *k, unsigned offset)
{
    for (int i = k->first; i < k->first + k->count; i++)
        if (l->instructions[i].offset == offset)
            return &l->instructions[i];
    return NULL;
}

static void kernels_and_positions(const struct sass_listing *l)
{
    is_int(l->kernel_count, 2, "two kernels, by their section labels");
    const struct sass_kernel *matmul = sass_kernel_named(l, "_Z12matmul_tiledPKfS0_Pfi");
    const struct sass_kernel *copy = sass_kernel_named(l, "_Z4copyPKfPfx");
    ok(matmul && copy, "each found by its mangled name");
    ok(!sass_kernel_named(l, "_Z4copy"), "a name is matched whole");
    if (!matmul || !copy)
        return;
    is_int(matmul->count, 9, "the tiled matmul's nine instructions (labels and directives skipped)");
    is_int(copy->count, 4, "the copy's four");
    const struct sass_instruction *lds = at_offset(l, matmul, 0x2e0);
    ok(lds && lds->line == 12 && strcmp(l->files[lds->file], "/tmp/sass/k.cu") == 0,
           "an instruction takes the last source position before it");
    const struct sass_instruction *atom = at_offset(l, matmul, 0x350);
    ok(atom && atom->line == 12, "an \"inlined at\" position leaves the line as it was");
    const struct sass_instruction *first = at_offset(l, copy, 0);
    ok(first && first->line == 0, "a kernel without positions has line 0");
}

static void instructions(const struct sass_listing *l)
{
    const struct sass_kernel *matmul = sass_kernel_named(l, "_Z12matmul_tiledPKfS0_Pfi");
    const struct sass_kernel *copy = sass_kernel_named(l, "_Z4copyPKfPfx");
    if (!matmul || !copy)
        return;
    const struct sass_instruction *bra = at_offset(l, matmul, 0xd0), *lds = at_offset(l, matmul, 0x2e0);
    ok(bra && strcmp(bra->predicate, "@!P1") == 0 && strcmp(bra->opcode, "BRA") == 0, "a predicate, then the opcode");
    ok(bra && bra->space == SASS_NO_MEMORY, "a branch touches no memory");
    ok(lds && strcmp(lds->opcode, "LDS") == 0 && strcmp(lds->modifiers, ".128") == 0, "LDS.128: the opcode, and its modifiers");
    ok(lds && strcmp(lds->operands, "R12, [R16]") == 0, "the operands, without the ';'");
    ok(lds && lds->space == SASS_SHARED && lds->access == SASS_LOAD && lds->bytes == 16, "LDS.128: a shared load of 16 bytes a lane");
    const struct sass_instruction *ldg = at_offset(l, matmul, 0x240), *sts = at_offset(l, matmul, 0x2a0);
    ok(ldg && ldg->space == SASS_GLOBAL && ldg->access == SASS_LOAD && ldg->bytes == 4, "LDG.E: a global load of 4 bytes (.E is the address's width)");
    ok(sts && sts->space == SASS_SHARED && sts->access == SASS_STORE && sts->bytes == 4, "STS: a shared store");
    const struct sass_instruction *atom = at_offset(l, matmul, 0x350);
    ok(atom && atom->space == SASS_GLOBAL && atom->access == SASS_ATOMIC && atom->bytes == 4, "ATOMG.E.ADD.F32: a global atomic on 4 bytes");
    const struct sass_instruction *ldc = at_offset(l, matmul, 0);
    ok(ldc && ldc->space == SASS_CONSTANT && ldc->access == SASS_LOAD, "LDC: a constant-bank load");
    const struct sass_instruction *wide = at_offset(l, copy, 0), *byte = at_offset(l, copy, 0x10), *matrix = at_offset(l, copy, 0x20);
    ok(wide && wide->bytes == 8, "LDG.E.64: 8 bytes a lane");
    ok(byte && byte->bytes == 1 && byte->access == SASS_STORE, "STG.E.U8: a store of 1 byte");
    ok(matrix && matrix->bytes == 16 && matrix->space == SASS_SHARED, "LDSM.16.M88.4: four matrices' 4 bytes a lane");
    is_string(sass_space_name(SASS_SHARED), "shared", "a space's word");
    is_string(sass_access_name(SASS_REDUCTION), "reduction", "an access's word");
}

static void labels(const struct sass_listing *l)
{
    const struct sass_label *loop = sass_label_named(l, ".L_x_1", 6), *end = sass_label_named(l, ".L_x_3", 6);
    ok(loop && loop->instruction >= 0 && l->instructions[loop->instruction].offset == 0x240,
       "a branch label names the instruction after it");
    ok(end && end->instruction == -1, "a label at a kernel's end names none");
    ok(!sass_label_named(l, ".L_x_1)", 7) && !sass_label_named(l, ".L_x_", 5), "a label is matched by its whole name");
}

static void nothing_to_read(void)
{
    struct sass_listing l;
    char why[128] = "";
    is_int(sass_parse("\t.headerflags\t@\"\"\n// nothing else\n", &l, why, sizeof why), -1, "a listing without instructions is refused");
    ok(strstr(why, "no instruction") != NULL, "... saying so");
    is_int(sass_parse("        /*0000*/  EXIT ;\n", &l, why, sizeof why), -1, "an instruction outside any kernel is not read");
}

/* Bank 3 as `nvdisasm -g` (without -c) lists it for __constant__ float
   a[4] = {1, 2, 3, 4}; int b[300]; double c = 2.5; */
static const char constants[] =
    "//--------------------- .nv.constant3             --------------------------\n"
    "\t.section\t.nv.constant3,\"a\",@progbits\n"
    "\t.align\t8\n"
    "\t.type\t\ta,@object\n"
    "\t.size\t\ta,(b - a)\n"
    "a:\n"
    ".nv.constant3:\n"
    "        /*0000*/ \t.byte\t0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40\n"
    "\t.type\t\tb,@object\n"
    "b:\n"
    "\t.zero\t\t1200\n"
    "c:\n"
    "        /*04c0*/ \t.byte\t0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40\n"
    ".L_2:\n"
    "\t.section\t.text.k,\"ax\",@progbits\n"
    "k:\n"
    ".text.k:\n"
    "        /*0000*/                   LDC R4, c[0x3][R3] ;\n"
    "        /*0010*/                   EXIT ;\n";

static void constant_bank(void)
{
    struct sass_listing l;
    char why[128];
    ok(sass_parse(constants, &l, why, sizeof why) == 0, "a listing with data sections is read");
    const struct sass_symbol *a = sass_symbol_named(&l, "a"), *b = sass_symbol_named(&l, "b"), *c = sass_symbol_named(&l, "c");
    ok(a && a->offset == 0 && b && b->offset == 16 && c && c->offset == 0x4c0,
       "each __constant__ variable at its offset: after the data before it and .zero's bytes");
    float one;
    double two_and_a_half;
    if (l.constant_bytes >= 0x4c8) {
        memcpy(&one, l.constants, 4);
        memcpy(&two_and_a_half, l.constants + 0x4c0, 8);
    }
    ok(l.constant_bytes == 0x4c8 && one == 1.0f && two_and_a_half == 2.5 && l.constants[16] == 0,
       "the bank's bytes: the .byte data where they are listed, zeros where .zero says");
    ok(sass_symbol_named(&l, ".nv.constant3") == NULL && sass_symbol_named(&l, ".L_2") == NULL, "the section's own labels are no variables");
    is_int(l.count, 2, "the data lines are no instructions; the kernel's are");
    sass_free(&l);
}

int main(void)
{
    struct sass_listing l;
    char why[128];
    ok(sass_parse(listing, &l, why, sizeof why) == 0, "the listing is read");
    kernels_and_positions(&l);
    instructions(&l);
    labels(&l);
    sass_free(&l);
    nothing_to_read();
    constant_bank();
    return done();
}
