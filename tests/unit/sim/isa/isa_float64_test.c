// Tests of the binary64 VALU operations (sim/isa/isa_float64.c):
// each instruction, assembled by llvm-mc-19, on special and random inputs
// in all 32 lanes against the host's C library (correctly rounded sqrt,
// division, floor/ceil/trunc/nearbyint, ldexp) and the guide's rules for
// conversions (truncate, saturate, NaN -> 0) and min/max (-0 < +0, a NaN
// operand yields the other one).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

static uint64_t rl_ft_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double rl_ft_double(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static const double rl_ft_values[32] = {
    0.0, -0.0, 1.0, -1.5, 2.5, 3.5, -2.5, 1e300, -1e300, 0x1p-1074,
    -0x1p-1060, 1e-310, 123456.789, -98765.4321, 4294967296.5, -2147483649.0,
    2147483647.9, 0.49999999999999994, 7.0, INFINITY, -INFINITY, NAN, 1e10,
    3.0e9, -0.75, 0.1, 1.0 / 3.0, 65536.0, 1e-5, 42.0, -7.25, 5e-324};

static uint64_t rl_ft_reg(const rl_isa_wave_t* wave, uint32_t r, uint32_t l) {
  return wave->vgpr[r][l] | (uint64_t)wave->vgpr[r + 1][l] << 32;
}

static void rl_ft_expect(uint64_t got, double expected, const char* what,
                         uint32_t lane) {
  bool ok = isnan(expected) ? isnan(rl_ft_double(got))
                            : got == rl_ft_bits(expected);
  if (!ok) {
    fail_msg("%s lane %u (x = %a): got %a, expected %a", what, lane,
             rl_ft_values[lane], rl_ft_double(got), expected);
  }
}

static int32_t rl_ft_cvt_i32(double x) {
  if (isnan(x)) return 0;
  if (x <= -2147483648.0) return INT32_MIN;
  if (x >= 2147483647.0) return INT32_MAX;
  return (int32_t)x;
}

static void isa_f64_unary_and_conversions_match_host_double(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(RL_ISA_MODE_IEEE);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint64_t x = rl_ft_bits(rl_ft_values[l]);
    wave->vgpr[0][l] = (uint32_t)x;
    wave->vgpr[1][l] = (uint32_t)(x >> 32);
    wave->vgpr[2][l] = (uint32_t)(int32_t)(l * 37) - 500;
  }
  const char* lines[] = {
      "v_sqrt_f64_e32 v[4:5], v[0:1]",   "v_rcp_f64_e32 v[6:7], v[0:1]",
      "v_floor_f64_e32 v[8:9], v[0:1]",  "v_ceil_f64_e32 v[10:11], v[0:1]",
      "v_trunc_f64_e32 v[12:13], v[0:1]", "v_rndne_f64_e32 v[14:15], v[0:1]",
      "v_cvt_i32_f64_e32 v16, v[0:1]",   "v_cvt_f64_i32_e32 v[18:19], v2",
      "v_cvt_u32_f64_e32 v17, v[0:1]",   "v_ldexp_f64 v[20:21], v[0:1], v2",
      "v_cvt_f64_u32_e32 v[22:23], v2",
  };
  rl_isa_snippet_exec(s, lines, sizeof(lines) / sizeof(lines[0]));
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    double x = rl_ft_values[l];
    int32_t k = (int32_t)(l * 37) - 500;
    rl_ft_expect(rl_ft_reg(wave, 4, l), sqrt(x), "sqrt", l);
    rl_ft_expect(rl_ft_reg(wave, 6, l), 1.0 / x, "rcp", l);
    rl_ft_expect(rl_ft_reg(wave, 8, l), floor(x), "floor", l);
    rl_ft_expect(rl_ft_reg(wave, 10, l), ceil(x), "ceil", l);
    rl_ft_expect(rl_ft_reg(wave, 12, l), trunc(x), "trunc", l);
    rl_ft_expect(rl_ft_reg(wave, 14, l), nearbyint(x), "rndne", l);
    assert_int_equal(wave->vgpr[16][l], (uint32_t)rl_ft_cvt_i32(x));
    uint32_t u = isnan(x) || x <= 0 ? 0 : x >= 4294967295.0 ? 0xffffffffu
                                                             : (uint32_t)x;
    assert_int_equal(wave->vgpr[17][l], u);
    rl_ft_expect(rl_ft_reg(wave, 18, l), (double)k, "cvt_f64_i32", l);
    rl_ft_expect(rl_ft_reg(wave, 20, l), ldexp(x, k), "ldexp", l);
    rl_ft_expect(rl_ft_reg(wave, 22, l), (double)(uint32_t)k, "cvt_f64_u32", l);
  }
  rl_isa_snippet_destroy(s);
}

// v_min_f64 / v_max_f64: -0 below +0, NaN yields the other operand.
static void isa_f64_min_max_order_signed_zeros_and_skip_nan(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint64_t x = rl_ft_bits(rl_ft_values[l]);
    uint64_t y = rl_ft_bits(rl_ft_values[(l * 7 + 3) % 32]);
    wave->vgpr[0][l] = (uint32_t)x;
    wave->vgpr[1][l] = (uint32_t)(x >> 32);
    wave->vgpr[2][l] = (uint32_t)y;
    wave->vgpr[3][l] = (uint32_t)(y >> 32);
  }
  const char* lines[] = {"v_min_f64 v[4:5], v[0:1], v[2:3]",
                         "v_max_f64 v[6:7], v[0:1], v[2:3]"};
  rl_isa_snippet_exec(s, lines, 2);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    double x = rl_ft_values[l], y = rl_ft_values[(l * 7 + 3) % 32];
    double lo = isnan(x) ? y : isnan(y) ? x
              : x == y ? (signbit(x) ? x : y) : (x < y ? x : y);
    double hi = isnan(x) ? y : isnan(y) ? x
              : x == y ? (signbit(x) ? y : x) : (x > y ? x : y);
    rl_ft_expect(rl_ft_reg(wave, 4, l), lo, "min", l);
    rl_ft_expect(rl_ft_reg(wave, 6, l), hi, "max", l);
  }
  rl_isa_snippet_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(isa_f64_unary_and_conversions_match_host_double),
      cmocka_unit_test(isa_f64_min_max_order_signed_zeros_and_skip_nan),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
