// docs/isa-coverage.md is generated here: for every gfx11 encoding, the
// opcodes the `isa` executor models (its opcode tables, chains included)
// and the ones it refuses (every other name of the generated gfx1100 name
// table, sim/isa/isa_names_gfx11.c). The test fails when the
// committed document differs from what the tables say; run
//   isa_coverage_test --write
// from the build directory to regenerate it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_image.h"
#include "sim/isa/isa_inst.h"
#include "sim/isa/isa_names.h"

typedef struct rl_cov_family_s {
  uint32_t encoding;
  const rl_isa_table_t* table;  // NULL: nothing modelled
  uint32_t first, last;         // name-table opcode range listed here
} rl_cov_family_t;

// VOP3 lists its own opcodes (0x200 and up): the e64 forms of VOP1, VOP2
// and VOPC follow their e32 entries.
static const rl_cov_family_t rl_cov_families[] = {
    {RL_ISA_ENC_SOP1, &rl_isa_table_sop1, 0, 0xff},
    {RL_ISA_ENC_SOP2, &rl_isa_table_sop2, 0, 0x7f},
    {RL_ISA_ENC_SOPK, &rl_isa_table_sopk, 0, 0x1f},
    {RL_ISA_ENC_SOPC, &rl_isa_table_sopc, 0, 0x7f},
    {RL_ISA_ENC_SOPP, &rl_isa_table_sopp, 0, 0x7f},
    {RL_ISA_ENC_SMEM, &rl_isa_table_smem, 0, 0xff},
    {RL_ISA_ENC_VOP1, &rl_isa_table_vop1, 0, 0xff},
    {RL_ISA_ENC_VOP2, &rl_isa_table_vop2, 0, 0x3f},
    {RL_ISA_ENC_VOPC, &rl_isa_table_vopc, 0, 0xff},
    {RL_ISA_ENC_VOP3, &rl_isa_table_vop3, 0x200, 0x3ff},
    {RL_ISA_ENC_VOP3P, &rl_isa_table_vop3p, 0, 0x7f},
    {RL_ISA_ENC_VOPD, &rl_isa_table_vopd, 0, 0x1f},
    {RL_ISA_ENC_DS, &rl_isa_table_ds, 0, 0xff},
    {RL_ISA_ENC_FLAT, &rl_isa_table_flat, 0, 0x7f},
    {RL_ISA_ENC_GLOBAL, &rl_isa_table_global, 0, 0x7f},
    {RL_ISA_ENC_SCRATCH, &rl_isa_table_scratch, 0, 0x7f},
    {RL_ISA_ENC_MUBUF, &rl_isa_table_mubuf, 0, 0xff},
    {RL_ISA_ENC_MTBUF, NULL, 0, 0xf},
    {RL_ISA_ENC_MIMG, &rl_isa_table_mimg, 0, 0xff},
    {RL_ISA_ENC_VINTERP, NULL, 0, 0x7f},
    {RL_ISA_ENC_LDSDIR, NULL, 0, 3},
};

typedef struct rl_cov_text_s {
  char* data;
  size_t size, capacity;
} rl_cov_text_t;

static void rl_cov_printf(rl_cov_text_t* t, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
static void rl_cov_printf(rl_cov_text_t* t, const char* format, ...) {
  va_list args;
  va_start(args, format);
  char line[8192];
  int n = vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  assert_true(n >= 0 && (size_t)n < sizeof(line));
  if (t->size + (size_t)n + 1 > t->capacity) {
    t->capacity = (t->capacity + (size_t)n + 1) * 2;
    t->data = realloc(t->data, t->capacity);
    assert_non_null(t->data);
  }
  memcpy(t->data + t->size, line, (size_t)n + 1);
  t->size += (size_t)n;
}

// Appends |name| to a comma-separated paragraph, wrapping at 78 columns.
static void rl_cov_word(rl_cov_text_t* t, size_t* column, const char* name,
                        bool* first) {
  size_t length = strlen(name) + 4;
  if (!*first && *column + length + 2 > 78) {
    rl_cov_printf(t, ",\n");
    *column = 0;
  } else if (!*first) {
    rl_cov_printf(t, ", ");
    *column += 2;
  }
  rl_cov_printf(t, "`%s`", name);
  *column += length;
  *first = false;
}

static void rl_cov_family(rl_cov_text_t* t, const rl_cov_family_t* f) {
  uint32_t modelled = 0, refused = 0;
  const rl_isa_name_table_t* names = &rl_isa_name_tables[f->encoding];
  for (uint32_t i = 0; i < names->count; ++i) {
    uint32_t op = names->names[i].opcode;
    if (op < f->first || op > f->last) continue;
    if (f->table && rl_isa_table_find(f->table, op)) ++modelled;
    else ++refused;
  }
  uint32_t extra = 0;  // modelled opcodes gfx1100 does not name (gfx1150+)
  for (const rl_isa_table_t* tb = f->table; tb; tb = tb->next) {
    for (uint32_t i = 0; i < tb->count; ++i) {
      if (tb->ops[i].opcode >= f->first && tb->ops[i].opcode <= f->last &&
          !rl_isa_opcode_name(f->encoding, tb->ops[i].opcode)) {
        ++extra;
      }
    }
  }
  rl_cov_printf(t, "\n## %s\n\n", rl_isa_encoding_name(f->encoding));
  rl_cov_printf(t, "%u of %u gfx1100 opcodes modelled", modelled,
                modelled + refused);
  if (extra) rl_cov_printf(t, " (+%u that gfx1100 lacks)", extra);
  rl_cov_printf(t, ".\n");
  size_t column = 0;
  bool first = true;
  if (f->table) {
    rl_cov_printf(t, "\nModelled:\n");
    for (uint32_t op = f->first; op <= f->last; ++op) {
      const rl_isa_op_t* entry = rl_isa_table_find(f->table, op);
      if (entry) {
        char name[80];
        snprintf(name, sizeof(name), "%s%s", entry->name,
                 (entry->flags & RL_ISA_F_SALU_FLOAT) ? " (gfx1150+)" : "");
        rl_cov_word(t, &column, name, &first);
      }
    }
    rl_cov_printf(t, ".\n");
  }
  if (refused == 0) return;
  rl_cov_printf(t, "\nRefused:\n");
  column = 0;
  first = true;
  for (uint32_t i = 0; i < names->count; ++i) {
    uint32_t op = names->names[i].opcode;
    if (op < f->first || op > f->last) continue;
    if (f->table && rl_isa_table_find(f->table, op)) continue;
    rl_cov_word(t, &column, names->names[i].name, &first);
  }
  rl_cov_printf(t, ".\n");
}

static const char rl_cov_header[] =
    "# ISA coverage of the `isa` executor\n"
    "\n"
    "GENERATED by `tests/unit/sim/isa/isa_coverage_test.c` (`isa_coverage_test "
    "--write`);\n"
    "do not edit. The test fails when this file and the executor's opcode\n"
    "tables disagree.\n"
    "\n"
    "The simulator's `isa` executor (sim/isa/) interprets gfx11 "
    "wave32\n"
    "machine code. Per encoding, this lists the opcodes it models and the "
    "ones it\n"
    "refuses, by their LLVM mnemonic. The names come from llvm-mc-19\n"
    "(`tools/isa_names_gen.py`), the semantics from the AMD \"RDNA3 "
    "Instruction\n"
    "Set Architecture\" reference guide (each source file cites its "
    "section).\n"
    "\n"
    "A kernel holding a refused instruction is refused before anything "
    "runs: the\n"
    "replay contract fails (exit 4) and a direct dispatch faults before "
    "its first\n"
    "work-group, naming the kernel, the mnemonic and the PC. "
    "`redline kernels\n"
    "CODEOBJECT --isa` lists every such instruction of every kernel.\n"
    "\n"
    "Modifier forms modelled (each with conformance cases, "
    "docs/isa-conformance.md):\n"
    "DPP16 and DPP8 on the VOP1/VOP2/VOPC forms and DPP16 on the VOP3 forms "
    "of the plain\n"
    "32-bit VALU operations and compares (`sim/isa/isa_dpp.c`; gfx11 "
    "has no SDWA), VOP3\n"
    "`op_sel` on binary16 register operands and results, VOP3 `omod` on "
    "binary32\n"
    "results (ignored under IEEE_MODE, as the hardware does).\n"
    "\n"
    "MODE (`sim/isa/isa_mode.c`): each wave starts with the "
    "descriptor's float\n"
    "mode and changes its own copy with `s_denorm_mode`, `s_round_mode` and "
    "`s_setreg_b32`/\n"
    "`s_setreg_imm32_b32` on `HW_REG_MODE` (`s_getreg_b32` reads it back). "
    "Modelled:\n"
    "round to nearest even, binary32 FP_DENORM 0 (flush) or 3 (keep), "
    "binary16/64\n"
    "FP_DENORM 3; a constant setting anything else is refused at load time, a "
    "register\n"
    "value when the instruction runs. Other hardware registers are refused.\n"
    "\n"
    "Images (`sim/isa/isa_image.c`): `image_sample_lz` (gfx11 MIMG without NSA,\n"
    "gfx12 VSAMPLE), what HIP's `tex1D`/`tex2D` compile to, over 1-D and 2-D linear\n"
    "images of one mip level with 1, 2 or 4 channels of 8/16/32-bit UINT or SINT or\n"
    "32-bit FLOAT, point filtering, wrap and clamp-to-last-texel addressing, normalized or\n"
    "unnormalized coordinates. The texel is floor(u) after u (the coordinate times the\n"
    "size, or the coordinate) is rounded to 1/256 of a texel: hardware's sub-texel\n"
    "precision is not published, HIP's point-filter snapping (floor(x * w) * rcp(w))\n"
    "needs rounding of this kind, and D3D asks for at least 8 fractional bits.\n"
    "Refused at load time: NSA, A16, D16, TFE/LWE, R128, DIM other than 1D/2D, DMASK\n"
    "0; when the instruction runs, naming the field and value: other formats, tiled\n"
    "SW_MODE, mip levels, a TYPE not matching DIM, bilinear or anisotropic\n"
    "XY_MAG/MIN_FILTER (the 8-bit fixed-point weights of linear filtering are not\n"
    "publicly specified to the bit), mirror and border CLAMP modes. Descriptor fields:\n"
    "ROCR-Runtime `src/image/resource_gfx11.h` (SQ_IMG_RSRC_WORD0-4, SQ_IMG_SAMP_WORD0/2),\n"
    "used for gfx12 too (HIP's gfx1201 device code reads HEIGHT at the same bits; the\n"
    "rest of the gfx12 layout is not verified against hardware).\n"
    "\n"
    "Forms refused even for a modelled opcode: DPP on carry-outs, "
    "64-bit\n"
    "operands, VOP3P, accumulators, implicit VCC and the opcodes LLVM has no "
    "DPP form\n"
    "of; `op_sel` on 32-bit or integer operands and constants; `omod` on "
    "other\n"
    "results; `abs`/`neg` on integer operands (except the two data "
    "sources of\n`v_cndmask_b32`, where they act on bit 31), `clamp` except "
    "on binary32\n"
    "results and the saturating integer adds, 16-bit operands in a VGPR high "
    "half\n"
    "(`v1.h`), VOP3P `clamp` and (for the integer packed ops) `neg` and "
    "constants,\n"
    "`op_sel` on `v_dot4`, binary16 constants of `v_fma_mix`, aperture "
    "registers as\n"
    "operands, GDS (but the GWS instructions carry the bit), "
    "`ds_swizzle_b32`'s\nrotate and FFT modes (offset >= 0xc000;\n"
    "its quad-permute and bit-mask modes are modelled, "
    "`sim/isa/isa_permute.c`).\n"
    "Float model and tolerances: `sim/isa/isa_float.h`, "
    "`isa_f16.h`;\n"
    "atomics and their memory order: `sim/isa/isa_atomic.c`.\n"
    "\n"
    "gfx12 (gfx1200/gfx1201) decodes with its own tables: the gfx12-only "
    "opcodes,\n"
    "among them the sub-dword scalar loads `s_load_u8`, `s_load_i8`, "
    "`s_load_u16`,\n"
    "`s_load_i16` (not `s_buffer_load_*`), are listed in "
    "docs/isa-gfx12.md.\n";

static char* rl_cov_generate(void) {
  rl_cov_text_t t = {0};
  rl_cov_printf(&t, "%s", rl_cov_header);
  for (size_t i = 0; i < sizeof(rl_cov_families) / sizeof(rl_cov_families[0]);
       ++i) {
    rl_cov_family(&t, &rl_cov_families[i]);
  }
  return t.data;
}

static bool rl_cov_write;

static void test_coverage_doc_is_current(void** state) {
  (void)state;
  char* text = rl_cov_generate();
  if (rl_cov_write) {
    FILE* file = fopen(RL_ISA_COVERAGE_DOC, "w");
    assert_non_null(file);
    fputs(text, file);
    fclose(file);
  }
  FILE* file = fopen(RL_ISA_COVERAGE_DOC, "rb");
  if (file == NULL) fail_msg("%s is missing: run isa_coverage_test --write",
                             RL_ISA_COVERAGE_DOC);
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char* doc = calloc(1, (size_t)size + 1);
  assert_int_equal(fread(doc, 1, (size_t)size, file), (size_t)size);
  fclose(file);
  if (strcmp(doc, text) != 0) {
    fail_msg("%s is stale: run isa_coverage_test --write", RL_ISA_COVERAGE_DOC);
  }
  // Negative control: a changed document is detected.
  doc[0] = doc[0] == '#' ? '!' : '#';
  assert_true(strcmp(doc, text) != 0);
  free(doc);
  free(text);
}

int main(int argc, char** argv) {
  rl_cov_write = argc > 1 && strcmp(argv[1], "--write") == 0;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_coverage_doc_is_current),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
