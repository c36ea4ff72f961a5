// Tests of the division helpers (sim/isa/isa_divide.c): for
// binary32 and binary64, clang-19's own a / b sequence (v_div_scale_f32 x2, v_rcp_f32, the
// Newton-Raphson fmas, v_div_fmas_f32, v_div_fixup_f32, copied from
// `llvm-objdump-19 -d` of `out[i] = a[i] / b[i]` for gfx1100) must give the
// host's correctly rounded IEEE quotient for every pair tried: zeros,
// infinities, NaNs, denormals, huge and tiny ratios and a pseudo-random
// sweep. Plus v_cmp_class_f32/f16 against a host classifier and the
// corner cases of v_div_fixup_f32 one by one (RDNA3 ISA guide pseudo-code).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

static uint32_t rl_dt_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float rl_dt_float(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// clang-19 -O2, gfx1100: v1 = a, v2 = b -> v1 = a / b.
static const char* const rl_dt_divide[] = {
    "v_div_scale_f32 v3, null, v2, v2, v1",
    "v_rcp_f32_e32 v4, v3",
    "v_fma_f32 v5, -v3, v4, 1.0",
    "v_fmac_f32_e32 v4, v5, v4",
    "v_div_scale_f32 v5, vcc_lo, v1, v2, v1",
    "v_mul_f32_e32 v6, v5, v4",
    "v_fma_f32 v7, -v3, v6, v5",
    "v_fmac_f32_e32 v6, v7, v4",
    "v_fma_f32 v3, -v3, v6, v5",
    "v_div_fmas_f32 v3, v3, v4, v6",
    "v_div_fixup_f32 v1, v3, v2, v1",
};

// clang-19 -O2, gfx1100: v[0:1] = a, v[2:3] = b -> v[0:1] = a / b (double).
static const char* const rl_dt_divide64[] = {
    "v_div_scale_f64 v[4:5], null, v[2:3], v[2:3], v[0:1]",
    "v_rcp_f64_e32 v[6:7], v[4:5]",
    "v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0",
    "v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]",
    "v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0",
    "v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]",
    "v_div_scale_f64 v[8:9], vcc_lo, v[0:1], v[2:3], v[0:1]",
    "v_mul_f64 v[10:11], v[8:9], v[6:7]",
    "v_fma_f64 v[4:5], -v[4:5], v[10:11], v[8:9]",
    "v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[10:11]",
    "v_div_fixup_f64 v[0:1], v[4:5], v[2:3], v[0:1]",
};

static uint32_t rl_dt_state = 0x12345678u;
static uint32_t rl_dt_random(void) {  // xorshift32
  rl_dt_state ^= rl_dt_state << 13;
  rl_dt_state ^= rl_dt_state >> 17;
  rl_dt_state ^= rl_dt_state << 5;
  return rl_dt_state;
}

// Runs 32 pairs; returns the number of lanes whose quotient differs.
static uint32_t rl_dt_run(rl_isa_snippet_t* s, const uint32_t* a,
                          const uint32_t* b) {
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    wave->vgpr[1][l] = a[l];
    wave->vgpr[2][l] = b[l];
  }
  assert_int_equal(rl_isa_snippet_run(s), RL_OK);
  uint32_t bad = 0;
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    float expected = rl_dt_float(a[l]) / rl_dt_float(b[l]);
    uint32_t got = wave->vgpr[1][l];
    bool ok = isnan(expected) ? isnan(rl_dt_float(got))
                              : got == rl_dt_bits(expected);
    if (!ok) {
      print_message("%a / %a: got %a (0x%08x), expected %a\n",
                    rl_dt_float(a[l]), rl_dt_float(b[l]), rl_dt_float(got),
                    got, expected);
      ++bad;
    }
  }
  return bad;
}

static void test_clang_division_is_ieee(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(RL_ISA_MODE_IEEE);
  rl_isa_snippet_load(s, rl_dt_divide,
                      sizeof(rl_dt_divide) / sizeof(rl_dt_divide[0]));
  static const uint32_t specials[] = {
      0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
      0xff800000u, 0x7fc00000u, 0x00000001u, 0x807fffffu, 0x00800000u,
      0x7f7fffffu, 0xff7fffffu, 0x40400000u, 0x3eaaaaabu, 0x1e3ce508u,
      0x60ad78ecu};
  const uint32_t n = sizeof(specials) / sizeof(specials[0]);
  uint32_t a[RL_ISA_LANES], b[RL_ISA_LANES], bad = 0, pairs = 0;
  for (uint32_t i = 0; i < n * n; i += RL_ISA_LANES) {  // every special pair
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      a[l] = specials[(i + l) / n % n];
      b[l] = specials[(i + l) % n];
    }
    bad += rl_dt_run(s, a, b);
    pairs += RL_ISA_LANES;
  }
  for (uint32_t round = 0; round < 2048; ++round) {  // random bit patterns
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      a[l] = rl_dt_random();
      b[l] = rl_dt_random();
      if (round & 1) b[l] = (b[l] & 0x807fffffu) | (a[l] & 0x7f800000u);
    }
    bad += rl_dt_run(s, a, b);
    pairs += RL_ISA_LANES;
  }
  print_message("%u quotients checked\n", pairs);
  assert_int_equal(bad, 0);
  rl_isa_snippet_destroy(s);
}

static uint64_t rl_dt_random64(void) {
  uint64_t hi = rl_dt_random();
  return hi << 32 | rl_dt_random();
}

static double rl_dt_double(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static void test_clang_division_is_ieee_f64(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(RL_ISA_MODE_IEEE);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  rl_isa_snippet_load(s, rl_dt_divide64,
                      sizeof(rl_dt_divide64) / sizeof(rl_dt_divide64[0]));
  static const uint64_t specials[] = {
      0, 1ull << 63, 0x3ff0000000000000ull, 0x7ff0000000000000ull,
      0x7ff8000000000000ull, 1, 0x000fffffffffffffull, 0x0010000000000000ull,
      0x7fefffffffffffffull, 0x4008000000000000ull, 0x3fd5555555555555ull,
      0xffefffffffffffffull};
  const uint32_t n = sizeof(specials) / sizeof(specials[0]);
  uint32_t bad = 0, pairs = 0;
  for (uint32_t round = 0; round < 1024 + n * n / RL_ISA_LANES + 1; ++round) {
    uint64_t a[RL_ISA_LANES], b[RL_ISA_LANES];
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      uint32_t k = round * RL_ISA_LANES + l;
      bool special = k < n * n;
      a[l] = special ? specials[k / n] : rl_dt_random64();
      b[l] = special ? specials[k % n] : rl_dt_random64();
      if (!special && (round & 1)) {
        b[l] = (b[l] & 0x800fffffffffffffull) | (a[l] & 0x7ff0000000000000ull);
      }
      wave->vgpr[0][l] = (uint32_t)a[l];
      wave->vgpr[1][l] = (uint32_t)(a[l] >> 32);
      wave->vgpr[2][l] = (uint32_t)b[l];
      wave->vgpr[3][l] = (uint32_t)(b[l] >> 32);
    }
    assert_int_equal(rl_isa_snippet_run(s), RL_OK);
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      double expected = rl_dt_double(a[l]) / rl_dt_double(b[l]);
      uint64_t got = wave->vgpr[0][l] | (uint64_t)wave->vgpr[1][l] << 32;
      bool ok = isnan(expected) ? isnan(rl_dt_double(got))
                                : memcmp(&got, &expected, 8) == 0;
      if (!ok && bad < 8) {
        print_message("%a / %a: got %a, expected %a\n", rl_dt_double(a[l]),
                      rl_dt_double(b[l]), rl_dt_double(got), expected);
      }
      bad += !ok;
      ++pairs;
    }
  }
  print_message("%u binary64 quotients checked\n", pairs);
  assert_int_equal(bad, 0);
  rl_isa_snippet_destroy(s);
}

// The host classifier: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
// 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
static uint32_t rl_dt_class(float x) {
  uint32_t u = rl_dt_bits(x);
  bool neg = u >> 31;
  if (isnan(x)) return (u >> 22) & 1 ? 1 : 0;
  if (isinf(x)) return neg ? 2 : 9;
  if (x == 0.0f) return neg ? 5 : 6;
  if (fpclassify(x) == FP_SUBNORMAL) return neg ? 4 : 7;
  return neg ? 3 : 8;
}

static void isa_cmp_class_f32_tests_each_of_the_ten_classes(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  static const uint32_t values[10] = {0x7fa00000u, 0x7fc00000u, 0xff800000u,
                                      0xc0000000u, 0x80000010u, 0x80000000u,
                                      0x00000000u, 0x00000010u, 0x40000000u,
                                      0x7f800000u};
  for (uint32_t mask_bit = 0; mask_bit < 10; ++mask_bit) {
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      wave->vgpr[1][l] = values[l % 10];
      wave->vgpr[2][l] = (1u << mask_bit) | (l >= 20 ? 0x3ffu : 0);
    }
    const char* lines[] = {"v_cmp_class_f32_e32 vcc_lo, v1, v2",
                           "v_cmp_class_f32_e64 s4, v1, v2"};
    rl_isa_snippet_exec(s, lines, 2);
    uint32_t expected = 0;
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      uint32_t c = rl_dt_class(rl_dt_float(values[l % 10]));
      if (l >= 20 || c == mask_bit) expected |= 1u << l;
    }
    assert_int_equal(wave->sgpr[106], expected);  // VCC_LO
    assert_int_equal(wave->sgpr[4], expected);
  }
  rl_isa_snippet_destroy(s);
}

// v_div_fixup_f32 corner cases (S0 quotient, S1 denominator, S2 numerator).
static void test_div_fixup_corners(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  struct { float q, d, n; uint32_t expected; } const cases[] = {
      {1.5f, 2.0f, 3.0f, 0x3fc00000u},         // ordinary: |q| with the sign
      {1.5f, -2.0f, 3.0f, 0xbfc00000u},
      {NAN, 0.0f, NAN, 0x7fc00000u},           // the numerator's NaN wins
      {1.0f, 0.0f, 0.0f, 0xffc00000u},         // 0/0
      {1.0f, INFINITY, -INFINITY, 0xffc00000u},  // inf/inf
      {1.0f, -0.0f, 5.0f, 0xff800000u},        // x/0
      {1.0f, 2.0f, INFINITY, 0x7f800000u},     // inf/y
      {1.0f, INFINITY, 5.0f, 0x00000000u},     // x/inf
      {1.0f, -3.0f, 0.0f, 0x80000000u},        // 0/y
      {NAN, 2.0f, 3.0f, 0x7f800000u},          // the steps overflowed
  };
  const uint32_t count = sizeof(cases) / sizeof(cases[0]);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t i = l % count;
    wave->vgpr[1][l] = rl_dt_bits(cases[i].q);
    wave->vgpr[2][l] = rl_dt_bits(cases[i].d);
    wave->vgpr[3][l] = rl_dt_bits(cases[i].n);
  }
  const char* lines[] = {"v_div_fixup_f32 v0, v1, v2, v3"};
  rl_isa_snippet_exec(s, lines, 1);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    assert_int_equal(wave->vgpr[0][l], cases[l % count].expected);
  }
  rl_isa_snippet_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_clang_division_is_ieee),
      cmocka_unit_test(test_clang_division_is_ieee_f64),
      cmocka_unit_test(isa_cmp_class_f32_tests_each_of_the_ten_classes),
      cmocka_unit_test(test_div_fixup_corners),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
