// tests/isa_conformance/isa_conformance_test.c — conformance of the `isa`
// executor against an independent host model (sim/oracle/oracle_model.c).
//
// The test enumerates every opcode of the executor's decode tables
// (rl_isa_table_* of sim/isa/isa_inst.h) and runs each through
// its case family (isa_conf_alu.c, isa_conf_special.c); an opcode that no
// family handles fails the test, so a new opcode cannot land without
// conformance cases. Known failures (rl_conf_xfail in isa_conf_alu.c) are
// run and reported but do not fail. docs/isa-conformance.md describes the
// cases and how to add an opcode.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_executor.h"
#include "sim/oracle/oracle.h"
#include "tests/isa_conformance/isa_conf_harness.h"
#include "tests/isa_conformance/isa_conf_suite.h"

// Built twice: isa_conformance_test runs the gfx11 tables on gfx1100, and
// with RL_CONF_GFX12 isa_conf_gfx12_suite runs the gfx12 tables
// (sim/isa/isa_gfx12.h) on gfx1201, gfx12 layouts encoded by
// rl_conf_smem / rl_conf_flat.
#ifdef RL_CONF_GFX12
#include "sim/isa/isa_gfx12.h"
#define RL_CONF_FEATURES (RL_ISA_FEATURE_SALU_FLOAT | RL_ISA_FEATURE_GFX12)
#define RL_CONF_TABLE(t) rl_isa_gfx12_table_of(rl_conf_tables[t].encoding)
#else
#define RL_CONF_FEATURES RL_ISA_FEATURE_SALU_FLOAT
#define RL_CONF_TABLE(t) (rl_conf_tables[t].table)
#endif

const char* rl_conf_xfail_reason(const char* name);

// ---------------------------------------------------------------------------
// Shared pieces (isa_conf_suite.h).

void rl_conf_rng_init(rl_conf_rng_t* rng, const char* name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the mnemonic
  for (const char* c = name; *c; ++c) h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
  rng->state = RL_CONF_SEED ^ h;
}

uint64_t rl_conf_rng_next(rl_conf_rng_t* rng) {  // splitmix64
  uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void rl_conf_fail(rl_conf_result_t* result, const char* format, ...) {
  if (result->failures++ > 0) return;
  va_list args;
  va_start(args, format);
  vsnprintf(result->first, sizeof(result->first), format, args);
  va_end(args);
}

void rl_conf_prologue(rl_conf_program_t* p, uint32_t in_bytes,
                      uint32_t out_bytes, uint32_t in_dwords,
                      const uint32_t* regs) {
  rl_conf_smem(p, RL_CONF_SMEM_LOAD_B128, 4, 0, 0, RL_CONF_NULL);
  rl_conf_smem(p, RL_CONF_SMEM_LOAD_B64, 8, 0, 16, RL_CONF_NULL);
  // The work-group id: s15 (USER_SGPR), TTMP9 on gfx12 (architected SGPRs).
  rl_conf_sop2(p, RL_CONF_SOP2_LSHL_B32, 10, rl_conf_gfx12 ? 117 : 15,
               128 + 6, false, 0);
  rl_conf_vop2(p, RL_CONF_VOP2_ADD_NC_U32, 0, 10, 0, false, 0);
  rl_conf_vop2(p, RL_CONF_VOP2_MUL_U32_U24, 250, RL_CONF_LITERAL, 0, true,
               in_bytes);
  rl_conf_vop2(p, RL_CONF_VOP2_MUL_U32_U24, 251, RL_CONF_LITERAL, 0, true,
               out_bytes);
  rl_conf_sopp(p, RL_CONF_SOPP_WAITCNT, 0);
  for (uint32_t i = 0; i < in_dwords; ++i) {
    rl_conf_flat(p, 2, RL_CONF_GLOBAL_LOAD_B32, regs ? regs[i] : 1 + i, 250,
                 0, 4, (int32_t)(4 * i));
  }
  rl_conf_sopp(p, RL_CONF_SOPP_WAITCNT, 0);
}

void rl_conf_store(rl_conf_program_t* p, uint32_t vgpr, uint32_t byte_offset) {
  rl_conf_flat(p, 2, RL_CONF_GLOBAL_STORE_B32, 0, 251, vgpr, 6,
               (int32_t)byte_offset);
}

void rl_conf_endpgm(rl_conf_program_t* p) {
  rl_conf_sopp(p, RL_CONF_SOPP_ENDPGM, 0);
}

bool rl_conf_go(rl_conf_device_t* device, const rl_conf_program_t* p,
                       const rl_conf_config_t* cfg, const char* name,
                       rl_conf_result_t* result) {
  char fault[512];
  if (rl_conf_run(device, p, cfg, fault, sizeof(fault))) return true;
  rl_conf_fail(result, "%s: dispatch faulted: %s", name, fault);
  ++result->cases;
  return false;
}

void rl_conf_fill_random(rl_conf_rng_t* rng, uint32_t* words,
                                uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) words[i] = (uint32_t)rl_conf_rng_next(rng);
}

void rl_conf_check(rl_conf_result_t* result, const char* name, uint32_t lane,
                   uint32_t what, uint32_t got, uint32_t want) {
  ++result->cases;
  if (got != want) {
    rl_conf_fail(result, "%s lane %u value %u: got %08x, want %08x", name,
                 lane, what, got, want);
  }
}

void rl_conf_active(rl_conf_program_t* p, uint32_t vflag) {
  rl_conf_vopc(p, RL_CONF_VOPC_CMPX_NE_U32, 128, vflag, false, 0);
}

void rl_conf_all_lanes(rl_conf_program_t* p) {
  rl_conf_sop1(p, RL_CONF_SOP1_MOV_B32, RL_CONF_EXEC, 193, false, 0);
}

// ---------------------------------------------------------------------------
// Covered elsewhere: opcodes whose semantics this suite's shapes cannot
// express (an implicit VCC operand beside three sources, a third source and
// per-source NEG/op_sel mixes of VOP3P), each checked against a host
// computation by the named unit test. The coverage check accepts an opcode
// only when a case family handles it or it is listed here.

static const struct {
  const char* name;
  const char* test;
} rl_conf_elsewhere[] = {
    // The clang a / b sequences (v_div_scale x2, v_rcp, fmas, v_div_fmas,
    // v_div_fixup) on random and special operands must equal the host's
    // IEEE a / b; v_div_fixup corners one by one (v_div_fmas reads VCC from
    // v_div_scale, which the lane model cannot chain).
    {"v_div_scale_f32", "tests/unit/sim/isa/isa_divide_test.c test_clang_division_is_ieee"},
    {"v_div_fmas_f32", "tests/unit/sim/isa/isa_divide_test.c test_clang_division_is_ieee"},
    {"v_div_fixup_f32", "tests/unit/sim/isa/isa_divide_test.c test_clang_division_is_ieee, test_div_fixup_corners"},
    {"v_div_scale_f64", "tests/unit/sim/isa/isa_divide_test.c test_clang_division_is_ieee_f64"},
    {"v_div_fmas_f64", "tests/unit/sim/isa/isa_divide_test.c test_clang_division_is_ieee_f64"},
    {"v_div_fixup_f64", "tests/unit/sim/isa/isa_divide_test.c test_clang_division_is_ieee_f64, test_div_fixup_corners"},
    // Three-source VOP3P with NEG/op_sel mixes (the suite's VOP3P form has
    // two sources and op_sel only); host binary16 model in the test.
    {"v_pk_fma_f16", "tests/unit/sim/isa/isa_valu16_test.c isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model"},
    {"v_dot2_f32_f16", "tests/unit/sim/isa/isa_valu16_test.c isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model"},
    {"v_dot4_i32_iu8", "tests/unit/sim/isa/isa_valu16_test.c isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model"},
    {"v_dot4_u32_u8", "tests/unit/sim/isa/isa_valu16_test.c isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model"},
    {"v_fma_mix_f32", "tests/unit/sim/isa/isa_valu16_test.c isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model"},
    {"v_fma_mixlo_f16", "tests/unit/sim/isa/isa_valu16_test.c isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model"},
    {"v_fma_mixhi_f16", "tests/unit/sim/isa/isa_valu16_test.c isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model"},
    // gfx12-only opcodes: gfx1201 programs assembled by llvm-mc-19 against
    // the host model (64-bit SALU, the v_s_* transcendentals through
    // rl_hm_find of the VOP1 name), and the split barrier with its
    // negative control.
    {"s_add_nc_u64", "tests/isa_conformance/isa_conf_gfx12_test.c test_salu64"},
    {"s_sub_nc_u64", "tests/isa_conformance/isa_conf_gfx12_test.c test_salu64"},
    {"s_mul_u64", "tests/isa_conformance/isa_conf_gfx12_test.c test_salu64"},
    {"v_s_exp_f32", "tests/isa_conformance/isa_conf_gfx12_test.c test_pseudo_scalar_trans"},
    {"v_s_log_f32", "tests/isa_conformance/isa_conf_gfx12_test.c test_pseudo_scalar_trans"},
    {"v_s_rcp_f32", "tests/isa_conformance/isa_conf_gfx12_test.c test_pseudo_scalar_trans"},
    {"v_s_rsq_f32", "tests/isa_conformance/isa_conf_gfx12_test.c test_pseudo_scalar_trans"},
    {"v_s_sqrt_f32", "tests/isa_conformance/isa_conf_gfx12_test.c test_pseudo_scalar_trans"},
    {"s_barrier_signal", "tests/isa_conformance/isa_conf_gfx12_test.c test_split_barrier"},
    // A grid barrier: its semantics need every work-group of a cooperative
    // dispatch, which a one-work-group case cannot show. The two-phase
    // program with its deadlock and non-cooperative negative controls.
    {"ds_gws_barrier", "tests/hip_corpus/grid_sync.hip (hip_corpus.grid_sync.gfx1100.*)"},
};

static const char* rl_conf_elsewhere_test(const char* name) {
  for (size_t i = 0;
       i < sizeof(rl_conf_elsewhere) / sizeof(rl_conf_elsewhere[0]); ++i) {
    if (!strcmp(rl_conf_elsewhere[i].name, name)) return rl_conf_elsewhere[i].test;
  }
  return NULL;
}

// ---------------------------------------------------------------------------
// Modifier coverage: the OMOD, OP_SEL and DPP forms the executor accepts
// for an opcode (its own predecode check, rl_isa_inst_unsupported_reason,
// on an encoded probe), which the opcode's case must have run.

static bool rl_conf_probe(const rl_conf_program_t* p, uint32_t want_omod,
                          uint32_t want_opsel, uint32_t want_dpp) {
  rl_isa_inst_t inst;
  if (!rl_isa_decode(p->words, p->count, RL_CONF_FEATURES, &inst)) {
    return false;
  }
  if (inst.omod != want_omod || (inst.opsel & want_opsel) != want_opsel ||
      inst.dpp != want_dpp) {
    return false;  // the form has no such field (VOP3b, no VOP3 form)
  }
  return rl_isa_inst_unsupported_reason(&inst) == NULL;
}

static uint32_t rl_conf_accepted_mods(const rl_isa_op_t* op, uint32_t enc) {
  if (enc != RL_ISA_ENC_VOP1 && enc != RL_ISA_ENC_VOP2 &&
      enc != RL_ISA_ENC_VOP3 && enc != RL_ISA_ENC_VOPC) {
    return 0;
  }
  uint32_t opc = op->opcode + (enc == RL_ISA_ENC_VOP2   ? 0x100
                               : enc == RL_ISA_ENC_VOP1 ? 0x180
                                                        : 0);
  bool sdst = (op->flags & RL_ISA_F_SDST) || opc < 0x100;
  uint32_t src[3] = {RL_CONF_V(1), RL_CONF_V(3), RL_CONF_V(5)};
  if (op->flags & RL_ISA_F_CARRY) src[2] = 30;
  uint32_t accepted = 0;
  static rl_conf_program_t p;
  for (uint32_t form = 0; form < 5; ++form) {
    rl_conf_mods_t mods = {0};
    if (form == 0) mods.omod = 1;
    else mods.opsel = (uint8_t)(1u << (form - 1));  // sources 0..2, dst
    p.count = 0;
    rl_conf_vop3(&p, opc, sdst ? 32 : 10, sdst ? 32 : 0, src, &mods, false, 0);
    if (rl_conf_probe(&p, mods.omod, mods.opsel, 0)) {
      accepted |= form == 0 ? RL_CONF_MOD_OMOD
                  : form == 4 ? RL_CONF_MOD_OPSEL_DST
                              : RL_CONF_MOD_OPSEL_SRC0 << (form - 1);
    }
  }
  for (uint32_t kind = 8; kind <= 16; kind += 8) {
    const rl_conf_dpp_t dpp = {.kind = (uint8_t)kind, .ctrl = 0x111,
                               .row_mask = 0xf, .bank_mask = 0xf};
    uint32_t marker = rl_conf_dpp_marker(&dpp), word = rl_conf_dpp_word(&dpp, 1);
    p.count = 0;
    if (enc == RL_ISA_ENC_VOP1) rl_conf_vop1(&p, op->opcode, 10, marker, true, word);
    else if (enc == RL_ISA_ENC_VOP2) rl_conf_vop2(&p, op->opcode, 10, marker, 3, true, word);
    else if (enc == RL_ISA_ENC_VOPC) rl_conf_vopc(&p, op->opcode, marker, 3, true, word);
    else continue;
    if (rl_conf_probe(&p, 0, 0, kind)) {
      accepted |= kind == 16 ? RL_CONF_MOD_DPP16 : RL_CONF_MOD_DPP8;
    }
  }
  const rl_conf_dpp_t dpp = {.kind = 16, .ctrl = 0x111, .row_mask = 0xf,
                             .bank_mask = 0xf};
  src[0] = rl_conf_dpp_marker(&dpp);
  p.count = 0;
  rl_conf_vop3(&p, opc, sdst ? 32 : 10, sdst ? 32 : 0, src, NULL, true,
               rl_conf_dpp_word(&dpp, 1));
  if (rl_conf_probe(&p, 0, 0, 16)) accepted |= RL_CONF_MOD_DPP16_VOP3;
  return accepted;
}

static const char* rl_conf_mod_name(uint32_t bit) {
  switch (bit) {
    case RL_CONF_MOD_OMOD: return "VOP3 omod";
    case RL_CONF_MOD_OPSEL_SRC0: return "VOP3 op_sel of source 0";
    case RL_CONF_MOD_OPSEL_SRC0 << 1: return "VOP3 op_sel of source 1";
    case RL_CONF_MOD_OPSEL_SRC0 << 2: return "VOP3 op_sel of source 2";
    case RL_CONF_MOD_OPSEL_DST: return "VOP3 op_sel of the destination";
    case RL_CONF_MOD_DPP16: return "DPP16";
    case RL_CONF_MOD_DPP16_VOP3: return "VOP3 DPP16";
    default: return "DPP8";
  }
}

// ---------------------------------------------------------------------------
// Enumeration.

static const struct {
  const rl_isa_table_t* table;
  uint32_t encoding;
} rl_conf_tables[] = {
    {&rl_isa_table_sop1, RL_ISA_ENC_SOP1},   {&rl_isa_table_sop2, RL_ISA_ENC_SOP2},
    {&rl_isa_table_sopk, RL_ISA_ENC_SOPK},   {&rl_isa_table_sopc, RL_ISA_ENC_SOPC},
    {&rl_isa_table_sopp, RL_ISA_ENC_SOPP},   {&rl_isa_table_smem, RL_ISA_ENC_SMEM},
    {&rl_isa_table_vop1, RL_ISA_ENC_VOP1},   {&rl_isa_table_vop2, RL_ISA_ENC_VOP2},
    {&rl_isa_table_vop3, RL_ISA_ENC_VOP3},   {&rl_isa_table_vopc, RL_ISA_ENC_VOPC},
    {&rl_isa_table_vop3p, RL_ISA_ENC_VOP3P}, {&rl_isa_table_vopd, RL_ISA_ENC_VOPD},
    {&rl_isa_table_ds, RL_ISA_ENC_DS},       {&rl_isa_table_flat, RL_ISA_ENC_FLAT},
    {&rl_isa_table_global, RL_ISA_ENC_GLOBAL},
    {&rl_isa_table_scratch, RL_ISA_ENC_SCRATCH},
    {&rl_isa_table_mubuf, RL_ISA_ENC_MUBUF},
};

// RL_CONF_ONLY=<substring> restricts the run to matching mnemonics (for
// debugging and tools/mutate.sh); the coverage check then still covers the
// whole table.
#ifdef RL_CONF_ORACLE
// The oracle suite (isa_conf_oracle_suite): every case runs under the
// oracle executor (sim/oracle/oracle.h) in full mode, a fresh
// oracle per opcode; an opcode whose bytes differ between the oracle and
// the isa executor fails, one the oracle skips is counted with its reason.
typedef struct rl_conf_oracle_tally_s {
  uint32_t checked, skipped, mismatched;
  uint64_t workgroups;
} rl_conf_oracle_tally_t;

static rl_oracle_t* rl_conf_oracle_begin(void) {
  rl_oracle_t* oracle = NULL;
  rl_status_t status =
      rl_oracle_create(rl_isa_executor(), RL_ORACLE_FULL, 1, &oracle);
  assert_int_equal(status, RL_OK);
  rl_conf_set_inner(rl_oracle_executor(oracle));
  return oracle;
}

static void rl_conf_oracle_end(rl_oracle_t* oracle, const char* name,
                               rl_conf_oracle_tally_t* tally) {
  rl_conf_set_inner(NULL);
  rl_oracle_report_t report;
  rl_oracle_report(oracle, &report);
  rl_oracle_destroy(oracle);
  tally->workgroups += report.workgroups_checked;
  if (report.mismatch) {
    ++tally->mismatched;
    print_error("ORACLE MISMATCH %s: work-group (%u, %u, %u): %s\n", name,
                report.mismatch_group[0], report.mismatch_group[1],
                report.mismatch_group[2], report.mismatch_text);
  } else if (report.workgroups_checked > 0) {
    ++tally->checked;
  } else if (report.workgroups_skipped > 0) {
    ++tally->skipped;
    if (getenv("RL_CONF_ORACLE_VERBOSE")) {
      print_message("oracle skipped %s: %s\n", name, report.reasons[0].text);
    }
  }
}
#endif

static void test_every_opcode_conforms(void** state) {
  (void)state;
  const char* only = getenv("RL_CONF_ONLY");
#ifdef RL_CONF_GFX12
  rl_conf_gfx12 = true;
#endif
  rl_conf_device_t* device = rl_conf_device_create();
  uint32_t opcodes = 0, uncovered = 0, failed = 0, xfailed = 0, elsewhere = 0;
  uint64_t cases = 0;
  uint32_t mod_ops[8] = {0};  // opcodes run with each RL_CONF_MOD_* form
#ifdef RL_CONF_ORACLE
  rl_conf_oracle_tally_t oracle_tally = {0};
#endif
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t t = 0; t < sizeof(rl_conf_tables) / sizeof(rl_conf_tables[0]);
       ++t) {
    // Each encoding's table is a chain (isa_inst.h: 16-bit, packed,
    // division and atomic opcodes live in linked tables); walk all of it.
    for (const rl_isa_table_t* table = RL_CONF_TABLE(t); table;
         table = table->next) {
    for (uint32_t i = 0; i < table->count; ++i) {
      const rl_isa_op_t* op = &table->ops[i];
      ++opcodes;
      if (only && !strstr(op->name, only)) continue;
      if (rl_conf_elsewhere_test(op->name)) {
        ++elsewhere;
        continue;
      }
      rl_conf_result_t result = {0};
      uint32_t enc = rl_conf_tables[t].encoding;
#ifdef RL_CONF_ORACLE
      rl_oracle_t* oracle = rl_conf_oracle_begin();
#endif
      bool handled = rl_conf_private_case(device, op, enc, &result) ||
                     rl_conf_mode_case(device, op, &result) ||
                     rl_conf_alu_case(device, op, enc, &result) ||
                     rl_conf_special_case(device, op, enc, &result);
#ifdef RL_CONF_ORACLE
      rl_conf_oracle_end(oracle, op->name, &oracle_tally);
#endif
      if (!handled || result.cases == 0) {
        ++uncovered;
        print_error("no conformance case for %s (%s opcode 0x%x)\n",
                    op->name, rl_isa_encoding_name(enc), op->opcode);
        continue;
      }
      cases += result.cases;
      for (uint32_t b = 0; b < 8; ++b) mod_ops[b] += (result.mod_forms >> b) & 1;
      uint32_t missing = rl_conf_accepted_mods(op, enc) & ~result.mod_forms;
      for (uint32_t bit = 1; missing && bit <= RL_CONF_MOD_DPP16_VOP3; bit <<= 1) {
        if (!(missing & bit)) continue;
        ++uncovered;
        print_error("no conformance case for %s with %s, which the executor "
                    "accepts\n", op->name, rl_conf_mod_name(bit));
      }
      const char* xfail = rl_conf_xfail_reason(op->name);
      if (result.failures && xfail) {
        ++xfailed;
        print_message("KNOWN FAILURE %s (%llu of %llu cases): %s\n  first: %s\n",
                      op->name, (unsigned long long)result.failures,
                      (unsigned long long)result.cases, xfail, result.first);
      } else if (result.failures) {
        ++failed;
        print_error("FAIL %s: %llu of %llu cases differ from the host model; "
                    "first: %s\n",
                    op->name, (unsigned long long)result.failures,
                    (unsigned long long)result.cases, result.first);
      } else if (xfail) {
        print_message("UNEXPECTED PASS %s: remove it from the known-failure "
                      "list (%s)\n", op->name, xfail);
      }
    }
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) +
                   (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  print_message("isa conformance: %u opcodes, %llu cases, %u dispatches, "
                "%u failing, %u known failures, %u covered elsewhere, %u without "
                "cases, %.1f s\n",
                opcodes, (unsigned long long)cases,
                rl_conf_dispatches(device), failed, xfailed, elsewhere,
                uncovered, seconds);
  print_message("modifier forms run: omod %u, op_sel src0/src1/src2/dst "
                "%u/%u/%u/%u, DPP16 %u, DPP8 %u, VOP3 DPP16 %u opcodes\n",
                mod_ops[0], mod_ops[1], mod_ops[2], mod_ops[3], mod_ops[4],
                mod_ops[5], mod_ops[6], mod_ops[7]);
  rl_conf_device_destroy(device);
#ifdef RL_CONF_ORACLE
  print_message("oracle executor: %u opcodes checked (%llu work-groups), %u "
                "skipped (RL_CONF_ORACLE_VERBOSE=1 lists them), %u differing "
                "from the isa executor\n",
                oracle_tally.checked,
                (unsigned long long)oracle_tally.workgroups,
                oracle_tally.skipped, oracle_tally.mismatched);
  assert_int_equal(oracle_tally.mismatched, 0);
  assert_true(oracle_tally.checked > 0);
#endif
  assert_int_equal(uncovered, 0);
  assert_int_equal(failed, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_opcode_conforms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
