// Tests of the literal-constant VALU forms (v_fmaak_*, v_fmamk_*): K is the
// 32-bit literal that follows the instruction, and the result must use it
// (RDNA3 ISA guide, "VOP2" opcode descriptions: V_FMAAK_F32
// D = S0 * S1 + K, V_FMAMK_F32 D = S0 * K + S1, one rounding; the f16
// forms take K's low 16 bits as binary16). Encodings come from llvm-mc-19;
// expected values are computed here on the host.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

static uint32_t rl_lt_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float rl_lt_float(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// v1 = lane + 0.5, v2 = 2 - lane / 8 for every lane.
static void rl_lt_inputs(rl_isa_wave_t* wave) {
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    wave->vgpr[1][l] = rl_lt_bits((float)l + 0.5f);
    wave->vgpr[2][l] = rl_lt_bits(2.0f - (float)l / 8.0f);
  }
}

static void test_fmaak_f32_uses_k(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  rl_lt_inputs(wave);
  const char* lines[] = {"v_fmaak_f32 v0, v1, v2, 0x40400000"};  // K = 3.0
  rl_isa_snippet_exec(s, lines, 1);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    float a = rl_lt_float(wave->vgpr[1][l]), b = rl_lt_float(wave->vgpr[2][l]);
    assert_int_equal(wave->vgpr[0][l], rl_lt_bits(fmaf(a, b, 3.0f)));
  }
  rl_isa_snippet_destroy(s);
}

static void test_fmamk_f32_uses_k(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  rl_lt_inputs(wave);
  const char* lines[] = {"v_fmamk_f32 v0, v1, 0xc0a00000, v2"};  // K = -5.0
  rl_isa_snippet_exec(s, lines, 1);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    float a = rl_lt_float(wave->vgpr[1][l]), b = rl_lt_float(wave->vgpr[2][l]);
    assert_int_equal(wave->vgpr[0][l], rl_lt_bits(fmaf(a, -5.0f, b)));
  }
  rl_isa_snippet_destroy(s);
}

// The VOPD forms read K from the same literal.
static void test_dual_fmaak_uses_k(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  rl_lt_inputs(wave);
  const char* lines[] = {
      "v_dual_fmaak_f32 v4, v1, v2, 0x40400000 :: v_dual_mov_b32 v5, v2"};
  rl_isa_snippet_exec(s, lines, 1);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    float a = rl_lt_float(wave->vgpr[1][l]), b = rl_lt_float(wave->vgpr[2][l]);
    assert_int_equal(wave->vgpr[4][l], rl_lt_bits(fmaf(a, b, 3.0f)));
    assert_int_equal(wave->vgpr[5][l], wave->vgpr[2][l]);
  }
  rl_isa_snippet_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fmaak_f32_uses_k),
      cmocka_unit_test(test_fmamk_f32_uses_k),
      cmocka_unit_test(test_dual_fmaak_uses_k),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
