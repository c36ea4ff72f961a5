// Tests of the gfx12 (RDNA4) decoder and tables of the ISA executor
// (sim/isa/isa_gfx12.h) against the compiler:
//   - every line of tests/data/isa_names_gfx12.txt (one disassembled probe
//     per gfx12 opcode, tools/isa_names_gen.py --gfx12) is assembled by
//     llvm-mc-19 -mcpu=gfx1201; decoded with the gfx12 feature, each must
//     give the line's family, opcode, mnemonic and length;
//   - every entry of every gfx12 opcode table is named as the gfx12 name
//     table names its opcode (so a wrong opcode in a gfx12-only row or a
//     wrong join is caught), and every gfx12-only row made it into a table;
//   - the operand fields of the changed layouts (SMEM offset/soffset,
//     VGLOBAL saddr/offset/vdata, TH/SCOPE) on llvm-mc-19 encodings;
//   - negative controls: the same lines decoded with the gfx11 tables
//     disagree; a gfx12-only row with a wrong opcode is caught.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "sim/isa/isa_gfx12.h"
#include "sim/isa/isa_inst.h"
#include "sim/isa/isa_names.h"
#include "tests/unit/sim/isa/isa_test_util.h"

#define RL_G12_MAX 4096
#define RL_G12_FEATURES (RL_ISA_FEATURE_SALU_FLOAT | RL_ISA_FEATURE_GFX12)

typedef rl_isa_name_line_t rl_g12_line_t;

static uint32_t rl_g12_load(rl_g12_line_t* out) {
  return rl_isa_test_load_names(RL_ISA_NAMES_GFX12_DATA, out, RL_G12_MAX);
}

// Decodes |encoded| with |features|; why it disagrees with |line|, or NULL.
static const char* rl_g12_mismatch(const rl_g12_line_t* line,
                                   const rl_isa_encoded_t* encoded,
                                   uint32_t features) {
  static char message[512];
  rl_isa_inst_t inst;
  rl_isa_decode(encoded->words, encoded->count, features, &inst);
  // VOPD: the probe's Y half is the opcode named.
  uint32_t opcode =
      inst.encoding == RL_ISA_ENC_VOPD ? inst.opcode_y : inst.opcode;
  const char* name = inst.encoding == RL_ISA_ENC_VOPD
                         ? rl_isa_opcode_name_in(rl_isa_name_tables_gfx12,
                                                 RL_ISA_ENC_VOPD, opcode)
                         : rl_isa_inst_name(&inst);
  if (inst.encoding != line->encoding || opcode != line->opcode ||
      inst.size != 4 * encoded->count || name == NULL ||
      strcmp(name, line->mnemonic) != 0) {
    snprintf(message, sizeof(message),
             "\"%s\" (%u bytes): decoded as %s opcode 0x%x %s (%u bytes), "
             "llvm says %s 0x%x %s",
             line->text, 4 * encoded->count,
             rl_isa_encoding_name(inst.encoding), opcode,
             name ? name : "(none)", inst.size,
             rl_isa_encoding_name(line->encoding), line->opcode,
             line->mnemonic);
    return message;
  }
  return NULL;
}

typedef struct rl_g12_data_s {
  rl_g12_line_t* lines;
  rl_isa_encoded_t* encoded;
  uint32_t count;
} rl_g12_data_t;

static int rl_g12_setup(void** state) {
  rl_g12_data_t* data = calloc(1, sizeof(*data));
  data->lines = calloc(RL_G12_MAX, sizeof(*data->lines));
  data->encoded = calloc(RL_G12_MAX, sizeof(*data->encoded));
  const char** texts = calloc(RL_G12_MAX, sizeof(*texts));
  assert_true(data && data->lines && data->encoded && texts);
  data->count = rl_g12_load(data->lines);
  assert_true(data->count > 1000);
  for (uint32_t i = 0; i < data->count; ++i) texts[i] = data->lines[i].text;
  rl_isa_test_assemble_batch("gfx1201", texts, data->count, data->encoded);
  free(texts);
  *state = data;
  return 0;
}

static int rl_g12_teardown(void** state) {
  rl_g12_data_t* data = *state;
  free(data->lines);
  free(data->encoded);
  free(data);
  return 0;
}

static void test_every_gfx12_opcode_decodes_as_llvm(void** state) {
  rl_g12_data_t* data = *state;
  uint32_t entries = 0;
  for (uint32_t e = 0; e < RL_ISA_ENC_COUNT; ++e) {
    entries += rl_isa_name_tables_gfx12[e].count;
  }
  assert_int_equal(entries, data->count);  // every name has its line
  for (uint32_t i = 0; i < data->count; ++i) {
    const char* message =
        rl_g12_mismatch(&data->lines[i], &data->encoded[i], RL_G12_FEATURES);
    if (message) fail_msg("%s", message);
  }
  print_message("%u gfx12 opcodes decode as llvm-mc-19 encodes them\n",
                data->count);
}

// Negative control: the gfx11 decoder disagrees on the changed families.
static void test_gfx11_tables_disagree(void** state) {
  rl_g12_data_t* data = *state;
  uint32_t wrong = 0, smem = 0, vmem = 0;
  for (uint32_t i = 0; i < data->count; ++i) {
    if (rl_g12_mismatch(&data->lines[i], &data->encoded[i],
                        RL_ISA_FEATURE_SALU_FLOAT) == NULL) {
      continue;
    }
    ++wrong;
    if (data->lines[i].encoding == RL_ISA_ENC_SMEM) ++smem;
    if (data->lines[i].encoding == RL_ISA_ENC_GLOBAL) ++vmem;
  }
  assert_true(smem > 10);
  assert_true(vmem > 40);
  print_message("read as gfx11: %u of %u disagree\n", wrong, data->count);
}

// Every modelled gfx12 opcode is named as llvm names its opcode.
static const char* rl_g12_table_mismatch(uint32_t encoding,
                                         const rl_isa_op_t* op) {
  static char message[256];
  const char* name =
      rl_isa_opcode_name_in(rl_isa_name_tables_gfx12, encoding, op->opcode);
  if (name == NULL || strcmp(name, op->name) != 0) {
    snprintf(message, sizeof(message), "%s opcode 0x%x: table %s, llvm %s",
             rl_isa_encoding_name(encoding), op->opcode, op->name,
             name ? name : "(none)");
    return message;
  }
  return NULL;
}

static void test_tables_named_by_llvm(void** state) {
  (void)state;
  uint32_t modelled = 0;
  for (uint32_t e = 0; e < RL_ISA_ENC_COUNT; ++e) {
    const rl_isa_table_t* table = rl_isa_gfx12_table_of(e);
    if (table == NULL) continue;
    for (uint32_t i = 0; i < table->count; ++i) {
      const char* message = rl_g12_table_mismatch(e, &table->ops[i]);
      if (message) fail_msg("%s", message);
      if (i > 0) assert_true(table->ops[i - 1].opcode < table->ops[i].opcode);
    }
    modelled += table->count;
  }
  for (uint32_t i = 0; i < rl_isa_gfx12_extra_count; ++i) {
    const rl_isa_gfx12_extra_t* extra = &rl_isa_gfx12_extras[i];
    const rl_isa_op_t* op = rl_isa_table_find(
        rl_isa_gfx12_table_of(extra->encoding), extra->op.opcode);
    if (op == NULL || strcmp(op->name, extra->op.name) != 0) {
      fail_msg("gfx12-only %s (0x%x) is not in its table", extra->op.name,
               extra->op.opcode);
    }
    assert_non_null(op->exec);
  }
  for (uint32_t i = 0; i < rl_isa_gfx12_rename_count; ++i) {
    // Every rename names a gfx12 opcode that made it into a table.
    bool found = false;
    for (uint32_t e = 0; e < RL_ISA_ENC_COUNT && !found; ++e) {
      const rl_isa_table_t* table = rl_isa_gfx12_table_of(e);
      for (uint32_t j = 0; table && j < table->count; ++j) {
        if (strcmp(table->ops[j].name, rl_isa_gfx12_renames[i].gfx12) == 0) {
          found = true;
        }
      }
    }
    if (!found) fail_msg("rename %s joined nothing", rl_isa_gfx12_renames[i].gfx12);
  }
  print_message("%u gfx12 opcodes modelled, each named as llvm names it\n",
                modelled);
}

// Negative control: a gfx12-only row with a wrong opcode is caught.
static void test_table_check_can_fail(void** state) {
  (void)state;
  rl_isa_op_t wrong = rl_isa_gfx12_extras[0].op;  // s_wait_loadcnt 0x40
  wrong.opcode = 0x41;
  assert_non_null(rl_g12_table_mismatch(RL_ISA_ENC_SOPP, &wrong));
  wrong.opcode = 0x40;
  assert_null(rl_g12_table_mismatch(RL_ISA_ENC_SOPP, &wrong));
}

static void rl_g12_decode_line(const char* text, rl_isa_inst_t* inst) {
  rl_isa_encoded_t encoded;
  rl_isa_test_assemble("gfx1201", text, &encoded);
  assert_true(rl_isa_decode(encoded.words, encoded.count, RL_G12_FEATURES,
                            inst));
  assert_int_equal(inst->size, 4 * encoded.count);
}

// The operand fields of the changed layouts.
static void isa_gfx12_decode_fills_operand_fields_of_changed_layouts(
    void** state) {
  (void)state;
  rl_isa_inst_t inst;
  rl_g12_decode_line("s_load_b64 s[4:5], s[2:3], s6 offset:-0x10", &inst);
  assert_int_equal(inst.addr, 2);
  assert_int_equal(inst.dst, 4);
  assert_int_equal(inst.saddr, 6);
  assert_int_equal(inst.offset, -16);
  rl_g12_decode_line("s_load_b96 s[8:10], s[0:1], 0x7ffff0 scope:SCOPE_SYS",
                     &inst);
  assert_int_equal(inst.offset, 0x7ffff0);
  assert_int_equal(inst.saddr, 124);
  assert_int_equal(inst.op->arg, 3);
  assert_int_equal(inst.glc_slc_dlc & 1, 1);  // a scalar-cache miss
  rl_g12_decode_line("global_load_b32 v1, v2, s[4:5] offset:-0x800000", &inst);
  assert_int_equal(inst.vdst, 1);
  assert_int_equal(inst.addr, 2);
  assert_int_equal(inst.saddr, 4);
  assert_int_equal(inst.offset, -0x800000);
  assert_int_equal(inst.glc_slc_dlc, 0);
  rl_g12_decode_line("global_store_b64 v[2:3], v[250:251], off offset:0x7fffff "
                     "scope:SCOPE_DEV",
                     &inst);
  assert_int_equal(inst.data0, 250);
  assert_int_equal(inst.addr, 2);
  assert_int_equal(inst.saddr, 124);
  assert_int_equal(inst.offset, 0x7fffff);
  assert_int_equal(inst.glc_slc_dlc, 3);  // beyond L0 and GL1
  rl_g12_decode_line("global_atomic_add_u32 v7, v2, v3, s[0:1] "
                     "th:TH_ATOMIC_RETURN",
                     &inst);
  assert_int_equal(inst.vdst, 7);
  assert_int_equal(inst.data0, 3);
  assert_int_equal(inst.glc_slc_dlc & 2, 2);  // returns the old value
  rl_g12_decode_line("global_inv scope:SCOPE_SE", &inst);
  assert_int_equal(inst.th_scope >> 3, 1);
  rl_g12_decode_line("v_s_rcp_f32 s7, s3", &inst);
  assert_int_equal(inst.dst, 7);
  assert_int_equal(inst.src[0].reg, 3);
}

// Forms refused statically, by reason.
static void isa_gfx12_unmodelled_forms_are_refused_with_a_reason(void** state) {
  (void)state;
  rl_isa_inst_t inst;
  rl_g12_decode_line("s_barrier_signal -1", &inst);
  assert_null(rl_isa_gfx12_reason(&inst));
  rl_g12_decode_line("s_barrier_signal 1", &inst);
  assert_non_null(rl_isa_gfx12_reason(&inst));
  rl_g12_decode_line("v_add_f32_e64 v1, v2, v3 clamp", &inst);
  assert_non_null(rl_isa_gfx12_reason(&inst));
  rl_g12_decode_line("v_add_nc_u32_e64 v1, v2, v3 clamp", &inst);
  assert_null(rl_isa_gfx12_reason(&inst));
  rl_g12_decode_line("v_mul_f32_e64 v1, v2, v3 mul:2", &inst);
  assert_non_null(rl_isa_gfx12_reason(&inst));
}

// Static refusal before run (isa_executor.h): a gfx1201 kernel is scanned
// as a dispatch predecodes it, and what is not modelled is named by its
// gfx12 LLVM mnemonic; a kernel of modelled instructions passes.
typedef struct rl_g12_seen_s {
  char names[8][64];
  uint32_t count;
} rl_g12_seen_t;

static void rl_g12_visit(void* context, const rl_isa_unmodelled_t* inst) {
  rl_g12_seen_t* seen = context;
  if (seen->count < 8) {
    snprintf(seen->names[seen->count++], 64, "%s", inst->mnemonic);
  }
}

static uint32_t rl_g12_scan(const char* const* lines, uint32_t count,
                            rl_g12_seen_t* seen) {
  rl_isa_encoded_t encoded[8];
  rl_isa_test_assemble_batch("gfx1201", lines, count, encoded);
  uint32_t image[32] = {0}, words = 0;
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t w = 0; w < encoded[i].count; ++w) {
      image[words++] = encoded[i].words[w];
    }
  }
  uint32_t instructions = 0, unmodelled = 0;
  memset(seen, 0, sizeof(*seen));
  assert_null(rl_isa_scan_kernel("gfx1201", image, sizeof(image), 0,
                                 rl_g12_visit, seen, &instructions,
                                 &unmodelled));
  assert_int_equal(instructions, count);
  return unmodelled;
}

static void test_static_refusal_names_gfx12_mnemonics(void** state) {
  (void)state;
  rl_g12_seen_t seen;
  const char* const refused[] = {
      "s_load_b32 s4, s[0:1], 0x0", "v_med3_num_f32 v1, v2, v3, v4",
      "buffer_load_b32 v1, v2, s[4:7], s3 offen", "s_barrier_signal 1",
      // gfx12 has no IEEE bit (MODE bit 9 on gfx11): setting it is refused
      "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 9, 1), 1", "s_endpgm"};
  assert_int_equal(rl_g12_scan(refused, 6, &seen), 4);
  assert_string_equal(seen.names[0], "v_med3_num_f32");
  assert_string_equal(seen.names[1], "buffer_load_b32");
  assert_string_equal(seen.names[2], "s_barrier_signal");
  assert_string_equal(seen.names[3], "s_setreg_imm32_b32");
  // Negative control: the same kernel with modelled instructions only.
  const char* const modelled[] = {
      "s_load_b32 s4, s[0:1], 0x0", "s_wait_kmcnt 0x0",
      "v_add_f32_e32 v1, v2, v3", "s_barrier_signal -1",
      "s_barrier_wait -1", "v_max_num_f32_e32 v1, v2, v3",
      "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0xf", "s_endpgm"};
  assert_int_equal(rl_g12_scan(modelled, 8, &seen), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_gfx12_opcode_decodes_as_llvm),
      cmocka_unit_test(test_gfx11_tables_disagree),
      cmocka_unit_test(test_tables_named_by_llvm),
      cmocka_unit_test(test_table_check_can_fail),
      cmocka_unit_test(
          isa_gfx12_decode_fills_operand_fields_of_changed_layouts),
      cmocka_unit_test(isa_gfx12_unmodelled_forms_are_refused_with_a_reason),
      cmocka_unit_test(test_static_refusal_names_gfx12_mnemonics),
  };
  return cmocka_run_group_tests(tests, rl_g12_setup, rl_g12_teardown);
}
