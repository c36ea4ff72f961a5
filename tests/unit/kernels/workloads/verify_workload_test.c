// One whole verify step recorded through the funnel on the simulated GPU
// (reference executor) against a forward pass in double precision on the
// host, from the capture's initial contents (2 layers, B 8, pos 152 = the
// window's first step, 256 rows, crossover 64).
//
// The host pass follows kernels/workloads/verify.h in double. The int8
// cache is part of the model: the host checks that each appended K/V row
// the step wrote (kv_forward) is the quantisation of its own double K/V
// row (scale within 1e-5 relative of max |v| / 127, every value within
// scale / 2 + 1e-4 x max |v|), then attends over the step's bytes, so the
// comparison is not at the mercy of a rounding tie. Checked:
//   logits      |got - want| <= 1e-4 x max |want| for every row
//   argmax      equal wherever the host's top-two margin exceeds that
//               tolerance
//   hidden      |got - want| <= 1e-4 x max |want|
//   tau, heads  exact acceptance recomputed from the step's argmax and the
//               initial drafts (row 0 against accept[3]), and equal to the
//               drafter's plan: with wrong_drafts 12 the first window's
//               drafts carry a wrong token at row 4 (tau = 4, rows 0..3
//               are the model's own greedy tokens), with wrong_drafts 0
//               every draft is the model's (tau = B); the next tokens are
//               the second window's drafts
//   rollback    kv_cache rows pos + r: the forward bytes for r < tau, the
//               initial bytes for r >= tau, exactly; recur equal to
//               recur_history entry tau exactly, and recur_history within
//               1e-4 of the host's recurrence
// Negative controls: the same logits check against a host pass whose RoPE
// uses position pos + r + 1 fails; tau recomputed against the row's own
// argmax instead of the previous row's is not the step's tau.
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

#include "kernels/workloads/verify.h"
#include "tests/unit/kernels/workloads/decode_test_util.h"

#define RL_VW_TOL 1e-4
enum { L = 2, H = 32, HEADS = 2, HD = 16, F = 64, V = 256, B = 8, POS = 152,
       C = 256, ROW_BYTES = L * 2 * H, ROW_SCALES = L * 2 };

typedef struct rl_vw_s {
  rl_dt_sim_t sim;
  const rl_capture_t* capture;
} rl_vw_t;

static uint32_t rl_vw_buffer(const rl_vw_t* w, const char* name) {
  uint32_t index = 0;
  if (!rl_capture_find_buffer(w->capture, name, &index)) {
    fail_msg("no buffer %s", name);
  }
  return index;
}

static const void* rl_vw_initial(const rl_vw_t* w, const char* name) {
  const rl_capture_buffer_t* b = &w->capture->buffers[rl_vw_buffer(w, name)];
  assert_non_null(b->initial);
  return b->initial;
}

// The buffer's contents after the step (caller frees).
static void* rl_vw_final(rl_vw_t* w, const char* name) {
  const uint32_t index = rl_vw_buffer(w, name);
  const uint64_t size = w->capture->buffers[index].size;
  void* bytes = malloc(size);
  assert_non_null(bytes);
  rl_dt_read(&w->sim, index, bytes, size);
  return bytes;
}

// The host model's weights and initial state, as doubles where computed.
typedef struct rl_vw_model_s {
  const float *emb, *attn_norm, *w_qkv, *w_o, *ffn_norm, *w_gate_up, *w_down,
      *final_norm, *lm_head, *rope, *decay, *gain, *recur;
  const uint32_t* tokens;
  const int8_t* cache;   // initial
  const float* scales;   // initial
  const int8_t* fwd;     // the step's appended rows [B][ROW_BYTES]
  const float* fwd_scales;
} rl_vw_model_t;

static void rl_vw_rmsnorm(const double* x, const float* w, double* out) {
  double sum = 0;
  for (int i = 0; i < H; ++i) sum += x[i] * x[i];
  const double r = 1.0 / sqrt(sum / H + RL_VERIFY_EPS);
  for (int i = 0; i < H; ++i) out[i] = x[i] * r * w[i];
}

static void rl_vw_matvec(const float* W, const double* x, int rows, int cols,
                         double* y) {
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int c = 0; c < cols; ++c) s += (double)W[r * cols + c] * x[c];
    y[r] = s;
  }
}

// K or V element |i| (kind |k|) of layer |l| at position |t|, dequantised.
static double rl_vw_kv(const rl_vw_model_t* m, int l, int k, int t, int i) {
  if (t >= POS) {
    const int r = t - POS;
    return m->fwd[r * ROW_BYTES + l * 2 * H + k * H + i] *
           (double)m->fwd_scales[r * ROW_SCALES + l * 2 + k];
  }
  return m->cache[t * ROW_BYTES + l * 2 * H + k * H + i] *
         (double)m->scales[t * ROW_SCALES + l * 2 + k];
}

// Checks the step's appended row (layer l, kind k, row r) against |v|.
static void rl_vw_check_quant(const rl_vw_model_t* m, int l, int k, int r,
                              const double* v) {
  double amax = 0;
  for (int i = 0; i < H; ++i) amax = fabs(v[i]) > amax ? fabs(v[i]) : amax;
  const double scale = m->fwd_scales[r * ROW_SCALES + l * 2 + k];
  if (fabs(scale - amax / 127) > 1e-5 * amax) {
    fail_msg("layer %d kind %d row %d: scale %g, max |v| / 127 = %g", l, k, r,
             scale, amax / 127);
  }
  for (int i = 0; i < H; ++i) {
    const double got = m->fwd[r * ROW_BYTES + l * 2 * H + k * H + i] * scale;
    if (fabs(got - v[i]) > scale / 2 + RL_VW_TOL * amax) {
      fail_msg("layer %d kind %d row %d value %d: %g stored as %g", l, k, r,
               i, v[i], got);
    }
  }
}

// The host forward pass: logits [B][V], hidden [B][H], history [L][B][H].
static void rl_vw_forward(const rl_vw_model_t* m, int rope_shift,
                          double* logits, double* x, double* history) {
  static double xn[B][H], qkv[B][3 * H], attn[B][H], s[L][H];
  for (int r = 0; r < B; ++r) {
    uint32_t t = m->tokens[r] < V ? m->tokens[r] : V - 1;
    for (int i = 0; i < H; ++i) x[r * H + i] = m->emb[t * H + i];
  }
  for (int l = 0; l < L; ++l) {
    for (int i = 0; i < H; ++i) s[l][i] = m->recur[l * H + i];
    for (int r = 0; r < B; ++r) {
      rl_vw_rmsnorm(&x[r * H], m->attn_norm + l * H, xn[r]);
      rl_vw_matvec(m->w_qkv + l * 3 * H * H, xn[r], 3 * H, H, qkv[r]);
      for (int p = 0; p < H; ++p) {
        const int a = ((POS + r + rope_shift) * (HD / 2) + p % (HD / 2)) * 2;
        const double c = m->rope[a], sn = m->rope[a + 1];
        const double x0 = qkv[r][2 * p], x1 = qkv[r][2 * p + 1];
        qkv[r][2 * p] = x0 * c - x1 * sn;
        qkv[r][2 * p + 1] = x0 * sn + x1 * c;
      }
      if (!rope_shift) {
        rl_vw_check_quant(m, l, 0, r, &qkv[r][H]);
        rl_vw_check_quant(m, l, 1, r, &qkv[r][2 * H]);
      }
    }
    for (int r = 0; r < B; ++r) {
      for (int h = 0; h < HEADS; ++h) {
        const int end = POS + r + 1;
        double* sc = malloc(end * sizeof(double));
        assert_non_null(sc);
        double mx = -INFINITY, sum = 0;
        for (int t = 0; t < end; ++t) {
          double dot = 0;
          for (int d = 0; d < HD; ++d) {
            dot += qkv[r][h * HD + d] * rl_vw_kv(m, l, 0, t, h * HD + d);
          }
          sc[t] = dot / sqrt((double)HD);
          mx = sc[t] > mx ? sc[t] : mx;
        }
        for (int d = 0; d < HD; ++d) attn[r][h * HD + d] = 0;
        for (int t = 0; t < end; ++t) {
          const double p = exp(sc[t] - mx);
          sum += p;
          for (int d = 0; d < HD; ++d) {
            attn[r][h * HD + d] += p * rl_vw_kv(m, l, 1, t, h * HD + d);
          }
        }
        for (int d = 0; d < HD; ++d) attn[r][h * HD + d] /= sum;
        free(sc);
      }
    }
    for (int r = 0; r < B; ++r) {
      double delta[H];
      rl_vw_matvec(m->w_o + l * H * H, attn[r], H, H, delta);
      for (int i = 0; i < H; ++i) x[r * H + i] += delta[i];
    }
    for (int r = 0; r < B; ++r) {
      for (int i = 0; i < H; ++i) {
        s[l][i] = m->decay[l * H + i] * s[l][i] + m->gain[l * H + i] * xn[r][i];
        history[(l * B + r) * H + i] = s[l][i];
        x[r * H + i] += s[l][i];
      }
    }
    for (int r = 0; r < B; ++r) {
      double n[H], gu[2 * F], act[F], delta[H];
      rl_vw_rmsnorm(&x[r * H], m->ffn_norm + l * H, n);
      rl_vw_matvec(m->w_gate_up + l * 2 * F * H, n, 2 * F, H, gu);
      for (int i = 0; i < F; ++i) {
        act[i] = gu[i] / (1 + exp(-gu[i])) * gu[F + i];
      }
      rl_vw_matvec(m->w_down + l * H * F, act, H, F, delta);
      for (int i = 0; i < H; ++i) x[r * H + i] += delta[i];
    }
  }
  for (int r = 0; r < B; ++r) {
    double n[H];
    rl_vw_rmsnorm(&x[r * H], m->final_norm, n);
    rl_vw_matvec(m->lm_head, n, V, H, &logits[r * V]);
  }
}

static double rl_vw_max_abs(const double* v, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m = fabs(v[i]) > m ? fabs(v[i]) : m;
  return m;
}

// The largest |got - want| / max |want| of a row-major [rows][n] array.
static double rl_vw_error(const float* got, const double* want, int rows,
                          int n) {
  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    const double scale = rl_vw_max_abs(&want[r * n], n);
    for (int i = 0; i < n; ++i) {
      const double e = fabs(got[r * n + i] - want[r * n + i]) / scale;
      worst = e > worst ? e : worst;
    }
  }
  return worst;
}

static void rl_vw_record(rl_vw_t* w, uint32_t wrong_drafts) {
  rl_dt_sim_open_kernels(&w->sim, "verify", 0, "gfx1100", "verify");
  rl_verify_dims_t dims = RL_VERIFY_DIMS_DEFAULT;
  dims.layers = L;
  dims.batch = B;
  dims.max_context = C;
  dims.crossover = 64;
  dims.wrong_drafts = wrong_drafts;
  assert_int_equal(rl_verify_hidden(&dims), H);
  const rl_workload_param_value_t pos = {"pos", POS};
  const rl_workload_options_t options = {.code_object = w->sim.bytes,
                                         .code_object_size = w->sim.size,
                                         .seed = 7,
                                         .params = &pos,
                                         .param_count = 1};
  rl_dt_ok(rl_verify_record(w->sim.funnel, &options, &dims));
  w->capture = rl_funnel_capture(w->sim.funnel);
  assert_int_equal(w->capture->launch_count, rl_verify_launch_count(&dims));
}

static void rl_vw_model(const rl_vw_t* w, const int8_t* fwd,
                        const float* fwd_scales, rl_vw_model_t* m) {
  *m = (rl_vw_model_t){
      rl_vw_initial(w, "embedding"), rl_vw_initial(w, "attn_norm"),
      rl_vw_initial(w, "w_qkv"),     rl_vw_initial(w, "w_o"),
      rl_vw_initial(w, "ffn_norm"),  rl_vw_initial(w, "w_gate_up"),
      rl_vw_initial(w, "w_down"),    rl_vw_initial(w, "final_norm"),
      rl_vw_initial(w, "lm_head"),   rl_vw_initial(w, "rope"),
      rl_vw_initial(w, "decay"),     rl_vw_initial(w, "gain"),
      rl_vw_initial(w, "recur"),     rl_vw_initial(w, "tokens"),
      rl_vw_initial(w, "kv_cache"),  rl_vw_initial(w, "kv_scales"),
      fwd, fwd_scales};
}

// Exact acceptance: the length of the prefix of |tokens| where each equals
// the previous row's argmax (|prev| for row 0); |own_row| compares with the
// row's own argmax instead (the negative control).
static uint32_t rl_vw_tau(const uint32_t* tokens, const uint32_t* argmax,
                          uint32_t prev, bool own_row) {
  uint32_t tau = 0;
  while (tau < B) {
    const uint32_t want =
        own_row ? argmax[tau] : (tau == 0 ? prev : argmax[tau - 1]);
    if (tokens[tau] != want) break;
    ++tau;
  }
  return tau;
}

static void rl_vw_step(uint32_t wrong_drafts, uint32_t planned_tau) {
  rl_vw_t w;
  rl_vw_record(&w, wrong_drafts);
  int8_t* fwd = rl_vw_final(&w, "kv_forward");
  float* fwd_scales = rl_vw_final(&w, "kv_forward_scales");
  float* logits = rl_vw_final(&w, "logits");
  float* hidden = rl_vw_final(&w, "x");
  float* hist_all = rl_vw_final(&w, "recur_history");
  static float hist[L * B * H];  // the entries after each row
  for (int l = 0; l < L; ++l) {
    memcpy(&hist[l * B * H], &hist_all[(l * (B + 1) + 1) * H], B * H * 4);
  }
  uint32_t* next = rl_vw_final(&w, "tokens");
  const uint32_t* drafts = rl_vw_initial(&w, "drafts");
  const uint32_t* initial_accept = rl_vw_initial(&w, "accept");
  float* recur = rl_vw_final(&w, "recur");
  uint32_t* argmax = rl_vw_final(&w, "argmax");
  uint32_t* accept = rl_vw_final(&w, "accept");
  int8_t* cache = rl_vw_final(&w, "kv_cache");
  float* scales = rl_vw_final(&w, "kv_scales");
  rl_vw_model_t m;
  rl_vw_model(&w, fwd, fwd_scales, &m);
  static double want_logits[B * V], want_x[B * H], want_hist[L * B * H];
  rl_vw_forward(&m, 0, want_logits, want_x, want_hist);
  const double e_logits = rl_vw_error(logits, want_logits, B, V);
  const double e_hidden = rl_vw_error(hidden, want_x, B, H);
  const double e_hist = rl_vw_error(hist, want_hist, L * B, H);
  printf("vs double: logits %.3g, hidden %.3g, recurrence %.3g\n", e_logits,
         e_hidden, e_hist);
  assert_true(e_logits <= RL_VW_TOL);
  assert_true(e_hidden <= RL_VW_TOL);
  assert_true(e_hist <= RL_VW_TOL);
  for (int r = 0; r < B; ++r) {
    const double* row = &want_logits[r * V];
    int best = 0;
    for (int i = 1; i < V; ++i) best = row[i] > row[best] ? i : best;
    double second = -INFINITY;
    for (int i = 0; i < V; ++i) {
      if (i != best && row[i] > second) second = row[i];
    }
    if (row[best] - second > 2 * RL_VW_TOL * rl_vw_max_abs(row, V)) {
      assert_int_equal(argmax[r], best);
    }
  }
  // Acceptance from the step's argmax and the initial drafts, as planned.
  const uint32_t tau = rl_vw_tau(m.tokens, argmax, initial_accept[3], false);
  printf("wrong_drafts %u: tau %u (planned %u)\n", wrong_drafts, tau,
         planned_tau);
  assert_int_equal(tau, planned_tau);
  assert_int_equal(accept[0], tau);
  assert_int_equal(accept[1], POS + B);
  assert_int_equal(accept[2], POS + tau);
  assert_int_equal(accept[3], argmax[B - 1]);
  assert_memory_equal(next, drafts + B, B * 4);
  assert_int_not_equal(rl_vw_tau(m.tokens, argmax, initial_accept[3], true),
                       tau);
  // Rollback: accepted rows keep the forward bytes, rejected rows the
  // initial ones; the recurrence is history row tau.
  for (int r = 0; r < B; ++r) {
    const int t = POS + r;
    const void* want = r < (int)tau ? (const void*)(fwd + r * ROW_BYTES)
                                    : (const void*)(m.cache + t * ROW_BYTES);
    const void* want_s = r < (int)tau
                             ? (const void*)(fwd_scales + r * ROW_SCALES)
                             : (const void*)(m.scales + t * ROW_SCALES);
    assert_memory_equal(cache + t * ROW_BYTES, want, ROW_BYTES);
    assert_memory_equal(scales + t * ROW_SCALES, want_s, ROW_SCALES * 4);
  }
  for (int l = 0; l < L; ++l) {
    assert_memory_equal(recur + l * H, hist_all + (l * (B + 1) + tau) * H,
                        H * 4);
  }
  // Negative control: a host pass with RoPE one position late disagrees.
  static double shifted_logits[B * V], shifted_x[B * H], shifted_hist[L * B * H];
  rl_vw_forward(&m, 1, shifted_logits, shifted_x, shifted_hist);
  assert_true(rl_vw_error(logits, shifted_logits, B, V) > RL_VW_TOL);
  free(fwd); free(fwd_scales); free(logits); free(hidden); free(hist_all);
  free(next);
  free(recur); free(argmax); free(accept); free(cache); free(scales);
  rl_dt_sim_close(&w.sim);
}

// 0 < tau < B: the first window's wrong draft is at row 1 + 3 mod 7 = 4.
static void test_step_partial_acceptance(void** state) {
  (void)state;
  rl_vw_step(12, 4);
}

// tau = B: every draft of the first window is the model's own token.
static void test_step_full_acceptance(void** state) {
  (void)state;
  rl_vw_step(0, B);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_step_partial_acceptance),
      cmocka_unit_test(test_step_full_acceptance),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
