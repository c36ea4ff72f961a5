// Tests of the decode reference kernels (kernels/ref/decode_ref.c) and the
// transcendental model (sim/sim_math.h), run one kernel at a time
// through the funnel on the simulated GPU.
//
// Two kinds of checks:
//   - math: each kernel against a plain double-precision computation of the
//     same formula on random inputs, within the tolerances below;
//   - exactness: where the kernel's float semantics are simple enough to
//     restate (the strided-lane + LDS-tree order of matvec and RMSNorm, the
//     fused RoPE rotation, copies, SiLU, the one-chunk merge, argmax ties),
//     bit for bit against that restatement, which was read off the gfx1100
//     disassembly (see the comments in decode_ref.c).
//
// Tolerances (binary32 has u = 2^-24 ~ 6e-8; reductions here have at most
// 512 terms, so the worst-case bound n u is ~3e-5, the typical error far
// smaller):
//   matvec     |got - want| <= 1e-4 x sum_c |W[r][c] x[c]| (relative to the
//              magnitude of the terms, so cancellation cannot fail it)
//   rmsnorm    |got - want| <= 1e-4 x |want| elementwise
//   rope       |got - want| <= 1e-6 x (|x0| + |x1|) (the table is the same
//              binary32 cos/sin in both)
//   attention  |got - want| <= 1e-4 x max_t |v_t[d]| (a convex combination
//              of V rows; exp2/rcp are the sim_math model, ~1 ulp from the
//              hardware, which this bound absorbs)
//   silu_mul   |got - want| <= 1e-5 x |want| + 1e-30
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim_math.h"
#include "tests/unit/kernels/workloads/decode_test_util.h"

#define RL_TEST_TOL_MATVEC 1e-4
#define RL_TEST_TOL_RMSNORM 1e-4
#define RL_TEST_TOL_ROPE 1e-6
#define RL_TEST_TOL_ATTN 1e-4
#define RL_TEST_TOL_SILU 1e-5

static int rl_test_setup(void** state) {
  rl_dt_sim_t* sim = calloc(1, sizeof(*sim));
  assert_non_null(sim);
  rl_dt_sim_open(sim, "decode_ref_test", 0);
  rl_dt_sim_load(sim);
  *state = sim;
  return 0;
}

static int rl_test_teardown(void** state) {
  rl_dt_sim_close(*state);
  free(*state);
  return 0;
}

static void rl_test_fill(uint64_t* seed, float* out, uint32_t count,
                         double amplitude) {
  for (uint32_t i = 0; i < count; ++i) out[i] = rl_dt_uniform(seed, amplitude);
}

static void rl_test_bits(const float* got, const float* want, uint32_t count,
                         const char* what) {
  for (uint32_t i = 0; i < count; ++i) {
    if (memcmp(&got[i], &want[i], 4) != 0) {
      fail_msg("%s[%u]: got %.9g, expected %.9g bit for bit", what, i,
               got[i], want[i]);
    }
  }
}

static bool rl_test_within(double got, double want, double tolerance) {
  return fabs(got - want) <= tolerance;
}

static void rl_test_close(double got, double want, double tolerance,
                          const char* what, uint32_t index) {
  if (!rl_test_within(got, want, tolerance)) {
    fail_msg("%s[%u]: got %.9g, expected %.9g within %.3g", what, index, got,
             want, tolerance);
  }
}

// The kernels' lane order: lane l folds elements l, l + 64, ... with
// |fold|, then the tree adds slot l + s into slot l for s = 32 ... 1.
static float rl_test_tree(float lanes[64]) {
  for (uint32_t s = 32; s > 0; s /= 2) {
    for (uint32_t l = 0; l < s; ++l) lanes[l] = lanes[l] + lanes[l + s];
  }
  return lanes[0];
}

//===----------------------------------------------------------------------===//
// sim_math
//===----------------------------------------------------------------------===//

// The model is the correctly rounded value, with denormals flushed.
static void ref_sim_math_exp2f_is_correctly_rounded_with_denormals_flushed(
    void** state) {
  (void)state;
  for (int k = -126; k <= 127; ++k) {
    assert_true(rl_sim_math_exp2f((float)k) == ldexpf(1.0f, k));
  }
  assert_true(rl_sim_math_exp2f(0.0f) == 1.0f);
  assert_true(rl_sim_math_exp2f(-INFINITY) == 0.0f);
  assert_true(isinf(rl_sim_math_exp2f(INFINITY)));
  assert_true(rl_sim_math_exp2f(-127.0f) == 0.0f);  // 2^-127 is denormal: flushed
  assert_true(rl_sim_math_exp2f(0.5f) == (float)sqrt(2.0));
  assert_true(rl_sim_math_rcpf(4.0f) == 0.25f);
  assert_true(rl_sim_math_rcpf(3.0f) == (float)(1.0 / 3.0));
  assert_true(isinf(rl_sim_math_rcpf(0x1p-130f)));  // denormal input reads as 0
  assert_true(rl_sim_math_rcpf(0x1p127f) == 0.0f);  // 2^-127: flushed result
  assert_true(rl_sim_math_rsqf(4.0f) == 0.5f);
  assert_true(rl_sim_math_rsqf(2.0f) == (float)(1.0 / sqrt(2.0)));
  assert_true(isnan(rl_sim_math_rsqf(-1.0f)));
  assert_true(rl_sim_math_log2f(8.0f) == 3.0f);
  assert_true(isinf(rl_sim_math_log2f(0.0f)) && rl_sim_math_log2f(0.0f) < 0);
  assert_true(rl_sim_math_sqrtf(9.0f) == 3.0f);
  // Not exactly representable: the double result rounded once.
  assert_true(rl_sim_math_exp2f(0.1f) == (float)exp2((double)0.1f));
}

//===----------------------------------------------------------------------===//
// Element-wise kernels
//===----------------------------------------------------------------------===//

// Embedding rows are copied bit for bit; a token past the table clamps.
static void ref_embed_copies_rows_bit_for_bit_and_clamps_token(void** state) {
  rl_dt_sim_t* sim = *state;
  enum { V = 10, N = 100 };
  float table[V * N], out[N];
  uint64_t seed = 11;
  rl_test_fill(&seed, table, V * N, 1.0);
  const uint32_t tokens[2] = {3, 99};
  uint64_t a_table = 0, a_token = 0, a_out = 0;
  rl_dt_buffer(sim, "table", table, sizeof(table), &a_table);
  uint32_t token = rl_dt_buffer(sim, "token", tokens, sizeof(tokens), &a_token);
  uint32_t b_out = rl_dt_buffer(sim, "out", NULL, sizeof(out), &a_out);
  (void)token;
  for (uint32_t t = 0; t < 2; ++t) {
    const rl_funnel_arg_t args[] = {
        rl_funnel_arg_pointer(a_table), rl_funnel_arg_pointer(a_token + 4 * t),
        rl_funnel_arg_pointer(a_out), rl_funnel_arg_u32(N),
        rl_funnel_arg_u32(V)};
    rl_dt_launch(sim, "dc_embed", 2, 1, args, 5);
    rl_dt_read(sim, b_out, out, sizeof(out));
    rl_test_bits(out, &table[(t == 0 ? 3 : V - 1) * N], N, "embed");
  }
}

// Residual add, copies of the K/V rows, SiLU x up.
static void ref_residual_add_kv_copy_and_silu_match_host(void** state) {
  rl_dt_sim_t* sim = *state;
  enum { N = 100, STRIDE = 3 * N, ROWS = 8, POS = 5 };
  static float x[N], delta[N], src[2 * N], cache[ROWS * STRIDE], gu[2 * N];
  uint64_t seed = 12;
  rl_test_fill(&seed, x, N, 4.0);
  rl_test_fill(&seed, delta, N, 4.0);
  rl_test_fill(&seed, src, 2 * N, 1.0);
  rl_test_fill(&seed, gu, 2 * N, 6.0);
  uint64_t ax, ad, as, ac, ag, aa;
  uint32_t bx = rl_dt_buffer(sim, "x", x, sizeof(x), &ax);
  rl_dt_buffer(sim, "delta", delta, sizeof(delta), &ad);
  rl_dt_buffer(sim, "src", src, sizeof(src), &as);
  uint32_t bc = rl_dt_buffer(sim, "cache", NULL, sizeof(cache), &ac);
  rl_dt_buffer(sim, "gu", gu, sizeof(gu), &ag);
  uint32_t ba = rl_dt_buffer(sim, "act", NULL, N * 4, &aa);
  const rl_funnel_arg_t add[] = {rl_funnel_arg_pointer(ax),
                                 rl_funnel_arg_pointer(ad),
                                 rl_funnel_arg_u32(N)};
  rl_dt_launch(sim, "dc_add", 2, 1, add, 3);
  // The second layer's slot: K at +N, V at +2N of each row.
  const rl_funnel_arg_t append[] = {
      rl_funnel_arg_pointer(as), rl_funnel_arg_pointer(ac + N * 4),
      rl_funnel_arg_u32(STRIDE), rl_funnel_arg_u32(POS),
      rl_funnel_arg_u32(N)};
  rl_dt_launch(sim, "dc_kv_append", 2, 1, append, 5);
  const rl_funnel_arg_t silu[] = {rl_funnel_arg_pointer(ag),
                                  rl_funnel_arg_pointer(aa),
                                  rl_funnel_arg_u32(N)};
  rl_dt_launch(sim, "dc_silu_mul", 2, 1, silu, 3);
  static float got_x[N], got_cache[ROWS * STRIDE], got_act[N], want[N];
  rl_dt_read(sim, bx, got_x, sizeof(got_x));
  rl_dt_read(sim, bc, got_cache, sizeof(got_cache));
  rl_dt_read(sim, ba, got_act, sizeof(got_act));
  for (uint32_t i = 0; i < N; ++i) want[i] = x[i] + delta[i];
  rl_test_bits(got_x, want, N, "add");
  memcpy(&cache[POS * STRIDE + N], src, sizeof(src));
  rl_test_bits(got_cache, cache, ROWS * STRIDE, "kv_append (whole cache)");
  for (uint32_t i = 0; i < N; ++i) {
    const float g = gu[i], u = gu[N + i];
    const float e = rl_sim_math_exp2f(g * -1.44269504088896340736f);
    want[i] = (g * rl_sim_math_rcpf(1.0f + e)) * u;
    const double exact = g / (1.0 + exp(-(double)g)) * u;
    rl_test_close(got_act[i], exact, RL_TEST_TOL_SILU * fabs(exact) + 1e-30,
                  "silu_mul", i);
  }
  rl_test_bits(got_act, want, N, "silu_mul");
}

// RoPE: the fused rotation, bit for bit, and close to the double rotation.
static void ref_rope_matches_fused_rotation_and_is_close_to_double(
    void** state) {
  rl_dt_sim_t* sim = *state;
  enum { HD = 16, HALF = HD / 2, H = 64, CTX = 40, POS = 37 };
  static float qk[2 * H], table[CTX * HALF * 2];
  uint64_t seed = 13;
  rl_test_fill(&seed, qk, 2 * H, 2.0);
  for (uint32_t p = 0; p < CTX; ++p) {
    for (uint32_t i = 0; i < HALF; ++i) {
      double angle = p * pow(10000.0, -2.0 * i / HD);
      table[(p * HALF + i) * 2] = (float)cos(angle);
      table[(p * HALF + i) * 2 + 1] = (float)sin(angle);
    }
  }
  uint64_t aq, at;
  uint32_t bq = rl_dt_buffer(sim, "qk", qk, sizeof(qk), &aq);
  rl_dt_buffer(sim, "table", table, sizeof(table), &at);
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(aq), rl_funnel_arg_pointer(at),
      rl_funnel_arg_u32(POS), rl_funnel_arg_u32(HALF), rl_funnel_arg_u32(H)};
  rl_dt_launch(sim, "dc_rope", 1, 1, args, 5);
  float got[2 * H], want[2 * H];
  rl_dt_read(sim, bq, got, sizeof(got));
  for (uint32_t p = 0; p < H; ++p) {
    const float c = table[(POS * HALF + p % HALF) * 2];
    const float s = table[(POS * HALF + p % HALF) * 2 + 1];
    const float x0 = qk[2 * p], x1 = qk[2 * p + 1];
    want[2 * p] = fmaf(x0, c, -(x1 * s));
    want[2 * p + 1] = fmaf(x0, s, x1 * c);
    const double tol = RL_TEST_TOL_ROPE * (fabs(x0) + fabs(x1));
    rl_test_close(got[2 * p], (double)x0 * c - (double)x1 * s, tol, "rope", p);
    rl_test_close(got[2 * p + 1], (double)x0 * s + (double)x1 * c, tol, "rope",
                  p);
  }
  rl_test_bits(got, want, 2 * H, "rope");
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// RMSNorm over n = 64 (one element per lane) and n = 200 (several, the last
// lanes short).
static void ref_rmsnorm_matches_host_for_one_and_several_elements_per_lane(
    void** state) {
  rl_dt_sim_t* sim = *state;
  static float x[200], w[200], got[200], want[200];
  uint64_t seed = 14;
  rl_test_fill(&seed, x, 200, 3.0);
  rl_test_fill(&seed, w, 200, 1.0);
  uint64_t ax, aw, ao;
  rl_dt_buffer(sim, "x", x, sizeof(x), &ax);
  rl_dt_buffer(sim, "w", w, sizeof(w), &aw);
  uint32_t bo = rl_dt_buffer(sim, "out", NULL, sizeof(got), &ao);
  const uint32_t sizes[2] = {64, 200};
  for (uint32_t k = 0; k < 2; ++k) {
    const uint32_t n = sizes[k];
    const float inv_n = (float)(1.0 / n), eps = 1e-5f;
    const rl_funnel_arg_t args[] = {
        rl_funnel_arg_pointer(ax), rl_funnel_arg_pointer(aw),
        rl_funnel_arg_pointer(ao), rl_funnel_arg_u32(n),
        rl_funnel_arg_f32(inv_n), rl_funnel_arg_f32(eps)};
    rl_dt_launch(sim, "dc_rmsnorm", 1, 1, args, 6);
    rl_dt_read(sim, bo, got, n * 4);
    float lanes[64];
    double squares = 0;
    for (uint32_t l = 0; l < 64; ++l) {
      lanes[l] = 0.0f;
      for (uint32_t i = l; i < n; i += 64) {
        lanes[l] = fmaf(x[i], x[i], lanes[l]);
      }
    }
    for (uint32_t i = 0; i < n; ++i) squares += (double)x[i] * x[i];
    const float r = rl_sim_math_rsqf(rl_test_tree(lanes) * inv_n + eps);
    const double exact_r = 1.0 / sqrt(squares / n + (double)eps);
    for (uint32_t i = 0; i < n; ++i) {
      want[i] = (x[i] * r) * w[i];
      const double exact = (double)w[i] * x[i] * exact_r;
      rl_test_close(got[i], exact, RL_TEST_TOL_RMSNORM * fabs(exact),
                    "rmsnorm", i);
    }
    rl_test_bits(got, want, n, "rmsnorm");
  }
}

// y = W x for 70 rows of 200 columns and of 64 columns.
static void ref_matvec_matches_host_for_wide_and_lane_width_rows(void** state) {
  rl_dt_sim_t* sim = *state;
  enum { ROWS = 70, COLS = 200 };
  static float w[ROWS * COLS], x[COLS], got[ROWS];
  uint64_t seed = 15;
  rl_test_fill(&seed, w, ROWS * COLS, 1.0);
  rl_test_fill(&seed, x, COLS, 2.0);
  uint64_t aw, ax, ay;
  rl_dt_buffer(sim, "w", w, sizeof(w), &aw);
  rl_dt_buffer(sim, "x", x, sizeof(x), &ax);
  uint32_t by = rl_dt_buffer(sim, "y", NULL, sizeof(got), &ay);
  const uint32_t widths[2] = {COLS, 64};
  for (uint32_t k = 0; k < 2; ++k) {
    const uint32_t cols = widths[k];
    const rl_funnel_arg_t args[] = {
        rl_funnel_arg_pointer(aw), rl_funnel_arg_pointer(ax),
        rl_funnel_arg_pointer(ay), rl_funnel_arg_u32(cols)};
    rl_dt_launch(sim, "dc_matvec", ROWS, 1, args, 4);
    rl_dt_read(sim, by, got, sizeof(got));
    for (uint32_t r = 0; r < ROWS; ++r) {
      float lanes[64];
      double exact = 0, magnitude = 0;
      for (uint32_t l = 0; l < 64; ++l) {
        lanes[l] = 0.0f;
        for (uint32_t c = l; c < cols; c += 64) {
          lanes[l] = fmaf(w[r * cols + c], x[c], lanes[l]);
        }
      }
      for (uint32_t c = 0; c < cols; ++c) {
        exact += (double)w[r * cols + c] * x[c];
        magnitude += fabs((double)w[r * cols + c] * x[c]);
      }
      const float want = rl_test_tree(lanes);
      rl_test_bits(&got[r], &want, 1, "matvec");
      rl_test_close(got[r], exact, RL_TEST_TOL_MATVEC * magnitude, "matvec",
                    r);
    }
  }
}

// argmax: the first maximum, ties across and within lanes, NaN skipped,
// nothing but -inf gives 0.
static void ref_argmax_picks_first_maximum_skips_nan_and_all_neg_inf_gives_zero(
    void** state) {
  rl_dt_sim_t* sim = *state;
  enum { N = 256, CASES = 6 };
  static float logits[CASES][N];
  uint64_t seed = 16;
  for (uint32_t c = 0; c < CASES; ++c) rl_test_fill(&seed, logits[c], N, 1.0);
  logits[1][10] = logits[1][200] = 5.0f;   // tie across lanes 10 and 8
  logits[2][6] = logits[2][70] = 5.0f;     // tie within lane 6
  logits[3][130] = logits[3][65] = 5.0f;   // lane 2 (130) vs lane 1 (65)
  logits[4][0] = NAN;
  logits[4][5] = 7.0f;
  for (uint32_t i = 0; i < N; ++i) logits[5][i] = -INFINITY;
  uint32_t want[CASES] = {0, 10, 6, 65, 5, 0};
  for (uint32_t i = 1; i < N; ++i) {
    if (logits[0][i] > logits[0][want[0]]) want[0] = i;
  }
  uint64_t al, at;
  rl_dt_buffer(sim, "logits", logits, sizeof(logits), &al);
  uint32_t bt = rl_dt_buffer(sim, "token", NULL, 4, &at);
  for (uint32_t c = 0; c < CASES; ++c) {
    const rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(al + c * N * 4),
                                    rl_funnel_arg_pointer(at),
                                    rl_funnel_arg_u32(N)};
    rl_dt_launch(sim, "dc_argmax", 1, 1, args, 3);
    uint32_t token = 0;
    rl_dt_read(sim, bt, &token, 4);
    if (token != want[c]) fail_msg("case %u: token %u, expected %u", c, token,
                                   want[c]);
  }
  // n = 1: the only element.
  const rl_funnel_arg_t one[] = {rl_funnel_arg_pointer(al + 4 * N + 4),
                                 rl_funnel_arg_pointer(at),
                                 rl_funnel_arg_u32(1)};
  rl_dt_launch(sim, "dc_argmax", 1, 1, one, 3);
  uint32_t token = 99;
  rl_dt_read(sim, bt, &token, 4);
  assert_int_equal(token, 0);
}

//===----------------------------------------------------------------------===//
// Split-KV attention
//===----------------------------------------------------------------------===//

enum {
  RL_TA_HEADS = 4, RL_TA_HD = 16, RL_TA_KV = RL_TA_HEADS * RL_TA_HD,
  RL_TA_LAYERS = 2, RL_TA_STRIDE = RL_TA_LAYERS * 2 * RL_TA_KV,
  RL_TA_CTX = 512, RL_TA_CHUNK = 32, RL_TA_S = RL_TA_CTX / RL_TA_CHUNK,
  RL_TA_WIDTH = RL_TA_HD + 2,
};

// softmax(q k^T / sqrt(hd)) v in double for head |h| over |context| rows
// of the second layer's slot.
static void rl_test_attention_exact(const float* q, const float* cache,
                                    uint32_t h, uint32_t context,
                                    double out[RL_TA_HD],
                                    double* out_vmax) {
  static double scores[RL_TA_CTX];
  const float* slot = cache + 2 * RL_TA_KV;  // layer 1
  double m = -INFINITY, sum = 0;
  for (uint32_t t = 0; t < context; ++t) {
    double dot = 0;
    for (uint32_t d = 0; d < RL_TA_HD; ++d) {
      dot += (double)q[h * RL_TA_HD + d] *
             slot[t * RL_TA_STRIDE + h * RL_TA_HD + d];
    }
    scores[t] = dot / sqrt((double)RL_TA_HD);
    if (scores[t] > m) m = scores[t];
  }
  *out_vmax = 0;
  for (uint32_t d = 0; d < RL_TA_HD; ++d) out[d] = 0;
  for (uint32_t t = 0; t < context; ++t) {
    const double p = exp(scores[t] - m);
    sum += p;
    for (uint32_t d = 0; d < RL_TA_HD; ++d) {
      const float v = slot[t * RL_TA_STRIDE + RL_TA_KV + h * RL_TA_HD + d];
      out[d] += p * v;
      if (fabs(v) > *out_vmax) *out_vmax = fabs(v);
    }
  }
  for (uint32_t d = 0; d < RL_TA_HD; ++d) out[d] /= sum;
}

// Partial + merge at contexts of 1, 31, 32, 33 (across the first chunk
// boundary), 100 and 512 (all chunks), against the double softmax; with a
// single chunk the merge is exactly acc * rcp(l).
static void ref_attention_partial_and_merge_match_double_softmax_across_chunks(
    void** state) {
  rl_dt_sim_t* sim = *state;
  static float q[RL_TA_KV], cache[RL_TA_CTX * RL_TA_STRIDE];
  static float partials[RL_TA_S * RL_TA_HEADS * RL_TA_WIDTH];
  uint64_t seed = 17;
  rl_test_fill(&seed, q, RL_TA_KV, 2.0);
  rl_test_fill(&seed, cache, RL_TA_CTX * RL_TA_STRIDE, 1.0);
  uint64_t aq, ac, ap, ao;
  rl_dt_buffer(sim, "q", q, sizeof(q), &aq);
  rl_dt_buffer(sim, "cache", cache, sizeof(cache), &ac);
  uint32_t bp = rl_dt_buffer(sim, "partials", NULL, sizeof(partials), &ap);
  uint32_t bo = rl_dt_buffer(sim, "out", NULL, RL_TA_KV * 4, &ao);
  const float scale = (float)(1.4426950408889634 / sqrt((double)RL_TA_HD));
  const uint32_t contexts[] = {1, 31, 32, 33, 100, 512};
  for (size_t k = 0; k < sizeof(contexts) / sizeof(contexts[0]); ++k) {
    const uint32_t context = contexts[k];
    const uint32_t chunks = (context + RL_TA_CHUNK - 1) / RL_TA_CHUNK;
    const rl_funnel_arg_t partial[] = {
        rl_funnel_arg_pointer(aq), rl_funnel_arg_pointer(ac + RL_TA_KV * 8),
        rl_funnel_arg_pointer(ap), rl_funnel_arg_u32(RL_TA_STRIDE),
        rl_funnel_arg_u32(RL_TA_HD), rl_funnel_arg_u32(RL_TA_HEADS),
        rl_funnel_arg_u32(RL_TA_CHUNK), rl_funnel_arg_u32(context),
        rl_funnel_arg_f32(scale)};
    rl_dt_launch(sim, "dc_attn_partial", chunks, RL_TA_HEADS, partial, 9);
    const rl_funnel_arg_t merge[] = {
        rl_funnel_arg_pointer(ap), rl_funnel_arg_pointer(ao),
        rl_funnel_arg_u32(RL_TA_HD), rl_funnel_arg_u32(RL_TA_HEADS),
        rl_funnel_arg_u32(chunks)};
    rl_dt_launch(sim, "dc_attn_merge", RL_TA_HEADS, 1, merge, 5);
    float got[RL_TA_KV];
    rl_dt_read(sim, bo, got, sizeof(got));
    rl_dt_read(sim, bp, partials, sizeof(partials));
    for (uint32_t h = 0; h < RL_TA_HEADS; ++h) {
      double exact[RL_TA_HD], vmax = 0;
      rl_test_attention_exact(q, cache, h, context, exact, &vmax);
      const float* one = &partials[h * RL_TA_WIDTH];  // chunk 0 of head h
      // Negative control: an error of twice the tolerance is caught.
      assert_false(rl_test_within(exact[0] + 2 * RL_TEST_TOL_ATTN * vmax,
                                  exact[0], RL_TEST_TOL_ATTN * vmax));
      for (uint32_t d = 0; d < RL_TA_HD; ++d) {
        rl_test_close(got[h * RL_TA_HD + d], exact[d], RL_TEST_TOL_ATTN * vmax,
                      "attention", h * RL_TA_HD + d);
        if (chunks == 1) {
          const float want = one[2 + d] * rl_sim_math_rcpf(one[1]);
          rl_test_bits(&got[h * RL_TA_HD + d], &want, 1, "one-chunk merge");
        }
      }
    }
  }
}

// The reference refuses what the kernel cannot do: a chunk past its 64-lane
// LDS, a RoPE remainder by zero. Both fault the queue.
static void ref_refuses_chunk_past_lds_and_rope_remainder_by_zero(
    void** state) {
  rl_dt_sim_t* sim = *state;
  uint64_t a = 0;
  rl_dt_buffer(sim, "b", NULL, 65536, &a);
  uint32_t kernel = 0;
  rl_dt_ok(rl_funnel_kernel(sim->funnel, sim->code_object, "dc_attn_partial",
                            &kernel));
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(a), rl_funnel_arg_pointer(a),
      rl_funnel_arg_pointer(a), rl_funnel_arg_u32(0), rl_funnel_arg_u32(16),
      rl_funnel_arg_u32(1), rl_funnel_arg_u32(65), rl_funnel_arg_u32(1),
      rl_funnel_arg_f32(1.0f)};
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  rl_dt_expect(rl_funnel_launch(sim->funnel, kernel, grid, block, 0, args, 9,
                                NULL, NULL),
               RL_STATUS_POISONED, "chunk 65");
}

static void test_rope_refuses_half_zero(void** state) {
  rl_dt_sim_t* sim = *state;
  uint64_t a = 0;
  rl_dt_buffer(sim, "b", NULL, 4096, &a);
  uint32_t kernel = 0;
  rl_dt_ok(rl_funnel_kernel(sim->funnel, sim->code_object, "dc_rope",
                            &kernel));
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(a), rl_funnel_arg_pointer(a),
      rl_funnel_arg_u32(0), rl_funnel_arg_u32(0), rl_funnel_arg_u32(4)};
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
  rl_dt_expect(rl_funnel_launch(sim->funnel, kernel, grid, block, 0, args, 5,
                                NULL, NULL),
               RL_STATUS_POISONED, "half 0");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(
          ref_sim_math_exp2f_is_correctly_rounded_with_denormals_flushed),
      cmocka_unit_test_setup_teardown(
          ref_embed_copies_rows_bit_for_bit_and_clamps_token, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_residual_add_kv_copy_and_silu_match_host, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_rope_matches_fused_rotation_and_is_close_to_double, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_rmsnorm_matches_host_for_one_and_several_elements_per_lane,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_matvec_matches_host_for_wide_and_lane_width_rows, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_argmax_picks_first_maximum_skips_nan_and_all_neg_inf_gives_zero,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_attention_partial_and_merge_match_double_softmax_across_chunks,
          rl_test_setup, rl_test_teardown),
      cmocka_unit_test_setup_teardown(
          ref_refuses_chunk_past_lds_and_rope_remainder_by_zero, rl_test_setup,
          rl_test_teardown),
      cmocka_unit_test_setup_teardown(test_rope_refuses_half_zero,
                                      rl_test_setup, rl_test_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
