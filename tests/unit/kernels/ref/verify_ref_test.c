// Tests of the verify kernels (kernels/verify.hip through the reference
// executor, kernels/ref/verify_ref.c), one kernel at a time through the
// funnel on the simulated GPU.
//
//   attention  split-KV with S = 1 bit for bit against direct attention
//              (one online-softmax pass over the whole causal context, then
//              acc x rcp(l), restated here); S = 8 and S = 1 against the
//              exact softmax attention in double precision over the
//              dequantised cache, |got - want| <= 1e-6 x max |v| (a convex
//              combination of V rows; exp2/rcp are the ref_math model, ~1
//              ulp from hardware). Negative control: the same comparison
//              against attention with the causal mask off by one fails.
//   kv_append  scale = (max |v|) x (1/127) bit for bit; |q x scale - v| <=
//              scale / 2 (rounding to nearest); q in [-127, 127]; the other
//              rows' bytes untouched.
//   rollback   after save, append and restore with tau, rows < tau keep
//              the appended bytes and rows >= tau hold exactly the previous
//              bytes and scales; the recurrent state equals history entry
//              tau (entry 0: before the step). Negative control: with tau =
//              B nothing is restored and the same check on the previous
//              bytes fails.
//   recurrence against the recurrence in double, 1e-5 relative.
//   accept     exact acceptance for constructed drafts: tau = the matching
//              prefix against the previous row's argmax (state[3] for row
//              0), the heads, state[3] = the last argmax, the next drafts
//              from the table row of the next window (clamped); tau = 0,
//              0 < tau < B and tau = B. Negative control: a draft that
//              differs from the argmax only in bit 8 (the old two-bit
//              comparison would accept it) ends the prefix.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim_math.h"
#include "tests/unit/kernels/workloads/decode_test_util.h"

#define RL_VT_TOL_ATTN 1e-6
#define RL_VT_HEADS 2u
#define RL_VT_HD 16u
#define RL_VT_N (RL_VT_HEADS * RL_VT_HD)
#define RL_VT_ROW_BYTES (2u * RL_VT_N)  // one layer: K then V
#define RL_VT_ROW_SCALES 2u

static int rl_vt_setup(void** state) {
  rl_dt_sim_t* sim = calloc(1, sizeof(*sim));
  assert_non_null(sim);
  rl_dt_sim_open_kernels(sim, "verify_ref_test", 0, "gfx1100", "verify");
  rl_dt_sim_load(sim);
  *state = sim;
  return 0;
}

static int rl_vt_teardown(void** state) {
  rl_dt_sim_close(*state);
  free(*state);
  return 0;
}

static void rl_vt_launch(rl_dt_sim_t* sim, const char* name, uint32_t gx,
                         uint32_t gy, uint32_t gz,
                         const rl_funnel_arg_t* args, uint32_t count) {
  uint32_t kernel = 0;
  rl_dt_ok(rl_funnel_kernel(sim->funnel, sim->code_object, name, &kernel));
  const uint32_t grid[3] = {gx, gy, gz}, block[3] = {64, 1, 1};
  rl_dt_ok(rl_funnel_launch(sim->funnel, kernel, grid, block, 0, args, count,
                            NULL, NULL));
}

static rl_funnel_arg_t rl_vt_p(uint64_t address) {
  return rl_funnel_arg_pointer(address);
}

static rl_funnel_arg_t rl_vt_u(uint32_t value) {
  return rl_funnel_arg_u32(value);
}

//===--- attention ------------------------------------------------------===//

typedef struct rl_vt_attn_case_s {
  uint32_t batch, pos, context;  // context = pos + batch rows in the cache
  int8_t* cache;                 // [context][ROW_BYTES]
  float* scales;                 // [context][2]
  float* qkv;                    // [batch][3n]
} rl_vt_attn_case_t;

static void rl_vt_attn_case(rl_vt_attn_case_t* c, uint32_t batch,
                            uint32_t pos, uint64_t seed) {
  c->batch = batch;
  c->pos = pos;
  c->context = pos + batch;
  c->cache = malloc((size_t)c->context * RL_VT_ROW_BYTES);
  c->scales = malloc((size_t)c->context * RL_VT_ROW_SCALES * 4);
  c->qkv = calloc((size_t)batch * 3 * RL_VT_N, 4);
  assert_true(c->cache && c->scales && c->qkv);
  for (uint32_t i = 0; i < c->context * RL_VT_ROW_BYTES; ++i) {
    c->cache[i] = (int8_t)((int)(rl_dt_next(&seed) % 255u) - 127);
  }
  for (uint32_t i = 0; i < c->context * RL_VT_ROW_SCALES; ++i) {
    c->scales[i] = (1.0f + rl_dt_uniform(&seed, 0.5)) / 127.0f;
  }
  for (uint32_t i = 0; i < batch * 3 * RL_VT_N; ++i) {
    c->qkv[i] = rl_dt_uniform(&seed, 2.0);
  }
}

static void rl_vt_attn_free(rl_vt_attn_case_t* c) {
  free(c->cache);
  free(c->scales);
  free(c->qkv);
}

static float rl_vt_score_scale(void) {
  return (float)(1.4426950408889634 / sqrt((double)RL_VT_HD));
}

// Runs vf_attn_partial with |chunks| and vf_attn_merge; out [batch][n].
static void rl_vt_attn_run(rl_dt_sim_t* sim, const rl_vt_attn_case_t* c,
                           uint32_t chunks, float* out) {
  uint64_t a_qkv = 0, a_kv = 0, a_ks = 0, a_part = 0, a_out = 0;
  char names[5][32];
  const char* const bases[5] = {"qkv", "kv", "ks", "partials", "attn"};
  for (uint32_t i = 0; i < 5; ++i) {
    snprintf(names[i], sizeof(names[i]), "%s_s%u", bases[i], chunks);
  }
  rl_dt_buffer(sim, names[0], c->qkv, (uint64_t)c->batch * 3 * RL_VT_N * 4,
               &a_qkv);
  rl_dt_buffer(sim, names[1], c->cache,
               (uint64_t)c->context * RL_VT_ROW_BYTES, &a_kv);
  rl_dt_buffer(sim, names[2], c->scales,
               (uint64_t)c->context * RL_VT_ROW_SCALES * 4, &a_ks);
  rl_dt_buffer(sim, names[3], NULL,
               (uint64_t)c->batch * RL_VT_HEADS * chunks * (RL_VT_HD + 2) * 4,
               &a_part);
  uint32_t out_buffer = rl_dt_buffer(sim, names[4], NULL,
                                     (uint64_t)c->batch * RL_VT_N * 4, &a_out);
  const uint32_t chunk = (c->context + chunks - 1) / chunks;
  const rl_funnel_arg_t partial[] = {
      rl_vt_p(a_qkv), rl_vt_p(a_kv), rl_vt_p(a_ks), rl_vt_p(a_part),
      rl_vt_u(RL_VT_ROW_BYTES), rl_vt_u(RL_VT_ROW_SCALES), rl_vt_u(RL_VT_HD),
      rl_vt_u(RL_VT_HEADS), rl_vt_u(chunk), rl_vt_u(chunks), rl_vt_u(c->pos),
      rl_funnel_arg_f32(rl_vt_score_scale())};
  rl_vt_launch(sim, "vf_attn_partial", chunks, RL_VT_HEADS, c->batch, partial,
               12);
  const rl_funnel_arg_t merge[] = {rl_vt_p(a_part), rl_vt_p(a_out),
                                   rl_vt_u(RL_VT_HD), rl_vt_u(RL_VT_HEADS),
                                   rl_vt_u(chunks)};
  rl_vt_launch(sim, "vf_attn_merge", RL_VT_HEADS, c->batch, 1, merge, 5);
  rl_dt_read(sim, out_buffer, out, (uint64_t)c->batch * RL_VT_N * 4);
}

// Direct attention of row r, head h: one online-softmax pass over [0, pos +
// r] in tiles of 64 with the kernel's float operations, then acc x rcp(l).
static void rl_vt_attn_direct(const rl_vt_attn_case_t* c, uint32_t r,
                              uint32_t h, float* out) {
  const float* q = c->qkv + r * 3 * RL_VT_N + h * RL_VT_HD;
  const uint32_t end = c->pos + r + 1;
  float m = -INFINITY, l = 0.0f, acc[RL_VT_HD] = {0};
  float scores[64], probs[64];
  for (uint32_t base = 0; base < end; base += 64) {
    for (uint32_t j = 0; j < 64; ++j) {
      const uint32_t t = base + j;
      scores[j] = -INFINITY;
      if (t >= end) continue;
      float dot = 0.0f;
      for (uint32_t d = 0; d < RL_VT_HD; ++d) {
        dot = fmaf(q[d], (float)c->cache[t * RL_VT_ROW_BYTES + h * RL_VT_HD + d],
                   dot);
      }
      scores[j] = (dot * c->scales[t * 2]) * rl_vt_score_scale();
    }
    for (uint32_t j = 0; j < 64; ++j) probs[j] = scores[j];
    for (uint32_t s = 32; s > 0; s /= 2) {
      for (uint32_t j = 0; j < s; ++j) {
        probs[j] = probs[j + s] > probs[j] ? probs[j + s] : probs[j];
      }
    }
    const float m_new = probs[0] > m ? probs[0] : m;
    const float alpha = rl_sim_math_exp2f(m - m_new);
    const uint32_t count = end - base < 64 ? end - base : 64;
    l = l * alpha;
    for (uint32_t d = 0; d < RL_VT_HD; ++d) acc[d] = acc[d] * alpha;
    for (uint32_t j = 0; j < count; ++j) {
      const uint32_t t = base + j;
      const float p = rl_sim_math_exp2f(scores[j] - m_new);
      const float pv = p * c->scales[t * 2 + 1];
      l = l + p;
      for (uint32_t d = 0; d < RL_VT_HD; ++d) {
        acc[d] = fmaf(pv, (float)c->cache[t * RL_VT_ROW_BYTES + RL_VT_N +
                                          h * RL_VT_HD + d], acc[d]);
      }
    }
    m = m_new;
  }
  for (uint32_t d = 0; d < RL_VT_HD; ++d) out[d] = acc[d] * rl_sim_math_rcpf(l);
}

// Exact softmax attention in double over positions [0, end) with the
// dequantised cache; returns max |v| over those rows in *|out_vmax|.
static void rl_vt_attn_exact(const rl_vt_attn_case_t* c, uint32_t r,
                             uint32_t h, uint32_t end, double* out,
                             double* out_vmax) {
  const float* q = c->qkv + r * 3 * RL_VT_N + h * RL_VT_HD;
  double* s = malloc(end * sizeof(double));
  assert_non_null(s);
  double m = -INFINITY, vmax = 0;
  for (uint32_t t = 0; t < end; ++t) {
    double dot = 0;
    for (uint32_t d = 0; d < RL_VT_HD; ++d) {
      dot += (double)q[d] *
             c->cache[t * RL_VT_ROW_BYTES + h * RL_VT_HD + d] *
             c->scales[t * 2];
    }
    s[t] = dot / sqrt((double)RL_VT_HD);
    if (s[t] > m) m = s[t];
  }
  double l = 0;
  for (uint32_t d = 0; d < RL_VT_HD; ++d) out[d] = 0;
  for (uint32_t t = 0; t < end; ++t) {
    const double p = exp(s[t] - m);
    l += p;
    for (uint32_t d = 0; d < RL_VT_HD; ++d) {
      const double v = c->cache[t * RL_VT_ROW_BYTES + RL_VT_N + h * RL_VT_HD +
                                d] * (double)c->scales[t * 2 + 1];
      out[d] += p * v;
      if (fabs(v) > vmax) vmax = fabs(v);
    }
  }
  for (uint32_t d = 0; d < RL_VT_HD; ++d) out[d] /= l;
  *out_vmax = vmax;
  free(s);
}

// The largest |got - exact| / (max |v|) over rows and heads, with the
// causal end of row r at pos + r + 1 + |mask_shift|.
static double rl_vt_attn_error(const rl_vt_attn_case_t* c, const float* got,
                               uint32_t mask_shift) {
  double worst = 0;
  for (uint32_t r = 0; r < c->batch; ++r) {
    for (uint32_t h = 0; h < RL_VT_HEADS; ++h) {
      double want[RL_VT_HD], vmax = 0;
      uint32_t end = c->pos + r + 1 + mask_shift;
      if (end > c->context) end = c->context;
      rl_vt_attn_exact(c, r, h, end, want, &vmax);
      for (uint32_t d = 0; d < RL_VT_HD; ++d) {
        const double e =
            fabs(got[r * RL_VT_N + h * RL_VT_HD + d] - want[d]) / vmax;
        if (e > worst) worst = e;
      }
    }
  }
  return worst;
}

static void test_attention_split(void** state) {
  rl_dt_sim_t* sim = *state;
  rl_vt_attn_case_t c;
  // context 204 = 3 full tiles + 12 for S = 1; S = 8 gives chunks of 26.
  rl_vt_attn_case(&c, 4, 200, 42);
  float* one = malloc((size_t)c.batch * RL_VT_N * 4);
  float* eight = malloc((size_t)c.batch * RL_VT_N * 4);
  assert_true(one && eight);
  rl_vt_attn_run(sim, &c, 1, one);
  rl_vt_attn_run(sim, &c, 8, eight);
  for (uint32_t r = 0; r < c.batch; ++r) {
    for (uint32_t h = 0; h < RL_VT_HEADS; ++h) {
      float direct[RL_VT_HD];
      rl_vt_attn_direct(&c, r, h, direct);
      for (uint32_t d = 0; d < RL_VT_HD; ++d) {
        const float got = one[r * RL_VT_N + h * RL_VT_HD + d];
        if (memcmp(&got, &direct[d], 4) != 0) {
          fail_msg("S=1 row %u head %u dim %u: %.9g, direct %.9g", r, h, d,
                   got, direct[d]);
        }
      }
    }
  }
  const double err1 = rl_vt_attn_error(&c, one, 0);
  const double err8 = rl_vt_attn_error(&c, eight, 0);
  printf("attention vs double: S=1 %.3g, S=8 %.3g (x max |v|)\n", err1, err8);
  assert_true(err1 <= RL_VT_TOL_ATTN);
  assert_true(err8 <= RL_VT_TOL_ATTN);
  // S = 8 is not the same computation as S = 1 (different rounding).
  assert_true(memcmp(one, eight, (size_t)c.batch * RL_VT_N * 4) != 0);
  // Negative control: a causal mask one position too long is caught.
  assert_true(rl_vt_attn_error(&c, eight, 1) > RL_VT_TOL_ATTN);
  free(one);
  free(eight);
  rl_vt_attn_free(&c);
}

//===--- K/V append and rollback ---------------------------------------===//

typedef struct rl_vt_kv_s {
  uint32_t batch, pos, rows;
  uint64_t a_qkv, a_kv, a_ks, a_backup, a_backup_scales, a_accept;
  uint32_t b_kv, b_ks;
} rl_vt_kv_t;

// Registers qkv (random), a cache of |rows| random rows with scales, the
// backup buffers and accept = {tau}.
static void rl_vt_kv_setup(rl_dt_sim_t* sim, rl_vt_kv_t* kv, uint32_t batch,
                           uint32_t pos, uint32_t rows, uint32_t tau,
                           int8_t* out_cache, float* out_scales,
                           float* out_qkv) {
  uint64_t seed = 7;
  *kv = (rl_vt_kv_t){.batch = batch, .pos = pos, .rows = rows};
  for (uint32_t i = 0; i < batch * 3 * RL_VT_N; ++i) {
    out_qkv[i] = rl_dt_uniform(&seed, 3.0);
  }
  for (uint32_t i = 0; i < rows * RL_VT_ROW_BYTES; ++i) {
    out_cache[i] = (int8_t)((int)(rl_dt_next(&seed) % 255u) - 127);
  }
  for (uint32_t i = 0; i < rows * RL_VT_ROW_SCALES; ++i) {
    out_scales[i] = rl_dt_uniform(&seed, 1.0);
  }
  const uint32_t accept[4] = {tau, 0, 0, 0};
  rl_dt_buffer(sim, "qkv", out_qkv, (uint64_t)batch * 3 * RL_VT_N * 4,
               &kv->a_qkv);
  kv->b_kv = rl_dt_buffer(sim, "kv", out_cache,
                          (uint64_t)rows * RL_VT_ROW_BYTES, &kv->a_kv);
  kv->b_ks = rl_dt_buffer(sim, "ks", out_scales,
                          (uint64_t)rows * RL_VT_ROW_SCALES * 4, &kv->a_ks);
  rl_dt_buffer(sim, "backup", NULL, (uint64_t)batch * RL_VT_ROW_BYTES,
               &kv->a_backup);
  rl_dt_buffer(sim, "backup_scales", NULL,
               (uint64_t)batch * RL_VT_ROW_SCALES * 4, &kv->a_backup_scales);
  rl_dt_buffer(sim, "accept", accept, sizeof(accept), &kv->a_accept);
}

static void rl_vt_kv_append(rl_dt_sim_t* sim, const rl_vt_kv_t* kv) {
  const rl_funnel_arg_t args[] = {
      rl_vt_p(kv->a_qkv), rl_vt_p(kv->a_kv), rl_vt_p(kv->a_ks),
      rl_vt_u(3 * RL_VT_N), rl_vt_u(RL_VT_ROW_BYTES),
      rl_vt_u(RL_VT_ROW_SCALES), rl_vt_u(kv->pos), rl_vt_u(RL_VT_N)};
  rl_vt_launch(sim, "vf_kv_append", 2, kv->batch, 1, args, 8);
}

static void rl_vt_kv_copy(rl_dt_sim_t* sim, const rl_vt_kv_t* kv,
                          bool restore) {
  const uint32_t words = RL_VT_ROW_BYTES / 4;
  const uint32_t groups = (words + RL_VT_ROW_SCALES + 63) / 64;
  if (!restore) {
    const rl_funnel_arg_t args[] = {
        rl_vt_p(kv->a_kv), rl_vt_p(kv->a_ks), rl_vt_p(kv->a_backup),
        rl_vt_p(kv->a_backup_scales), rl_vt_u(kv->pos), rl_vt_u(words),
        rl_vt_u(RL_VT_ROW_SCALES)};
    rl_vt_launch(sim, "vf_kv_save", groups, kv->batch, 1, args, 7);
    return;
  }
  const rl_funnel_arg_t args[] = {
      rl_vt_p(kv->a_kv), rl_vt_p(kv->a_ks), rl_vt_p(kv->a_backup),
      rl_vt_p(kv->a_backup_scales), rl_vt_p(kv->a_accept), rl_vt_u(kv->pos),
      rl_vt_u(words), rl_vt_u(RL_VT_ROW_SCALES)};
  rl_vt_launch(sim, "vf_kv_restore", groups, kv->batch, 1, args, 8);
}

static void test_kv_append_quantises(void** state) {
  rl_dt_sim_t* sim = *state;
  enum { B = 4, POS = 10, ROWS = 20 };
  int8_t cache[ROWS * RL_VT_ROW_BYTES], got[ROWS * RL_VT_ROW_BYTES];
  float scales[ROWS * RL_VT_ROW_SCALES], got_scales[ROWS * RL_VT_ROW_SCALES];
  float qkv[B * 3 * RL_VT_N];
  rl_vt_kv_t kv;
  rl_vt_kv_setup(sim, &kv, B, POS, ROWS, 0, cache, scales, qkv);
  rl_vt_kv_append(sim, &kv);
  rl_dt_read(sim, kv.b_kv, got, sizeof(got));
  rl_dt_read(sim, kv.b_ks, got_scales, sizeof(got_scales));
  for (uint32_t t = 0; t < ROWS; ++t) {
    const bool appended = t >= POS && t < POS + B;
    for (uint32_t k = 0; k < 2; ++k) {
      const int8_t* q = got + t * RL_VT_ROW_BYTES + k * RL_VT_N;
      if (!appended) {
        assert_memory_equal(q, cache + t * RL_VT_ROW_BYTES + k * RL_VT_N,
                            RL_VT_N);
        assert_memory_equal(&got_scales[t * 2 + k], &scales[t * 2 + k], 4);
        continue;
      }
      const float* v = qkv + (t - POS) * 3 * RL_VT_N + (1 + k) * RL_VT_N;
      float amax = 0;
      for (uint32_t i = 0; i < RL_VT_N; ++i) {
        amax = fabsf(v[i]) > amax ? fabsf(v[i]) : amax;
      }
      const float scale = amax * (1.0f / 127.0f);
      assert_memory_equal(&got_scales[t * 2 + k], &scale, 4);
      for (uint32_t i = 0; i < RL_VT_N; ++i) {
        assert_true(q[i] >= -127 && q[i] <= 127);
        const double error = fabs((double)q[i] * scale - v[i]);
        if (error > scale * 0.5 * (1 + 1e-5)) {
          fail_msg("row %u kind %u value %u: %g quantised to %d x %g", t, k,
                   i, v[i], q[i], scale);
        }
      }
    }
  }
}

// Checks rows [pos, pos + batch) of |got| against |forward| for r < tau
// and |previous| for r >= tau; returns the number of differing rows.
static uint32_t rl_vt_rollback_mismatches(const rl_vt_kv_t* kv, uint32_t tau,
                                          const int8_t* got,
                                          const float* got_scales,
                                          const int8_t* forward,
                                          const float* forward_scales,
                                          const int8_t* previous,
                                          const float* previous_scales) {
  uint32_t mismatches = 0;
  for (uint32_t r = 0; r < kv->batch; ++r) {
    const uint32_t t = kv->pos + r;
    const int8_t* want = r < tau ? forward : previous;
    const float* want_scales = r < tau ? forward_scales : previous_scales;
    if (memcmp(got + t * RL_VT_ROW_BYTES, want + t * RL_VT_ROW_BYTES,
               RL_VT_ROW_BYTES) != 0 ||
        memcmp(got_scales + t * 2, want_scales + t * 2, 8) != 0) {
      ++mismatches;
    }
  }
  return mismatches;
}

// save, append, then restore with |tau|: *|out_forward| holds the cache
// after the append, *|out_final| after the restore.
static void rl_vt_rollback_run(rl_dt_sim_t* sim, rl_vt_kv_t* kv,
                               uint32_t tau, int8_t* previous,
                               float* previous_scales, int8_t* forward,
                               float* forward_scales, int8_t* final,
                               float* final_scales) {
  enum { B = 8, POS = 16, ROWS = 32 };
  float qkv[B * 3 * RL_VT_N];
  rl_vt_kv_setup(sim, kv, B, POS, ROWS, tau, previous, previous_scales, qkv);
  rl_vt_kv_copy(sim, kv, false);
  rl_vt_kv_append(sim, kv);
  rl_dt_read(sim, kv->b_kv, forward, ROWS * RL_VT_ROW_BYTES);
  rl_dt_read(sim, kv->b_ks, forward_scales, ROWS * RL_VT_ROW_SCALES * 4);
  rl_vt_kv_copy(sim, kv, true);
  rl_dt_read(sim, kv->b_kv, final, ROWS * RL_VT_ROW_BYTES);
  rl_dt_read(sim, kv->b_ks, final_scales, ROWS * RL_VT_ROW_SCALES * 4);
}

static void test_rollback_restores_exact_bytes(void** state) {
  rl_dt_sim_t* sim = *state;
  enum { ROWS = 32 };
  int8_t previous[ROWS * RL_VT_ROW_BYTES], forward[ROWS * RL_VT_ROW_BYTES];
  int8_t final[ROWS * RL_VT_ROW_BYTES];
  float previous_scales[ROWS * 2], forward_scales[ROWS * 2];
  float final_scales[ROWS * 2];
  rl_vt_kv_t kv;
  const uint32_t tau = 2;
  rl_vt_rollback_run(sim, &kv, tau, previous, previous_scales, forward,
                     forward_scales, final, final_scales);
  // The append changed every row of the batch (so the check below means
  // something), and the rollback left exactly the accepted prefix.
  assert_int_equal(rl_vt_rollback_mismatches(&kv, kv.batch, forward,
                                             forward_scales, previous,
                                             previous_scales, previous,
                                             previous_scales),
                   kv.batch);
  assert_int_equal(rl_vt_rollback_mismatches(&kv, tau, final, final_scales,
                                             forward, forward_scales,
                                             previous, previous_scales),
                   0);
  // Rows outside the batch are untouched.
  assert_memory_equal(final, previous, kv.pos * RL_VT_ROW_BYTES);
  assert_memory_equal(final + (kv.pos + kv.batch) * RL_VT_ROW_BYTES,
                      previous + (kv.pos + kv.batch) * RL_VT_ROW_BYTES,
                      (ROWS - kv.pos - kv.batch) * RL_VT_ROW_BYTES);
}

// Negative control: with tau = B nothing is restored, so the check that
// passed above must now find the rejected rows (as if tau were 2) wrong.
static void test_rollback_negative_control(void** state) {
  rl_dt_sim_t* sim = *state;
  enum { ROWS = 32 };
  int8_t previous[ROWS * RL_VT_ROW_BYTES], forward[ROWS * RL_VT_ROW_BYTES];
  int8_t final[ROWS * RL_VT_ROW_BYTES];
  float previous_scales[ROWS * 2], forward_scales[ROWS * 2];
  float final_scales[ROWS * 2];
  rl_vt_kv_t kv;
  rl_vt_rollback_run(sim, &kv, 8, previous, previous_scales, forward,
                     forward_scales, final, final_scales);
  assert_memory_equal(final, forward, ROWS * RL_VT_ROW_BYTES);
  assert_int_equal(rl_vt_rollback_mismatches(&kv, 2, final, final_scales,
                                             forward, forward_scales,
                                             previous, previous_scales),
                   kv.batch - 2);
}

//===--- recurrence, acceptance -----------------------------------------===//

static void test_recurrence_and_restore(void** state) {
  rl_dt_sim_t* sim = *state;
  enum { N = 32, B = 6, TAU = 3 };
  uint64_t seed = 99;
  float x[B * N], xn[B * N], decay[N], gain[N], s0[N];
  for (uint32_t i = 0; i < B * N; ++i) {
    x[i] = rl_dt_uniform(&seed, 1.0);
    xn[i] = rl_dt_uniform(&seed, 1.0);
  }
  for (uint32_t i = 0; i < N; ++i) {
    decay[i] = 0.7f + rl_dt_uniform(&seed, 0.2);
    gain[i] = rl_dt_uniform(&seed, 0.5);
    s0[i] = rl_dt_uniform(&seed, 0.5);
  }
  const uint32_t accept[4] = {TAU, 0, 0, 0};
  uint64_t a_x = 0, a_xn = 0, a_decay = 0, a_gain = 0, a_s = 0, a_hist = 0;
  uint64_t a_accept = 0;
  uint32_t b_x = rl_dt_buffer(sim, "x", x, sizeof(x), &a_x);
  rl_dt_buffer(sim, "xn", xn, sizeof(xn), &a_xn);
  rl_dt_buffer(sim, "decay", decay, sizeof(decay), &a_decay);
  rl_dt_buffer(sim, "gain", gain, sizeof(gain), &a_gain);
  uint32_t b_s = rl_dt_buffer(sim, "state", s0, sizeof(s0), &a_s);
  uint32_t b_hist =
      rl_dt_buffer(sim, "history", NULL, (B + 1) * N * 4, &a_hist);
  rl_dt_buffer(sim, "accept", accept, sizeof(accept), &a_accept);
  const rl_funnel_arg_t recur[] = {
      rl_vt_p(a_x), rl_vt_p(a_xn), rl_vt_p(a_decay), rl_vt_p(a_gain),
      rl_vt_p(a_s), rl_vt_p(a_hist), rl_vt_u(N), rl_vt_u(B)};
  rl_vt_launch(sim, "vf_recur", 1, 1, 1, recur, 8);
  float got_x[B * N], hist[(B + 1) * N], after[N];
  rl_dt_read(sim, b_x, got_x, sizeof(got_x));
  rl_dt_read(sim, b_hist, hist, sizeof(hist));
  rl_dt_read(sim, b_s, after, sizeof(after));
  for (uint32_t i = 0; i < N; ++i) {
    double s = s0[i];
    assert_memory_equal(&hist[i], &s0[i], 4);
    for (uint32_t t = 0; t < B; ++t) {
      s = (double)decay[i] * s + (double)gain[i] * xn[t * N + i];
      assert_true(fabs(hist[(t + 1) * N + i] - s) <= 1e-5 * (fabs(s) + 1e-3));
      assert_true(fabs(got_x[t * N + i] - (x[t * N + i] + s)) <=
                  1e-5 * (fabs(x[t * N + i]) + fabs(s) + 1e-3));
    }
    assert_memory_equal(&after[i], &hist[B * N + i], 4);
  }
  const rl_funnel_arg_t restore[] = {rl_vt_p(a_s), rl_vt_p(a_hist),
                                     rl_vt_p(a_accept), rl_vt_u(N),
                                     rl_vt_u(B)};
  rl_vt_launch(sim, "vf_recur_restore", 1, 1, 1, restore, 5);
  rl_dt_read(sim, b_s, after, sizeof(after));
  assert_memory_equal(after, &hist[TAU * N], sizeof(after));
  assert_memory_not_equal(after, &hist[B * N], sizeof(after));
}

// Runs vf_accept on |tokens| with state[3] = |prev| at slot |slot| (first
// slot 10, 3 windows); returns accept[] and the next tokens.
static void rl_vt_accept(rl_dt_sim_t* sim, const uint32_t* tokens,
                         uint32_t prev, uint32_t slot, uint32_t* accept,
                         uint32_t* next) {
  enum { B = 8, POS = 100, WINDOWS = 3 };
  const uint32_t argmax[B] = {10, 21, 33, 40, 50, 60, 70, 80};
  uint32_t drafts[WINDOWS * B];
  for (uint32_t i = 0; i < WINDOWS * B; ++i) drafts[i] = 1000 + i;
  const uint32_t initial[4] = {0, 0, 0, prev};
  uint64_t a_tokens = 0, a_argmax = 0, a_accept = 0, a_drafts = 0;
  static unsigned call;  // buffer names are unique per recording
  char names[4][32];
  const char* kinds[4] = {"tokens", "argmax", "accept", "drafts"};
  for (int i = 0; i < 4; ++i) {
    snprintf(names[i], sizeof(names[i]), "%s%u", kinds[i], call);
  }
  ++call;
  uint32_t b_tokens = rl_dt_buffer(sim, names[0], tokens, B * 4, &a_tokens);
  rl_dt_buffer(sim, names[1], argmax, sizeof(argmax), &a_argmax);
  uint32_t b_accept =
      rl_dt_buffer(sim, names[2], initial, sizeof(initial), &a_accept);
  rl_dt_buffer(sim, names[3], drafts, sizeof(drafts), &a_drafts);
  const rl_funnel_arg_t args[] = {
      rl_vt_p(a_tokens), rl_vt_p(a_argmax), rl_vt_p(a_accept),
      rl_vt_p(a_drafts), rl_vt_u(B), rl_vt_u(POS), rl_vt_u(slot),
      rl_vt_u(10), rl_vt_u(WINDOWS)};
  rl_vt_launch(sim, "vf_accept", 1, 1, 1, args, 9);
  rl_dt_read(sim, b_accept, accept, 16);
  rl_dt_read(sim, b_tokens, next, B * 4);
}

static void ref_verify_accept_counts_drafts_matching_previous_argmax(
    void** state) {
  rl_dt_sim_t* sim = *state;
  enum { B = 8, POS = 100 };
  // Draft r is accepted when it equals the previous row's argmax (prev = 7
  // for row 0): rows 0..3 match, row 4 (41 against argmax[3] = 40) does
  // not: tau = 4.
  const uint32_t partial[B] = {7, 10, 21, 33, 41, 50, 60, 70};
  const uint32_t all[B] = {7, 10, 21, 33, 40, 50, 60, 70};
  const uint32_t none[B] = {8, 10, 21, 33, 40, 50, 60, 70};
  // Only bit 8 differs from argmax[1] = 21 at row 2: a low-bits
  // comparison would accept it.
  const uint32_t high[B] = {7, 10, 21 + 256, 33, 40, 50, 60, 70};
  uint32_t accept[4], next[B];
  rl_vt_accept(sim, partial, 7, 10, accept, next);
  assert_int_equal(accept[0], 4);
  assert_int_equal(accept[1], POS + B);
  assert_int_equal(accept[2], POS + 4);
  assert_int_equal(accept[3], 80);
  for (uint32_t i = 0; i < B; ++i) assert_int_equal(next[i], 1000 + B + i);
  rl_vt_accept(sim, all, 7, 11, accept, next);
  assert_int_equal(accept[0], B);
  assert_int_equal(accept[2], POS + B);
  for (uint32_t i = 0; i < B; ++i) assert_int_equal(next[i], 1000 + 2 * B + i);
  rl_vt_accept(sim, none, 7, 30, accept, next);  // past the table: clamped
  assert_int_equal(accept[0], 0);
  assert_int_equal(accept[2], POS);
  for (uint32_t i = 0; i < B; ++i) assert_int_equal(next[i], 1000 + 2 * B + i);
  rl_vt_accept(sim, high, 7, 5, accept, next);  // before the table: clamped
  assert_int_equal(accept[0], 2);
  for (uint32_t i = 0; i < B; ++i) assert_int_equal(next[i], 1000 + 2 * B + i);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_attention_split, rl_vt_setup,
                                      rl_vt_teardown),
      cmocka_unit_test_setup_teardown(test_kv_append_quantises, rl_vt_setup,
                                      rl_vt_teardown),
      cmocka_unit_test_setup_teardown(test_rollback_restores_exact_bytes,
                                      rl_vt_setup, rl_vt_teardown),
      cmocka_unit_test_setup_teardown(test_rollback_negative_control,
                                      rl_vt_setup, rl_vt_teardown),
      cmocka_unit_test_setup_teardown(test_recurrence_and_restore, rl_vt_setup,
                                      rl_vt_teardown),
      cmocka_unit_test_setup_teardown(
          ref_verify_accept_counts_drafts_matching_previous_argmax, rl_vt_setup,
          rl_vt_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
