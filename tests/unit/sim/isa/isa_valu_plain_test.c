// Tests of the plain VALU runners (sim/isa/isa_valu.c,
// rl_isa_valu_is_plain): the program builder binds them to the forms
// without modifiers and DPP only, and each gives the same registers as the
// generic runner it replaces, for every EXEC (all lanes: the kernel writes
// the destination row in place unless it is a source row; some lanes;
// none), on random registers, with destinations that are also sources
// (v_fmac, a 64-bit shift in place, a carry in place). VOPD writes in place
// only when neither destination is a source of either half: its Y half
// reading the X half's destination must see the old value.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

static uint32_t rl_vp_state = 0x2545f491u;
static uint32_t rl_vp_random(void) {
  rl_vp_state ^= rl_vp_state << 13;
  rl_vp_state ^= rl_vp_state >> 17;
  rl_vp_state ^= rl_vp_state << 5;
  return rl_vp_state;
}

// Registers 0..15 (SGPRs, VCC, VGPRs) random: floats in [-8, 8) in the
// VGPRs, so float kernels see ordinary numbers.
static void rl_vp_randomize(rl_isa_wave_t* wave, uint32_t exec) {
  for (uint32_t r = 0; r < 16; ++r) {
    wave->sgpr[r] = rl_vp_random();
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      float f = (float)(int32_t)(rl_vp_random() % 4096u - 2048) / 256.0f;
      uint32_t bits;
      memcpy(&bits, &f, 4);
      wave->vgpr[r][l] = (r & 1) ? bits : rl_vp_random();
    }
  }
  wave->sgpr[RL_ISA_SRC_VCC] = rl_vp_random();
  wave->sgpr[RL_ISA_SRC_EXEC] = exec;
  wave->mode = 0;
}

typedef struct rl_vp_regs_s {
  uint32_t sgpr[RL_ISA_SGPRS];
  uint32_t vgpr[16][RL_ISA_LANES];
} rl_vp_regs_t;

static void rl_vp_save(const rl_isa_wave_t* wave, rl_vp_regs_t* out) {
  memcpy(out->sgpr, wave->sgpr, sizeof(out->sgpr));
  memcpy(out->vgpr, wave->vgpr, sizeof(out->vgpr));
}

static void rl_vp_restore(rl_isa_wave_t* wave, const rl_vp_regs_t* regs) {
  memcpy(wave->sgpr, regs->sgpr, sizeof(regs->sgpr));
  memcpy(wave->vgpr, regs->vgpr, sizeof(regs->vgpr));
}

// Plain forms: bound to the plain runner, and the same registers as the
// generic one for every EXEC.
static const char* const rl_vp_plain[] = {
    "v_add_nc_u32_e32 v4, v0, v2",           // into another row
    "v_add_nc_u32_e32 v2, v2, v2",           // into its sources' row
    "v_fmac_f32_e32 v1, v3, v5",             // the destination is source 2
    "v_fma_f32 v7, v3, v5, v7",
    "v_add_f32_e32 v5, 0.5, v5",             // a constant source
    "v_mul_f32_e32 v9, s3, v1",              // a scalar source
    "v_mov_b32_e32 v6, s4",
    "v_cndmask_b32_e32 v6, v2, v3, vcc_lo",  // VCC as the select mask
    "v_lshlrev_b64 v[2:3], 1, v[2:3]",       // 64 bits in place
    "v_lshlrev_b64 v[8:9], v0, v[2:3]",
    "v_add_co_u32 v2, vcc_lo, v2, v4",       // carry out, in place
    "v_add_co_ci_u32_e32 v4, vcc_lo, v4, v6, vcc_lo",  // carry in and out
    "v_mad_u64_u32 v[10:11], s6, v0, v2, v[10:11]",
    "v_cvt_f32_u32_e32 v12, v12",
    "v_mul_lo_u32 v13, v13, v0",
    "v_cmp_gt_u32_e32 vcc_lo, v0, v2",
    "v_cmp_lt_f32_e64 s6, v1, s2",
    "v_cmp_neq_f32_e32 vcc_lo, v3, v5",
    "v_cmpx_eq_u32_e32 v0, v0",             // writes EXEC
};
#define RL_VP_PLAIN (sizeof(rl_vp_plain) / sizeof(rl_vp_plain[0]))

// Forms with modifiers: the generic runners keep them.
static const char* const rl_vp_modified[] = {
    "v_add_f32_e64 v4, -v1, v3",
    "v_add_f32_e64 v4, v1, v3 clamp",
    "v_mul_f32_e64 v4, v1, v3 mul:2",
    "v_cmp_lt_f32_e64 s6, |v1|, v3",
    "v_add_nc_u32_e64 v4, v0, v2 clamp",
};
#define RL_VP_MODIFIED (sizeof(rl_vp_modified) / sizeof(rl_vp_modified[0]))

static void rl_vp_bound(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_snippet_load(s, rl_vp_plain, RL_VP_PLAIN);
  for (uint32_t i = 0; i < RL_VP_PLAIN; ++i) {
    const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
    bool vopc = inst->op->exec == rl_isa_exec_vopc;
    if (inst->exec != (vopc ? rl_isa_exec_vopc_plain : rl_isa_exec_valu_plain)) {
      fail_msg("\"%s\" is not bound to the plain runner", rl_vp_plain[i]);
    }
  }
  rl_isa_snippet_load(s, rl_vp_modified, RL_VP_MODIFIED);
  for (uint32_t i = 0; i < RL_VP_MODIFIED; ++i) {
    const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
    if (inst->exec != inst->op->exec) {
      fail_msg("\"%s\" has modifiers but is not bound to the generic runner",
               rl_vp_modified[i]);
    }
  }
  rl_isa_snippet_destroy(s);
}

static void rl_vp_same_as_generic(void** state) {
  (void)state;
  static const uint32_t execs[] = {RL_ISA_ALL_LANES, 0x5a5a0ff0u, 0x80000001u,
                                   0};
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  rl_isa_snippet_load(s, rl_vp_plain, RL_VP_PLAIN);
  rl_vp_regs_t before, plain, generic;
  for (uint32_t i = 0; i < RL_VP_PLAIN; ++i) {
    const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
    for (uint32_t e = 0; e < sizeof(execs) / sizeof(execs[0]); ++e) {
      for (uint32_t round = 0; round < 4; ++round) {
        rl_vp_randomize(wave, execs[e]);
        rl_vp_save(wave, &before);
        assert_int_equal(inst->exec(wave, inst), RL_OK);
        rl_vp_save(wave, &plain);
        rl_vp_restore(wave, &before);
        assert_int_equal(inst->op->exec(wave, inst), RL_OK);
        rl_vp_save(wave, &generic);
        if (memcmp(&plain, &generic, sizeof(plain)) != 0) {
          fail_msg("\"%s\" under EXEC 0x%08x: the plain runner's registers "
                   "differ from the generic runner's",
                   rl_vp_plain[i], execs[e]);
        }
      }
    }
  }
  rl_isa_snippet_destroy(s);
}

static float rl_vp_f(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

// VOPD: both halves read before either writes, with all lanes active too.
static void rl_vp_vopd_reads_first(void** state) {
  (void)state;
  static const char* const lines[] = {
      "v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v0",
      "v_dual_mul_f32 v4, v1, v2 :: v_dual_add_f32 v5, v3, v7",
  };
  static const uint32_t execs[] = {RL_ISA_ALL_LANES, 0x0000ffffu};
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  rl_isa_snippet_load(s, lines, 2);
  for (uint32_t e = 0; e < 2; ++e) {
    rl_vp_randomize(wave, execs[e]);
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {  // floats in v0..v7
      for (uint32_t r = 0; r < 8; r += 2) wave->vgpr[r][l] = wave->vgpr[r + 1][l];
      wave->vgpr[2][l] ^= 0x80000000u;
    }
    rl_vp_regs_t before;
    rl_vp_save(wave, &before);
    for (uint32_t i = 0; i < 2; ++i) {
      const rl_isa_inst_t* inst = rl_isa_snippet_inst(s, i);
      assert_int_equal(inst->exec(wave, inst), RL_OK);
    }
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      const uint32_t(*b)[RL_ISA_LANES] = before.vgpr;
      bool on = (execs[e] >> l) & 1;
      float v0 = rl_vp_f(b[1][l]) * rl_vp_f(b[2][l]);
      uint32_t v3 = on ? b[0][l] : b[3][l];  // the old v0
      float v4 = rl_vp_f(b[1][l]) * rl_vp_f(b[2][l]);
      // The second instruction's Y half reads v3 as the first wrote it.
      float v5 = rl_vp_f(v3) + rl_vp_f(b[7][l]);
      assert_true(rl_vp_f(wave->vgpr[0][l]) == (on ? v0 : rl_vp_f(b[0][l])));
      assert_int_equal(wave->vgpr[3][l], v3);
      assert_true(rl_vp_f(wave->vgpr[4][l]) == (on ? v4 : rl_vp_f(b[4][l])));
      assert_true(rl_vp_f(wave->vgpr[5][l]) == (on ? v5 : rl_vp_f(b[5][l])));
    }
  }
  rl_isa_snippet_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_vp_bound),
      cmocka_unit_test(rl_vp_same_as_generic),
      cmocka_unit_test(rl_vp_vopd_reads_first),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
