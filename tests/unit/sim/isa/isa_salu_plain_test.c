// Tests of the plain SALU runners (sim/isa/isa_salu.c, rl_isa_salu_plain):
// the program builder binds them to the SOP2/SOP1/SOPK/SOPC forms whose
// sources are SGPRs or constants only, and each gives the same SGPRs and
// SCC as the generic runner it replaces, on random registers and SCC (64-
// and 32-bit operands, literals, inline constants, destinations that are
// also sources, EXEC and VCC as operands). The negative control binds a
// wrong plain runner (another opcode's) to an instruction and checks that
// the comparison reports it: one that differs only in SCC, one only in the
// high word of a 64-bit destination, one only in signedness.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

static uint32_t rl_sp_state = 0x9e3779b9u;
static uint32_t rl_sp_random(void) {
  rl_sp_state ^= rl_sp_state << 13;
  rl_sp_state ^= rl_sp_state >> 17;
  rl_sp_state ^= rl_sp_state << 5;
  return rl_sp_state;
}

// A value that often hits the edges the kernels branch on: equal operands,
// zero, the sign bit, all ones, small shift amounts and bit-field widths.
static uint32_t rl_sp_value(void) {
  static const uint32_t edges[] = {0u,          1u, 2u, 31u, 0xffffffffu,
                                   0x80000000u, 0x7fffffffu, 0xffffu,
                                   0x00080004u};
  uint32_t pick = rl_sp_random() % 16u;
  if (pick < sizeof(edges) / sizeof(edges[0])) return edges[pick];
  if (pick < 12) return rl_sp_random() & 0x3fu;
  return rl_sp_random();
}

// SGPRs 0..15, VCC, EXEC and SCC random (the rest keep what the last run
// left there, the same for both runners).
static void rl_sp_randomize(rl_isa_wave_t* wave) {
  for (uint32_t r = 0; r < 16; ++r) wave->sgpr[r] = rl_sp_value();
  wave->sgpr[RL_ISA_SRC_VCC] = rl_sp_value();
  wave->sgpr[RL_ISA_SRC_EXEC] = rl_sp_random();
  wave->scc = rl_sp_random() & 1u;
}

typedef struct rl_sp_regs_s {
  uint32_t sgpr[RL_ISA_SGPRS];
  uint32_t scc;
} rl_sp_regs_t;

static void rl_sp_save(const rl_isa_wave_t* wave, rl_sp_regs_t* out) {
  memcpy(out->sgpr, wave->sgpr, sizeof(out->sgpr));
  out->scc = wave->scc;
}

static void rl_sp_restore(rl_isa_wave_t* wave, const rl_sp_regs_t* regs) {
  memcpy(wave->sgpr, regs->sgpr, sizeof(regs->sgpr));
  wave->scc = regs->scc;
}

// Runs |a| and |b| on |inst| from the same random state, |rounds| times;
// true as soon as their SGPRs or SCC differ.
static bool rl_sp_differ(rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                         rl_isa_exec_fn a, rl_isa_exec_fn b,
                         uint32_t rounds) {
  rl_sp_regs_t before, after_a, after_b;
  for (uint32_t round = 0; round < rounds; ++round) {
    rl_sp_randomize(wave);
    rl_sp_save(wave, &before);
    assert_int_equal(a(wave, inst), RL_OK);
    rl_sp_save(wave, &after_a);
    rl_sp_restore(wave, &before);
    assert_int_equal(b(wave, inst), RL_OK);
    rl_sp_save(wave, &after_b);
    if (memcmp(&after_a, &after_b, sizeof(after_a)) != 0) return true;
  }
  return false;
}

// Plain forms: bound to a runner of their own.
static const char* const rl_sp_plain[] = {
    "s_add_u32 s4, s0, s1",
    "s_addc_u32 s5, s2, 7",
    "s_sub_u32 s6, s6, s3",  // the destination is a source
    "s_sub_i32 s7, -5, s1",
    "s_add_i32 s8, s2, 0x12345678",  // a literal
    "s_subb_u32 s9, s1, s2",
    "s_absdiff_i32 s10, s0, s1",
    "s_lshl_b32 s4, s0, s1",
    "s_lshl_b64 s[4:5], s[0:1], s2",
    "s_lshr_b32 s4, s0, s1",
    "s_lshr_b64 s[6:7], s[2:3], 3",
    "s_ashr_i32 s4, s0, 31",
    "s_ashr_i64 s[8:9], s[8:9], s1",
    "s_lshl1_add_u32 s4, s0, s1",
    "s_lshl4_add_u32 s4, s0, s1",
    "s_min_i32 s4, s0, s1",
    "s_min_u32 s4, s0, s1",
    "s_max_i32 s4, s0, s1",
    "s_max_u32 s4, s0, s1",
    "s_and_b32 s4, s0, s1",
    "s_and_b32 s4, exec_lo, vcc_lo",
    "s_and_b64 s[4:5], s[0:1], s[2:3]",
    "s_or_b32 s4, s0, -1",
    "s_or_b64 s[4:5], s[0:1], 0x80000000",  // a 64-bit literal operand
    "s_xor_b32 s4, s0, s1",
    "s_xor_b64 s[4:5], s[4:5], -1",
    "s_nand_b32 s4, s0, s1",
    "s_nor_b32 s4, s0, s1",
    "s_xnor_b32 s4, s0, s1",
    "s_and_not1_b32 s4, s0, s1",
    "s_and_not1_b64 s[4:5], s[0:1], s[2:3]",
    "s_or_not1_b32 s4, s0, s1",
    "s_or_not1_b64 s[4:5], s[0:1], s[2:3]",
    "s_bfe_u32 s4, s0, s1",
    "s_bfe_i32 s4, s0, 0x80004",
    "s_bfe_i32 s4, s0, s1",
    "s_bfe_u64 s[4:5], s[0:1], s2",
    "s_bfm_b32 s4, s0, s1",
    "s_mul_i32 s4, s0, s1",
    "s_mul_hi_u32 s4, s0, s1",
    "s_mul_hi_i32 s4, s0, s1",
    "s_cselect_b32 s4, s0, s1",
    "s_cselect_b64 s[4:5], s[0:1], 0",
    "s_pack_ll_b32_b16 s4, s0, s1",
    "s_pack_lh_b32_b16 s4, s0, s1",
    "s_pack_hh_b32_b16 s4, s0, s1",
    "s_mov_b32 s4, s0",
    "s_mov_b32 s4, null",
    "s_mov_b32 exec_lo, s0",
    "s_mov_b64 s[4:5], s[0:1]",
    "s_mov_b64 s[4:5], -1",
    "s_mov_b64 s[4:5], 0.5",  // a 64-bit inline float
    "s_cmov_b32 s4, s0",
    "s_cmov_b64 s[4:5], s[2:3]",
    "s_brev_b32 s4, s0",
    "s_ctz_i32_b32 s4, s0",
    "s_ctz_i32_b64 s4, s[0:1]",
    "s_clz_i32_u32 s4, s0",
    "s_clz_i32_u64 s4, s[0:1]",
    "s_cls_i32 s4, s0",
    "s_cls_i32_i64 s4, s[0:1]",
    "s_sext_i32_i8 s4, s0",
    "s_sext_i32_i16 s4, s0",
    "s_bitset1_b32 s4, s0",
    "s_abs_i32 s4, s0",
    "s_bcnt1_i32_b32 s4, s0",
    "s_not_b32 s4, s0",
    "s_not_b64 s[4:5], s[0:1]",
    "s_movk_i32 s4, 0x8000",
    "s_cmovk_i32 s4, 0x1234",
    "s_cmpk_eq_i32 s0, 1",
    "s_cmpk_lg_i32 s0, 0",
    "s_cmpk_gt_i32 s0, -1",
    "s_cmpk_ge_i32 s0, 31",
    "s_cmpk_lt_i32 s0, 2",
    "s_cmpk_le_i32 s0, 0x7fff",
    "s_cmpk_eq_u32 s0, 0xffff",
    "s_cmpk_lg_u32 s0, 1",
    "s_cmpk_gt_u32 s0, 0x8000",
    "s_cmpk_ge_u32 s0, 2",
    "s_cmpk_lt_u32 s0, 31",
    "s_cmpk_le_u32 s0, 0",
    "s_addk_i32 s4, 0x8000",
    "s_mulk_i32 s4, 3",
    "s_cmp_eq_i32 s0, s1",
    "s_cmp_lg_i32 s0, 0",
    "s_cmp_gt_i32 s0, s1",
    "s_cmp_ge_i32 s0, -1",
    "s_cmp_lt_i32 s0, s1",
    "s_cmp_le_i32 s0, s1",
    "s_cmp_eq_u32 s0, s1",
    "s_cmp_lg_u32 s0, s1",
    "s_cmp_gt_u32 s0, 0x80000000",
    "s_cmp_ge_u32 s0, s1",
    "s_cmp_lt_u32 s0, s1",
    "s_cmp_le_u32 s0, 2",
    "s_bitcmp0_b32 s0, s1",
    "s_bitcmp1_b32 s0, 3",
    "s_cmp_eq_u64 s[0:1], s[2:3]",
    "s_cmp_lg_u64 s[0:1], 0",
};
#define RL_SP_PLAIN (sizeof(rl_sp_plain) / sizeof(rl_sp_plain[0]))

// Forms the generic runners keep: an SCC source (llvm-mc refuses VCCZ and
// EXECZ on gfx11), and the SALU opcodes without a plain runner.
static const char* const rl_sp_generic[] = {
    "s_add_u32 s4, src_scc, s1",
    "s_mov_b32 s4, src_scc",
    "s_cselect_b32 s4, s0, src_scc",
    "s_cmp_eq_u32 s0, src_scc",
    "s_and_saveexec_b32 s4, s0",
    "s_getpc_b64 s[4:5]",
};
#define RL_SP_GENERIC (sizeof(rl_sp_generic) / sizeof(rl_sp_generic[0]))

// The predecoded instruction of rl_sp_plain[|i|]: the list is loaded in
// chunks (a snippet holds fewer than 64 lines).
#define RL_SP_CHUNK 48u
static const rl_isa_inst_t* rl_sp_load(rl_isa_snippet_t* s, uint32_t i) {
  uint32_t first = i - i % RL_SP_CHUNK;
  if (i == first) {
    uint32_t count = RL_SP_PLAIN - first;
    rl_isa_snippet_load(s, rl_sp_plain + first,
                        count < RL_SP_CHUNK ? count : RL_SP_CHUNK);
  }
  return rl_isa_snippet_inst(s, i - first);
}

static void rl_sp_bound(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  for (uint32_t i = 0; i < RL_SP_PLAIN; ++i) {
    const rl_isa_inst_t* inst = rl_sp_load(s, i);
    if (inst->exec == inst->op->exec || inst->exec != rl_isa_salu_plain(inst)) {
      fail_msg("\"%s\" is not bound to a plain runner", rl_sp_plain[i]);
    }
  }
  rl_isa_snippet_load(s, rl_sp_generic, RL_SP_GENERIC);
  for (uint32_t i = 0; i < RL_SP_GENERIC; ++i) {
    const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
    if (inst->exec != inst->op->exec || rl_isa_salu_plain(inst) != NULL) {
      fail_msg("\"%s\" is not bound to the generic runner", rl_sp_generic[i]);
    }
  }
  rl_isa_snippet_destroy(s);
}

static void rl_sp_same_as_generic(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  for (uint32_t i = 0; i < RL_SP_PLAIN; ++i) {
    const rl_isa_inst_t* inst = rl_sp_load(s, i);
    if (rl_sp_differ(wave, inst, inst->exec, inst->op->exec, 256)) {
      fail_msg("\"%s\": the plain runner's SGPRs or SCC differ from the "
               "generic runner's",
               rl_sp_plain[i]);
    }
  }
  rl_isa_snippet_destroy(s);
}

// A wrong plain runner bound to an instruction is caught by the same
// comparison: |wrong| runs |line|'s instruction with the plain runner of
// |other| (an opcode with the same operand layout).
static void rl_sp_expect_caught(rl_isa_snippet_t* s, const char* line,
                                const char* other) {
  const char* const lines[] = {line, other};
  rl_isa_snippet_load(s, lines, 2);
  const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, 0);
  rl_isa_exec_fn wrong = rl_isa_snippet_inst(s, 1)->exec;
  assert_true(wrong != inst->exec && wrong != inst->op->exec);
  if (!rl_sp_differ(rl_isa_snippet_wave(s), inst, wrong, inst->op->exec,
                    256)) {
    fail_msg("the plain runner of \"%s\" bound to \"%s\" was not caught",
             other, line);
  }
}

static void rl_sp_wrong_runner_caught(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  // The same result, another SCC (overflow instead of carry).
  rl_sp_expect_caught(s, "s_add_i32 s4, s0, s1", "s_add_u32 s4, s0, s1");
  // The same low word; the high word of the destination not written.
  rl_sp_expect_caught(s, "s_mov_b64 s[4:5], s[0:1]", "s_mov_b32 s4, s0");
  // Signed for unsigned.
  rl_sp_expect_caught(s, "s_cmp_lt_u32 s0, s1", "s_cmp_lt_i32 s0, s1");
  rl_sp_expect_caught(s, "s_cmpk_lt_u32 s0, 0x8000", "s_cmpk_lt_i32 s0, 2");
  rl_isa_snippet_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_sp_bound),
      cmocka_unit_test(rl_sp_same_as_generic),
      cmocka_unit_test(rl_sp_wrong_runner_caught),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
