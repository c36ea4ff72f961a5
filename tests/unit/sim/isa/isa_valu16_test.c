// Tests of the 16-bit and packed VALU operations (sim/isa/
// isa_valu16.c, isa_packed.c): each instruction, assembled by llvm-mc-19,
// runs on random inputs in all 32 lanes and must match a value computed
// here on the host by separate code written from the RDNA3 ISA guide's
// pseudo-code: binary16 rounding on the bit patterns of a binary64 (not
// the executor's frexp-based rounding), integer 16-bit arithmetic in C,
// and the high half of a 16-bit result preserved.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/sim/isa/isa_snippet.h"

// ---------------------------------------------------------------------------
// Host binary16 model.

static double rl_vt_h2d(uint32_t h) {
  uint32_t e = (h >> 10) & 31, m = h & 0x3ff;
  double v = e == 0 ? m * 0x1p-24 : e == 31 ? (m ? NAN : INFINITY)
                                            : (1024 + m) * ldexp(1.0, (int)e - 25);
  return (h & 0x8000) ? -v : v;
}

// Rounds a binary64 to binary16 on its bit pattern, nearest even.
static uint32_t rl_vt_d2h(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  uint32_t sign = (uint32_t)(u >> 48) & 0x8000u;
  int32_t exp = (int32_t)((u >> 52) & 0x7ff);
  uint64_t man = u & 0xfffffffffffffull;
  if (exp == 0x7ff) return sign | (man ? 0x7e00u : 0x7c00u);
  if (exp == 0) return sign;  // binary64 denormals are far below binary16
  man |= 1ull << 52;
  int32_t e16 = exp - 1023 + 15;
  // Keep 11 bits for a normal result, fewer for a denormal one.
  int32_t shift = e16 >= 1 ? 42 : 42 + (1 - e16);
  if (shift > 60) return sign;
  uint64_t kept = man >> shift, rest = man & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  if (rest > half || (rest == half && (kept & 1))) ++kept;
  if (e16 < 1) return sign | (uint32_t)kept;  // denormal (or the smallest normal)
  uint32_t bits = (uint32_t)((uint64_t)e16 << 10) + (uint32_t)(kept - 1024);
  return bits >= 0x7c00u ? sign | 0x7c00u : sign | bits;
}

static bool rl_vt_isnan16(uint32_t h) {
  return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
}

static uint32_t rl_vt_state = 0x9e3779b9u;
static uint32_t rl_vt_random(void) {
  rl_vt_state ^= rl_vt_state << 13;
  rl_vt_state ^= rl_vt_state >> 17;
  rl_vt_state ^= rl_vt_state << 5;
  return rl_vt_state;
}

// ---------------------------------------------------------------------------
// Harness: one line, random v1 v2 v3 (and v0, the old destination), the
// expected v0 from |ref|.

typedef uint32_t (*rl_vt_ref_fn)(uint32_t a, uint32_t b, uint32_t c,
                                 uint32_t old, uint32_t lane);
enum { RL_VT_EXACT, RL_VT_F16_LO, RL_VT_F16_BOTH, RL_VT_F32 };

static bool rl_vt_same(uint32_t got, uint32_t expected, int kind) {
  if (kind == RL_VT_F32) {
    bool gn = (got & 0x7fffffff) > 0x7f800000u;
    bool en = (expected & 0x7fffffff) > 0x7f800000u;
    return gn || en ? gn && en : got == expected;
  }
  if (kind == RL_VT_EXACT) return got == expected;
  for (int half = 0; half < 2; ++half) {
    uint32_t g = (got >> (16 * half)) & 0xffff;
    uint32_t e = (expected >> (16 * half)) & 0xffff;
    bool nan_ok = kind == RL_VT_F16_BOTH || half == 0;
    if (nan_ok && (rl_vt_isnan16(g) || rl_vt_isnan16(e))) {
      if (!(rl_vt_isnan16(g) && rl_vt_isnan16(e))) return false;
    } else if (g != e) {
      return false;
    }
  }
  return true;
}

static uint32_t rl_vt_input(int n) {
  uint32_t x = rl_vt_random();
  if (n == 0 && (x & 7) == 0) x &= 0xffff83ffu;  // some denormals and zeros
  return x;
}

static void rl_vt_check(const char* line, rl_vt_ref_fn ref, int kind,
                        uint32_t rounds) {
  rl_isa_snippet_t* s = rl_isa_snippet_create(RL_ISA_MODE_IEEE);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  rl_isa_snippet_load(s, &line, 1);
  for (uint32_t r = 0; r < rounds; ++r) {
    uint32_t in[4][RL_ISA_LANES];
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      for (int n = 0; n < 4; ++n) wave->vgpr[n][l] = in[n][l] = rl_vt_input(n);
    }
    assert_int_equal(rl_isa_snippet_run(s), RL_OK);
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      uint32_t expected = ref(in[1][l], in[2][l], in[3][l], in[0][l], l);
      if (!rl_vt_same(wave->vgpr[0][l], expected, kind)) {
        fail_msg("%s: lane %u a=%08x b=%08x c=%08x old=%08x: got %08x, "
                 "expected %08x", line, l, in[1][l], in[2][l], in[3][l],
                 in[0][l], wave->vgpr[0][l], expected);
      }
    }
  }
  rl_isa_snippet_destroy(s);
}

#define LO(x) ((x) & 0xffffu)
#define KEEP(old, r) (((old) & 0xffff0000u) | ((r) & 0xffffu))
static int32_t rl_vt_s16(uint32_t x) { return (int16_t)(uint16_t)x; }
static uint32_t rl_vt_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float rl_vt_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

// ---------------------------------------------------------------------------
// Conversions.

#define REF(name, body)                                                   \
  static uint32_t name(uint32_t a, uint32_t b, uint32_t c, uint32_t old,  \
                       uint32_t lane) {                                   \
    (void)a, (void)b, (void)c, (void)old, (void)lane;                     \
    body;                                                                 \
  }

REF(ref_cvt_f32_f16, return rl_vt_f2u((float)rl_vt_h2d(LO(a))))
REF(ref_cvt_f16_f32, return KEEP(old, rl_vt_d2h(rl_vt_u2f(a))))
REF(ref_cvt_f16_u16, return KEEP(old, rl_vt_d2h(LO(a))))
REF(ref_cvt_f16_i16, return KEEP(old, rl_vt_d2h(rl_vt_s16(a))))
REF(ref_add_f16, return KEEP(old, rl_vt_d2h(rl_vt_h2d(LO(a)) + rl_vt_h2d(LO(b)))))
REF(ref_sub_f16, return KEEP(old, rl_vt_d2h(rl_vt_h2d(LO(a)) - rl_vt_h2d(LO(b)))))
REF(ref_mul_f16, return KEEP(old, rl_vt_d2h(rl_vt_h2d(LO(a)) * rl_vt_h2d(LO(b)))))
REF(ref_fma_f16, return KEEP(old, rl_vt_d2h(fma(rl_vt_h2d(LO(a)), rl_vt_h2d(LO(b)), rl_vt_h2d(LO(c))))))
REF(ref_fmac_f16, return KEEP(old, rl_vt_d2h(fma(rl_vt_h2d(LO(a)), rl_vt_h2d(LO(b)), rl_vt_h2d(LO(old))))))
// K = 0x3e00 (1.5) for the literal forms.
REF(ref_fmaak_f16, return KEEP(old, rl_vt_d2h(fma(rl_vt_h2d(LO(a)), rl_vt_h2d(LO(b)), 1.5))))
REF(ref_fmamk_f16, return KEEP(old, rl_vt_d2h(fma(rl_vt_h2d(LO(a)), 1.5, rl_vt_h2d(LO(b))))))

static void test_f16_conversions(void** state) {
  (void)state;
  rl_vt_check("v_cvt_f32_f16_e32 v0, v1", ref_cvt_f32_f16, RL_VT_F32, 64);
  rl_vt_check("v_cvt_f16_f32_e32 v0, v1", ref_cvt_f16_f32, RL_VT_F16_LO, 64);
  rl_vt_check("v_cvt_f16_u16_e32 v0, v1", ref_cvt_f16_u16, RL_VT_F16_LO, 16);
  rl_vt_check("v_cvt_f16_i16_e32 v0, v1", ref_cvt_f16_i16, RL_VT_F16_LO, 16);
}

// cvt_f16_f32 on the rounding edges: ties to even, the denormal range,
// overflow to infinity, and every binary16 through cvt_f32_f16.
static void test_f16_rounding_edges(void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  const char* line = "v_cvt_f16_f32_e32 v0, v1";
  rl_isa_snippet_load(s, &line, 1);
  static const float edges[] = {
      1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65504.0f, 65519.0f, 65520.0f,
      0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f, 0x1.ffcp-15f, 0x1p-14f,
      -0x1.004p-14f, 1e-10f, -1e10f, 0.0f, -0.0f};
  const uint32_t n = sizeof(edges) / sizeof(edges[0]);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    wave->vgpr[1][l] = rl_vt_f2u(edges[l % n]);
    wave->vgpr[0][l] = 0x5a5a0000u;
  }
  assert_int_equal(rl_isa_snippet_run(s), RL_OK);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    assert_int_equal(wave->vgpr[0][l],
                     0x5a5a0000u | rl_vt_d2h(edges[l % n]));
  }
  line = "v_cvt_f32_f16_e32 v0, v1";
  rl_isa_snippet_load(s, &line, 1);
  for (uint32_t h = 0; h < 0x10000; h += RL_ISA_LANES) {
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->vgpr[1][l] = h + l;
    assert_int_equal(rl_isa_snippet_run(s), RL_OK);
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      assert_true(rl_vt_same(wave->vgpr[0][l],
                             rl_vt_f2u((float)rl_vt_h2d(h + l)), RL_VT_F32));
    }
  }
  rl_isa_snippet_destroy(s);
}

static void isa_valu16_f16_arithmetic_matches_binary16_host_model(
    void** state) {
  (void)state;
  rl_vt_check("v_add_f16_e32 v0, v1, v2", ref_add_f16, RL_VT_F16_LO, 64);
  rl_vt_check("v_sub_f16_e64 v0, v1, v2", ref_sub_f16, RL_VT_F16_LO, 64);
  rl_vt_check("v_mul_f16_e32 v0, v1, v2", ref_mul_f16, RL_VT_F16_LO, 64);
  rl_vt_check("v_fma_f16 v0, v1, v2, v3", ref_fma_f16, RL_VT_F16_LO, 64);
  rl_vt_check("v_fmac_f16_e32 v0, v1, v2", ref_fmac_f16, RL_VT_F16_LO, 64);
  rl_vt_check("v_fmaak_f16 v0, v1, v2, 0x3e00", ref_fmaak_f16, RL_VT_F16_LO, 64);
  rl_vt_check("v_fmamk_f16 v0, v1, 0x3e00, v2", ref_fmamk_f16, RL_VT_F16_LO, 64);
}

// ---------------------------------------------------------------------------
// 16-bit integers.

REF(ref_lshrrev_b16, return KEEP(old, LO(b) >> (a & 15)))
REF(ref_lshlrev_b16, return KEEP(old, LO(b) << (a & 15)))
REF(ref_ashrrev_i16, return KEEP(old, (uint32_t)(rl_vt_s16(b) >> (a & 15))))
REF(ref_add_nc_u16, return KEEP(old, a + b))
REF(ref_sub_nc_u16, return KEEP(old, a - b))
REF(ref_mul_lo_u16, return KEEP(old, LO(a) * LO(b)))
REF(ref_mad_u16, return KEEP(old, LO(a) * LO(b) + LO(c)))
REF(ref_max_i16, return KEEP(old, rl_vt_s16(a) > rl_vt_s16(b) ? a : b))
REF(ref_min_u16, return KEEP(old, LO(a) < LO(b) ? a : b))
REF(ref_cvt_u32_u16, return LO(a))
REF(ref_cvt_i32_i16, return (uint32_t)rl_vt_s16(a))
REF(ref_pack_b32_f16, return LO(a) | LO(b) << 16)

static void isa_valu16_int16_ops_keep_high_half_and_match_host(void** state) {
  (void)state;
  rl_vt_check("v_lshrrev_b16 v0, v1, v2", ref_lshrrev_b16, RL_VT_EXACT, 8);
  rl_vt_check("v_lshlrev_b16 v0, v1, v2", ref_lshlrev_b16, RL_VT_EXACT, 8);
  rl_vt_check("v_ashrrev_i16 v0, v1, v2", ref_ashrrev_i16, RL_VT_EXACT, 8);
  rl_vt_check("v_add_nc_u16 v0, v1, v2", ref_add_nc_u16, RL_VT_EXACT, 8);
  rl_vt_check("v_sub_nc_u16 v0, v1, v2", ref_sub_nc_u16, RL_VT_EXACT, 8);
  rl_vt_check("v_mul_lo_u16 v0, v1, v2", ref_mul_lo_u16, RL_VT_EXACT, 8);
  rl_vt_check("v_mad_u16 v0, v1, v2, v3", ref_mad_u16, RL_VT_EXACT, 8);
  rl_vt_check("v_max_i16 v0, v1, v2", ref_max_i16, RL_VT_EXACT, 8);
  rl_vt_check("v_min_u16 v0, v1, v2", ref_min_u16, RL_VT_EXACT, 8);
  rl_vt_check("v_cvt_u32_u16_e32 v0, v1", ref_cvt_u32_u16, RL_VT_EXACT, 8);
  rl_vt_check("v_cvt_i32_i16_e32 v0, v1", ref_cvt_i32_i16, RL_VT_EXACT, 8);
  rl_vt_check("v_pack_b32_f16 v0, v1, v2", ref_pack_b32_f16, RL_VT_EXACT, 8);
}

// v_cmp_*_u16 / v_cmpx_lt_u16 / v_cmp_*_i16 / v_cmp_*_f16: the mask of
// active lanes whose condition holds (v_cmpx writes EXEC).
static void isa_valu16_compares_set_mask_of_active_lanes_and_cmpx_writes_exec(
    void** state) {
  (void)state;
  rl_isa_snippet_t* s = rl_isa_snippet_create(0);
  rl_isa_wave_t* wave = rl_isa_snippet_wave(s);
  for (uint32_t round = 0; round < 16; ++round) {
    uint32_t a[RL_ISA_LANES], b[RL_ISA_LANES];
    uint32_t lt_u = 0, gt_i = 0, eq_f = 0, le_f = 0;
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      a[l] = rl_vt_random();
      b[l] = (l & 3) == 0 ? a[l] ^ 0xffff0000u : rl_vt_random();
      wave->vgpr[1][l] = a[l];
      wave->vgpr[2][l] = b[l];
      lt_u |= (uint32_t)(LO(a[l]) < LO(b[l])) << l;
      gt_i |= (uint32_t)(rl_vt_s16(a[l]) > rl_vt_s16(b[l])) << l;
      eq_f |= (uint32_t)(rl_vt_h2d(LO(a[l])) == rl_vt_h2d(LO(b[l]))) << l;
      le_f |= (uint32_t)(rl_vt_h2d(LO(a[l])) <= rl_vt_h2d(LO(b[l]))) << l;
    }
    wave->sgpr[126] = 0xffffffffu;
    const char* lines[] = {"v_cmp_gt_i16_e64 s8, v1, v2",
                           "v_cmp_eq_f16_e32 vcc_lo, v1, v2",
                           "v_cmp_le_f16_e64 s10, v1, v2",
                           "v_cmpx_lt_u16_e32 v1, v2",
                           "v_cmp_lt_u16_e64 s12, v1, v2"};
    rl_isa_snippet_exec(s, lines, 5);
    assert_int_equal(wave->sgpr[8], gt_i);
    assert_int_equal(wave->sgpr[106], eq_f);
    assert_int_equal(wave->sgpr[10], le_f);
    assert_int_equal(wave->sgpr[126], lt_u);  // EXEC
    assert_int_equal(wave->sgpr[12], lt_u);   // inactive lanes give 0
  }
  rl_isa_snippet_destroy(s);
}

// ---------------------------------------------------------------------------
// Packed and mixed.

static uint32_t rl_vt_hh(uint32_t x, int hi) { return (x >> (16 * hi)) & 0xffff; }

REF(ref_pk_add_f16,
    return rl_vt_d2h(rl_vt_h2d(rl_vt_hh(a, 0)) + rl_vt_h2d(rl_vt_hh(b, 0))) |
           rl_vt_d2h(rl_vt_h2d(rl_vt_hh(a, 1)) + rl_vt_h2d(rl_vt_hh(b, 1))) << 16)
REF(ref_pk_mul_f16,
    return rl_vt_d2h(rl_vt_h2d(rl_vt_hh(a, 0)) * rl_vt_h2d(rl_vt_hh(b, 0))) |
           rl_vt_d2h(rl_vt_h2d(rl_vt_hh(a, 1)) * rl_vt_h2d(rl_vt_hh(b, 1))) << 16)
REF(ref_pk_fma_f16,
    return rl_vt_d2h(fma(rl_vt_h2d(rl_vt_hh(a, 0)), rl_vt_h2d(rl_vt_hh(b, 0)),
                         rl_vt_h2d(rl_vt_hh(c, 0)))) |
           rl_vt_d2h(fma(rl_vt_h2d(rl_vt_hh(a, 1)), rl_vt_h2d(rl_vt_hh(b, 1)),
                         rl_vt_h2d(rl_vt_hh(c, 1)))) << 16)
// op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1]: the low result is
// a.hi * -b.lo, the high result a.lo * b.hi.
REF(ref_pk_mul_sel,
    return rl_vt_d2h(rl_vt_h2d(rl_vt_hh(a, 1)) * -rl_vt_h2d(rl_vt_hh(b, 0))) |
           rl_vt_d2h(rl_vt_h2d(rl_vt_hh(a, 0)) * rl_vt_h2d(rl_vt_hh(b, 1))) << 16)
// The dot products round once to binary32: the binary16 products are exact
// in binary64, the sum is kept in long double (a binary64 sum rounded again
// to binary32 is 1 ulp off for a = 2aaeae36, b = 126a21c2, c = 9c1b178b:
// exact 0xba89b0af).
static long double rl_vt_dot2(uint32_t a, uint32_t b) {
  return (long double)(rl_vt_h2d(rl_vt_hh(a, 0)) * rl_vt_h2d(rl_vt_hh(b, 0))) +
         (long double)(rl_vt_h2d(rl_vt_hh(a, 1)) * rl_vt_h2d(rl_vt_hh(b, 1)));
}
REF(ref_dot2_f32_f16,
    return rl_vt_f2u((float)(rl_vt_dot2(a, b) + (long double)rl_vt_u2f(c))))
REF(ref_dot2acc_f32_f16,
    return rl_vt_f2u((float)(rl_vt_dot2(a, b) + (long double)rl_vt_u2f(old))))

static uint32_t rl_vt_dot4(uint32_t a, uint32_t b, uint32_t c, bool sa,
                           bool sb) {
  int64_t sum = sa || sb ? (int32_t)c : (int64_t)c;
  for (int i = 0; i < 4; ++i) {
    uint32_t x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
    sum += (sa ? (int8_t)x : (int64_t)x) * (sb ? (int8_t)y : (int64_t)y);
  }
  return (uint32_t)sum;
}
REF(ref_dot4_ss, return rl_vt_dot4(a, b, c, true, true))
REF(ref_dot4_su, return rl_vt_dot4(a, b, c, true, false))
REF(ref_dot4_uu, return rl_vt_dot4(a, b, c, false, false))
// v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]: f16 a.lo * f16 b.lo + f32 c.
REF(ref_mix_f32,
    return rl_vt_f2u(fmaf((float)rl_vt_h2d(rl_vt_hh(a, 0)),
                          (float)rl_vt_h2d(rl_vt_hh(b, 0)), rl_vt_u2f(c))))
// mixlo with op_sel:[1,0,0] op_sel_hi:[1,1,0]: a.hi * b.lo + c, to the low
// half; mixhi with -v3: a.lo * b.lo - c, to the high half.
REF(ref_mixlo,
    return (old & 0xffff0000u) |
           rl_vt_d2h(fmaf((float)rl_vt_h2d(rl_vt_hh(a, 1)),
                          (float)rl_vt_h2d(rl_vt_hh(b, 0)), rl_vt_u2f(c))))
REF(ref_mixhi,
    return (old & 0xffffu) |
           rl_vt_d2h(fmaf((float)rl_vt_h2d(rl_vt_hh(a, 0)),
                          (float)rl_vt_h2d(rl_vt_hh(b, 0)), -rl_vt_u2f(c))) << 16)

static void isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model(
    void** state) {
  (void)state;
  rl_vt_check("v_pk_add_f16 v0, v1, v2", ref_pk_add_f16, RL_VT_F16_BOTH, 32);
  rl_vt_check("v_pk_mul_f16 v0, v1, v2", ref_pk_mul_f16, RL_VT_F16_BOTH, 32);
  rl_vt_check("v_pk_fma_f16 v0, v1, v2, v3", ref_pk_fma_f16, RL_VT_F16_BOTH, 32);
  rl_vt_check("v_pk_mul_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1] "
              "neg_lo:[0,1]", ref_pk_mul_sel, RL_VT_F16_BOTH, 32);
  rl_vt_check("v_dot2_f32_f16 v0, v1, v2, v3", ref_dot2_f32_f16, RL_VT_F32, 32);
  rl_vt_check("v_dot2acc_f32_f16 v0, v1, v2", ref_dot2acc_f32_f16, RL_VT_F32, 32);
  rl_vt_check("v_dot4_i32_iu8 v0, v1, v2, v3 neg_lo:[1,1,0]", ref_dot4_ss,
              RL_VT_EXACT, 16);
  rl_vt_check("v_dot4_i32_iu8 v0, v1, v2, v3 neg_lo:[1,0,0]", ref_dot4_su,
              RL_VT_EXACT, 16);
  rl_vt_check("v_dot4_u32_u8 v0, v1, v2, v3", ref_dot4_uu, RL_VT_EXACT, 16);
  rl_vt_check("v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]", ref_mix_f32,
              RL_VT_F32, 32);
  rl_vt_check("v_fma_mixlo_f16 v0, v1, v2, v3 op_sel:[1,0,0] "
              "op_sel_hi:[1,1,0]", ref_mixlo, RL_VT_F16_LO, 32);
  rl_vt_check("v_fma_mixhi_f16 v0, v1, v2, -v3 op_sel_hi:[1,1,0]",
              ref_mixhi, RL_VT_F16_BOTH, 32);
}

// Negative control: the comparison the checks rely on rejects a wrong
// value, a wrong preserved half and a NaN against a number.
static void test_comparison_can_fail(void** state) {
  (void)state;
  assert_false(rl_vt_same(0x12343c00u, 0x12343c01u, RL_VT_F16_LO));
  assert_false(rl_vt_same(0x12353c00u, 0x12343c00u, RL_VT_F16_LO));
  assert_false(rl_vt_same(0x00007e00u, 0x00003c00u, RL_VT_F16_LO));
  assert_true(rl_vt_same(0x00007e01u, 0x00007e00u, RL_VT_F16_LO));
  assert_false(rl_vt_same(0x7fc00000u, 0x3f800000u, RL_VT_F32));
  assert_int_equal(rl_vt_d2h(1.0 + 0x1p-11), 0x3c00u);  // tie to even
  assert_int_equal(rl_vt_d2h(0x1p-25), 0x0000u);
  assert_int_equal(rl_vt_d2h(0x1.8p-25), 0x0001u);
  assert_int_equal(rl_vt_d2h(65520.0), 0x7c00u);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_comparison_can_fail),
      cmocka_unit_test(test_f16_conversions),
      cmocka_unit_test(test_f16_rounding_edges),
      cmocka_unit_test(isa_valu16_f16_arithmetic_matches_binary16_host_model),
      cmocka_unit_test(isa_valu16_int16_ops_keep_high_half_and_match_host),
      cmocka_unit_test(
          isa_valu16_compares_set_mask_of_active_lanes_and_cmpx_writes_exec),
      cmocka_unit_test(
          isa_valu16_packed_fma_dot_and_mix_match_binary16_host_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
