// Tests of the generated gfx11 opcode name tables
// (sim/isa/isa_names_gfx11.c) against the compiler:
//   - every line of tests/data/isa_names_gfx11.txt (one disassembled probe
//     per opcode, written by tools/isa_names_gen.py) is assembled by
//     llvm-mc-19 -show-encoding; the encoding's family and opcode field,
//     extracted here with the RDNA3 ISA guide's field layouts, must be the
//     line's, and rl_isa_opcode_name() must give the line's mnemonic;
//   - an instruction the executor does not model is described by its LLVM
//     mnemonic, not as UNKNOWN.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_inst.h"
#include "sim/isa/isa_names.h"
#include "tests/unit/sim/isa/isa_test_util.h"

#define RL_NT_MAX 4096

typedef rl_isa_name_line_t rl_nt_line_t;

static uint32_t rl_nt_load(rl_nt_line_t* out) {
  return rl_isa_test_load_names(RL_ISA_NAMES_DATA, out, RL_NT_MAX);
}

// The encoding family and opcode field of |w| (RDNA3 ISA guide,
// "Microcode Formats"), written independently of the decoder.
static void rl_nt_fields(const uint32_t* w, uint32_t* out_family,
                         uint32_t* out_opcode) {
  uint32_t x = w[0];
  struct { uint32_t shift, value, family, op_shift, op_mask; } const k[] = {
      {23, 0x17d, RL_ISA_ENC_SOP1, 8, 0xff},
      {23, 0x17e, RL_ISA_ENC_SOPC, 16, 0x7f},
      {23, 0x17f, RL_ISA_ENC_SOPP, 16, 0x7f},
      {28, 0xb, RL_ISA_ENC_SOPK, 23, 0x1f},
      {30, 0x2, RL_ISA_ENC_SOP2, 23, 0x7f},
      {26, 0x3d, RL_ISA_ENC_SMEM, 18, 0xff},
      {25, 0x3f, RL_ISA_ENC_VOP1, 9, 0xff},
      {25, 0x3e, RL_ISA_ENC_VOPC, 17, 0xff},
      {31, 0x0, RL_ISA_ENC_VOP2, 25, 0x3f},
      {26, 0x35, RL_ISA_ENC_VOP3, 16, 0x3ff},
      {24, 0xcc, RL_ISA_ENC_VOP3P, 16, 0x7f},
      {26, 0x32, RL_ISA_ENC_VOPD, 17, 0x1f},  // the Y opcode
      {24, 0xcd, RL_ISA_ENC_VINTERP, 16, 0x7f},
      {24, 0xce, RL_ISA_ENC_LDSDIR, 20, 0x3},
      {26, 0x36, RL_ISA_ENC_DS, 18, 0xff},
      {26, 0x38, RL_ISA_ENC_MUBUF, 18, 0xff},
      {26, 0x3a, RL_ISA_ENC_MTBUF, 15, 0xf},
      {26, 0x3c, RL_ISA_ENC_MIMG, 18, 0xff},
  };
  for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); ++i) {
    if ((x >> k[i].shift) == k[i].value) {
      *out_family = k[i].family;
      *out_opcode = (x >> k[i].op_shift) & k[i].op_mask;
      return;
    }
  }
  if ((x >> 26) == 0x37) {  // FLAT / SCRATCH / GLOBAL by SEG[17:16]
    uint32_t seg = (x >> 16) & 3;
    *out_family = seg == 0   ? RL_ISA_ENC_FLAT
                  : seg == 1 ? RL_ISA_ENC_SCRATCH
                             : RL_ISA_ENC_GLOBAL;
    *out_opcode = (x >> 18) & 0x7f;
    return;
  }
  *out_family = RL_ISA_ENC_UNKNOWN;
  *out_opcode = 0;
}

// Why |line| and its |encoded| form disagree with the table, or NULL.
static const char* rl_nt_mismatch(const rl_nt_line_t* line,
                                  const rl_isa_encoded_t* encoded) {
  static char message[512];
  uint32_t family = 0, opcode = 0;
  rl_nt_fields(encoded->words, &family, &opcode);
  const char* name = rl_isa_opcode_name(line->encoding, line->opcode);
  if (family != line->encoding || opcode != line->opcode) {
    snprintf(message, sizeof(message),
             "\"%s\" assembles to %s opcode 0x%x, the table says %s 0x%x",
             line->text, rl_isa_encoding_name(family), opcode,
             rl_isa_encoding_name(line->encoding), line->opcode);
    return message;
  }
  if (name == NULL || strcmp(name, line->mnemonic) != 0) {
    snprintf(message, sizeof(message), "%s opcode 0x%x: table %s, llvm %s",
             rl_isa_encoding_name(family), opcode, name ? name : "(none)",
             line->mnemonic);
    return message;
  }
  return NULL;
}

static void test_names_match_llvm_mc(void** state) {
  (void)state;
  rl_nt_line_t* lines = calloc(RL_NT_MAX, sizeof(*lines));
  const char** texts = calloc(RL_NT_MAX, sizeof(*texts));
  rl_isa_encoded_t* encoded = calloc(RL_NT_MAX, sizeof(*encoded));
  assert_true(lines && texts && encoded);
  uint32_t count = rl_nt_load(lines);
  assert_true(count > 1000);
  for (uint32_t i = 0; i < count; ++i) texts[i] = lines[i].text;
  rl_isa_test_assemble_batch("gfx1100", texts, count, encoded);
  uint32_t table_entries = 0;
  for (uint32_t e = 0; e < RL_ISA_ENC_COUNT; ++e) {
    table_entries += rl_isa_name_tables[e].count;
  }
  assert_int_equal(table_entries, count);  // every entry has its line
  for (uint32_t i = 0; i < count; ++i) {
    const char* message = rl_nt_mismatch(&lines[i], &encoded[i]);
    if (message) fail_msg("%s", message);
  }
  print_message("%u opcode names agree with llvm-mc-19\n", count);
  free(lines);
  free(texts);
  free(encoded);
}

// Negative control: a wrong claim is caught.
static void test_name_check_can_fail(void** state) {
  (void)state;
  rl_nt_line_t line = {RL_ISA_ENC_VOP3, 0x31f, "v_mbcnt_hi_u32_b32",
                       "v_mbcnt_lo_u32_b32 v4, v1, v2"};
  rl_isa_encoded_t encoded;
  rl_isa_test_assemble("gfx1100", line.text, &encoded);
  assert_non_null(rl_nt_mismatch(&line, &encoded));  // wrong name
  line.opcode = 0x320;
  snprintf(line.mnemonic, sizeof(line.mnemonic), "v_mbcnt_lo_u32_b32");
  assert_non_null(rl_nt_mismatch(&line, &encoded));  // wrong opcode
  line.opcode = 0x31f;
  assert_null(rl_nt_mismatch(&line, &encoded));
}

// An encoding the executor does not model is still named.
static void test_unmodelled_named(void** state) {
  (void)state;
  const char* samples[][2] = {
      {"image_load v1, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D", "image_load"},
      {"v_permlane64_b32 v1, v2", "v_permlane64_b32"},
      {"lds_direct_load v1", "lds_direct_load"},
      {"tbuffer_load_format_x v1, off, s[0:3], 0 format:[BUF_FMT_32_FLOAT]",
       "tbuffer_load_format_x"},
  };
  for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); ++i) {
    rl_isa_encoded_t encoded;
    rl_isa_test_assemble("gfx1100", samples[i][0], &encoded);
    rl_isa_inst_t inst;
    rl_isa_decode(encoded.words, encoded.count, 0, &inst);
    assert_string_equal(rl_isa_inst_name(&inst), samples[i][1]);
    char where[160];
    rl_isa_inst_describe(&inst, where, sizeof(where));
    assert_non_null(strstr(where, samples[i][1]));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names_match_llvm_mc),
      cmocka_unit_test(test_name_check_can_fail),
      cmocka_unit_test(test_unmodelled_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
