// Tests of the decode workload (kernels/workloads/decode.c): one decode step
// recorded through the funnel on the simulated GPU (reference executor) is
// also an eager run, so its token, logits, hidden state and K/V cache are
// compared with a host forward pass in double precision computed from the
// capture's recorded initial contents (weights, RoPE table, the K/V rows
// of earlier positions, the input token). Then the capture's shape: launch
// counts, bindings, regions, window, roles and the workspace contract.
//
// Tolerances (the step chains ~50 float kernels; measured errors are at
// most ~2.2e-7 of the vectors' magnitudes): logits, hidden state and the
// appended K/V rows within 1e-4 x the vector's largest magnitude. A negative
// control shows the check rejects the forward pass of pos - 1 (errors of
// 7e-3 to 8e-2). The
// produced token must equal the double argmax; the test first asserts the
// double top-2 gap is larger than the logits tolerance, so the comparison
// is meaningful (a failure there is a seed problem, not a kernel bug).
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

#include "kernels/workloads/decode.h"
#include "kernels/workloads/workload.h"
#include "tests/unit/kernels/workloads/decode_test_util.h"

#define RL_TEST_TOL 1e-4

//===----------------------------------------------------------------------===//
// The host forward pass in double
//===----------------------------------------------------------------------===//

// The capture's initial contents of buffer |name|.
static const void* rl_test_initial(const rl_capture_t* capture,
                                   const char* name, uint32_t* out_index) {
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    if (strcmp(capture->buffers[b].name, name) == 0) {
      assert_non_null(capture->buffers[b].initial);
      if (out_index) *out_index = b;
      return capture->buffers[b].initial;
    }
  }
  fail_msg("no buffer %s", name);
  return NULL;
}

typedef struct rl_fw_s {
  rl_decode_dims_t dims;
  uint32_t h, f, V, hd, pos, stride;
  const float *embedding, *attn_norm, *w_qkv, *w_o, *ffn_norm, *w_gate_up,
      *w_down, *final_norm, *lm_head, *rope, *kv0;
  uint32_t token;
  double* kv;      // [max_context][layers][2][h]: initial rows + row pos
  double* logits;  // [V]
  double* x;       // [h]
} rl_fw_t;

static void rl_fw_rmsnorm(const double* x, const float* w, uint32_t n,
                          double* out) {
  double squares = 0;
  for (uint32_t i = 0; i < n; ++i) squares += x[i] * x[i];
  const double r = 1.0 / sqrt(squares / n + (double)RL_DECODE_EPS);
  for (uint32_t i = 0; i < n; ++i) out[i] = w[i] * x[i] * r;
}

static void rl_fw_matvec(const float* w, const double* x, uint32_t rows,
                         uint32_t cols, double* out) {
  for (uint32_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (uint32_t c = 0; c < cols; ++c) sum += w[(size_t)r * cols + c] * x[c];
    out[r] = sum;
  }
}

// Rotates q and k (the first 2h of |qkv|) at the forward pass's pos.
static void rl_fw_rope(const rl_fw_t* fw, double* qkv) {
  const uint32_t half = fw->hd / 2;
  for (uint32_t p = 0; p < fw->h; ++p) {
    const uint32_t i = p % half;
    const double c = fw->rope[(fw->pos * half + i) * 2];
    const double s = fw->rope[(fw->pos * half + i) * 2 + 1];
    const double x0 = qkv[2 * p], x1 = qkv[2 * p + 1];
    qkv[2 * p] = x0 * c - x1 * s;
    qkv[2 * p + 1] = x0 * s + x1 * c;
  }
}

// softmax(q k^T / sqrt(hd)) v per head over rows [0, pos] of layer |layer|.
static void rl_fw_attention(const rl_fw_t* fw, uint32_t layer,
                            const double* q, double* out) {
  const uint32_t context = fw->pos + 1;
  double* scores = malloc(context * sizeof(double));
  assert_non_null(scores);
  for (uint32_t head = 0; head < fw->dims.heads; ++head) {
    double m = -INFINITY, sum = 0;
    for (uint32_t t = 0; t < context; ++t) {
      const double* k = fw->kv + (size_t)t * fw->stride + layer * 2 * fw->h;
      double dot = 0;
      for (uint32_t d = 0; d < fw->hd; ++d) {
        dot += q[head * fw->hd + d] * k[head * fw->hd + d];
      }
      scores[t] = dot / sqrt((double)fw->hd);
      if (scores[t] > m) m = scores[t];
    }
    for (uint32_t d = 0; d < fw->hd; ++d) out[head * fw->hd + d] = 0;
    for (uint32_t t = 0; t < context; ++t) {
      const double* v =
          fw->kv + (size_t)t * fw->stride + layer * 2 * fw->h + fw->h;
      const double p = exp(scores[t] - m);
      sum += p;
      for (uint32_t d = 0; d < fw->hd; ++d) {
        out[head * fw->hd + d] += p * v[head * fw->hd + d];
      }
    }
    for (uint32_t d = 0; d < fw->hd; ++d) out[head * fw->hd + d] /= sum;
  }
  free(scores);
}

// One layer on fw->x; appends the layer's K/V row at pos to fw->kv.
static void rl_fw_layer(rl_fw_t* fw, uint32_t l, double* scratch) {
  const uint32_t h = fw->h, f = fw->f;
  double* xn = scratch;
  double* qkv = xn + h;
  double* attn = qkv + 3 * h;
  double* delta = attn + h;
  double* gu = delta + h;
  rl_fw_rmsnorm(fw->x, fw->attn_norm + l * h, h, xn);
  rl_fw_matvec(fw->w_qkv + (size_t)l * 3 * h * h, xn, 3 * h, h, qkv);
  rl_fw_rope(fw, qkv);
  double* row = fw->kv + (size_t)fw->pos * fw->stride + l * 2 * h;
  memcpy(row, qkv + h, 2 * h * sizeof(double));
  rl_fw_attention(fw, l, qkv, attn);
  rl_fw_matvec(fw->w_o + (size_t)l * h * h, attn, h, h, delta);
  for (uint32_t i = 0; i < h; ++i) fw->x[i] += delta[i];
  rl_fw_rmsnorm(fw->x, fw->ffn_norm + l * h, h, xn);
  rl_fw_matvec(fw->w_gate_up + (size_t)l * 2 * f * h, xn, 2 * f, h, gu);
  for (uint32_t i = 0; i < f; ++i) {
    gu[i] = gu[i] / (1.0 + exp(-gu[i])) * gu[f + i];
  }
  rl_fw_matvec(fw->w_down + (size_t)l * h * f, gu, h, f, delta);
  for (uint32_t i = 0; i < h; ++i) fw->x[i] += delta[i];
}

static void rl_fw_bind(rl_fw_t* fw, const rl_capture_t* capture) {
  fw->embedding = rl_test_initial(capture, "embedding", NULL);
  fw->attn_norm = rl_test_initial(capture, "attn_norm", NULL);
  fw->w_qkv = rl_test_initial(capture, "w_qkv", NULL);
  fw->w_o = rl_test_initial(capture, "w_o", NULL);
  fw->ffn_norm = rl_test_initial(capture, "ffn_norm", NULL);
  fw->w_gate_up = rl_test_initial(capture, "w_gate_up", NULL);
  fw->w_down = rl_test_initial(capture, "w_down", NULL);
  fw->final_norm = rl_test_initial(capture, "final_norm", NULL);
  fw->lm_head = rl_test_initial(capture, "lm_head", NULL);
  fw->rope = rl_test_initial(capture, "rope", NULL);
  fw->kv0 = rl_test_initial(capture, "kv_cache", NULL);
  memcpy(&fw->token, rl_test_initial(capture, "token", NULL), 4);
}

// The forward pass of |dims| at |pos| from |capture|'s initial contents.
static void rl_fw_run(rl_fw_t* fw, const rl_decode_dims_t* dims, uint32_t pos,
                      const rl_capture_t* capture) {
  memset(fw, 0, sizeof(*fw));
  fw->dims = *dims;
  fw->h = rl_decode_hidden(dims);
  fw->f = dims->ffn;
  fw->V = dims->vocab;
  fw->hd = dims->head_dim;
  fw->pos = pos;
  fw->stride = dims->layers * 2 * fw->h;
  rl_fw_bind(fw, capture);
  const size_t kv_count = (size_t)dims->max_context * fw->stride;
  fw->kv = malloc(kv_count * sizeof(double));
  fw->logits = malloc(fw->V * sizeof(double));
  fw->x = malloc(fw->h * sizeof(double));
  double* scratch = malloc((6 * fw->h + 2 * fw->f) * sizeof(double));
  assert_true(fw->kv && fw->logits && fw->x && scratch);
  for (size_t i = 0; i < kv_count; ++i) fw->kv[i] = fw->kv0[i];
  for (uint32_t i = 0; i < fw->h; ++i) {
    fw->x[i] = fw->embedding[(size_t)fw->token * fw->h + i];
  }
  for (uint32_t l = 0; l < dims->layers; ++l) rl_fw_layer(fw, l, scratch);
  rl_fw_rmsnorm(fw->x, fw->final_norm, fw->h, scratch);
  rl_fw_matvec(fw->lm_head, scratch, fw->V, fw->h, fw->logits);
  free(scratch);
}

static void rl_fw_free(rl_fw_t* fw) {
  free(fw->kv);
  free(fw->logits);
  free(fw->x);
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

// max |got - want| / max |want| (NaN-safe: a NaN gives infinity).
static double rl_test_error(const float* got, const double* want,
                            uint32_t count) {
  double scale = 0, err = 0;
  for (uint32_t i = 0; i < count; ++i) scale = fmax(scale, fabs(want[i]));
  for (uint32_t i = 0; i < count; ++i) {
    const double e = fabs(got[i] - want[i]);
    err = e <= err ? err : (isnan(e) ? INFINITY : e);
  }
  return scale > 0 ? err / scale : err;
}

// |got| (float) within RL_TEST_TOL x max |want| of |want| (double).
static void rl_test_vector(const float* got, const double* want,
                           uint32_t count, const char* what, double* out_err) {
  *out_err = rl_test_error(got, want, count);
  if (!(*out_err <= RL_TEST_TOL)) {
    for (uint32_t i = 0; i < count; ++i) {
      print_error("%s[%u]: got %.9g, expected %.9g\n", what, i, got[i],
                  want[i]);
    }
    fail_msg("%s: relative error %.3g above %.3g", what, *out_err,
             RL_TEST_TOL);
  }
}

// The index of the largest value and the gap to the second largest.
static uint32_t rl_test_argmax(const double* v, uint32_t n, double* out_gap) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < n; ++i) {
    if (v[i] > v[best]) best = i;
  }
  double second = -INFINITY;
  for (uint32_t i = 0; i < n; ++i) {
    if (i != best && v[i] > second) second = v[i];
  }
  *out_gap = v[best] - second;
  return best;
}

static void rl_test_read(rl_dt_sim_t* sim, const char* name, void* data,
                         uint64_t bytes) {
  uint32_t index = 0;
  const rl_capture_t* live = rl_funnel_capture(sim->funnel);
  for (index = 0; index < live->buffer_count; ++index) {
    if (strcmp(live->buffers[index].name, name) == 0) break;
  }
  assert_true(index < live->buffer_count);
  rl_dt_read(sim, index, data, bytes);
}

// Records |dims| at |pos| on the sim and checks everything against the
// forward pass: token, logits, hidden state, the appended K/V rows, the
// untouched rows (bit for bit) and the guard row.
static void rl_test_step(const rl_decode_dims_t* dims, uint32_t pos) {
  rl_dt_sim_t sim;
  rl_dt_sim_open(&sim, "decode", 0);
  const rl_workload_param_value_t value = {"pos", pos};
  const rl_workload_options_t options = {.code_object = sim.bytes,
                                         .code_object_size = sim.size,
                                         .seed = 7,
                                         .params = &value,
                                         .param_count = 1};
  rl_dt_ok(rl_decode_record(sim.funnel, &options, dims));
  const uint32_t h = rl_decode_hidden(dims), V = dims->vocab;
  const size_t stride = (size_t)dims->layers * 2 * h;
  const size_t kv_count = dims->max_context * stride;
  float* logits = malloc(V * 4);
  float* x = malloc(h * 4);
  float* kv = malloc(kv_count * 4);
  assert_true(logits && x && kv);
  uint32_t token = 0;
  rl_test_read(&sim, "token", &token, 4);
  rl_test_read(&sim, "logits", logits, V * 4);
  rl_test_read(&sim, "x", x, h * 4);
  rl_test_read(&sim, "kv_cache", kv, kv_count * 4);
  rl_capture_t* capture = NULL;
  rl_dt_ok(rl_funnel_finish(sim.funnel, &capture));
  assert_int_equal(capture->launch_count, rl_decode_launch_count(dims));
  rl_fw_t fw;
  rl_fw_run(&fw, dims, pos, capture);
  double gap = 0, err_logits = 0, err_x = 0, err_kv = 0;
  const uint32_t want = rl_test_argmax(fw.logits, V, &gap);
  rl_test_vector(logits, fw.logits, V, "logits", &err_logits);
  rl_test_vector(x, fw.x, h, "hidden", &err_x);
  double scale = 0;
  for (uint32_t i = 0; i < V; ++i) scale = fmax(scale, fabs(fw.logits[i]));
  assert_true(gap > 10 * RL_TEST_TOL * scale);
  if (token != want) {
    fail_msg("pos %u: token %u, expected %u", pos, token, want);
  }
  // Row pos of every layer is the step's K and V; all other rows keep
  // their initial contents exactly (the guard row pos + 1 included).
  const float* kv0 = fw.kv0;
  rl_test_vector(kv + pos * stride, fw.kv + pos * stride, stride, "kv row",
                 &err_kv);
  assert_memory_equal(kv, kv0, pos * stride * 4);
  assert_memory_equal(kv + (pos + 1) * stride, kv0 + (pos + 1) * stride,
                      (kv_count - (pos + 1) * stride) * 4);
  printf("pos %4u layers %2u: token %3u, relative errors logits %.2e "
         "hidden %.2e kv %.2e\n", pos, dims->layers, token, err_logits, err_x,
         err_kv);
  rl_fw_free(&fw);
  // Negative control: the forward pass one position earlier does not match.
  rl_fw_run(&fw, dims, pos - 1, capture);
  const double wrong = rl_test_error(logits, fw.logits, V);
  printf("  negative control (pos - 1): logits error %.2e\n", wrong);
  assert_true(wrong > RL_TEST_TOL);
  rl_fw_free(&fw);
  free(logits);
  free(x);
  free(kv);
  rl_capture_destroy(capture);
  rl_dt_sim_close(&sim);
}

static const rl_decode_dims_t rl_test_default = RL_DECODE_DIMS_DEFAULT;

// One chunk (30: the window's start; 31: the chunk exactly full), across the
// boundary (32, 33), several chunks (100) and the longest context (511).
static void test_step_default_dims(void** state) {
  (void)state;
  const uint32_t positions[] = {30, 31, 32, 33, 100, 511};
  for (size_t i = 0; i < sizeof(positions) / sizeof(positions[0]); ++i) {
    rl_test_step(&rl_test_default, positions[i]);
  }
}

// Other shapes: hidden 16 (most lanes idle), vocab 100 (not a multiple of
// 64), chunk 16, one and three layers.
static void test_step_small_dims(void** state) {
  (void)state;
  const rl_decode_dims_t small = {3, 2, 8, 32, 100, 64, 16, 0};
  rl_test_step(&small, 14);
  rl_test_step(&small, 17);
  rl_test_step(&small, 63);
  const rl_decode_dims_t wide = {1, 8, 16, 200, 300, 48, 8, 0};
  rl_test_step(&wide, 9);
}

// Reads the logits and token of the default step at pos 33 on |target|.
static void rl_test_target_step(const char* target, float logits[256],
                                uint32_t* out_token) {
  rl_dt_sim_t sim;
  rl_dt_sim_open_target(&sim, "decode", 0, target);
  const rl_workload_param_value_t value = {"pos", 33};
  const rl_workload_options_t options = {.code_object = sim.bytes,
                                         .code_object_size = sim.size,
                                         .seed = 7,
                                         .params = &value,
                                         .param_count = 1};
  rl_dt_ok(rl_workload_decode.record(sim.funnel, &options));
  rl_test_read(&sim, "logits", logits, 256 * 4);
  rl_test_read(&sim, "token", out_token, 4);
  rl_dt_sim_close(&sim);
}

// The three targets' code objects run on their simulated devices with the
// same results bit for bit: the reference accepts each one's metadata, and
// the float semantics it models are the same on all three.
static void decode_workload_three_targets_agree_bit_for_bit(void** state) {
  (void)state;
  float want[256], got[256];
  uint32_t want_token = 0, token = 0;
  rl_test_target_step("gfx1100", want, &want_token);
  const char* const targets[] = {"gfx1151", "gfx1201"};
  for (size_t t = 0; t < 2; ++t) {
    rl_test_target_step(targets[t], got, &token);
    assert_memory_equal(got, want, sizeof(want));
    assert_int_equal(token, want_token);
  }
}

//===----------------------------------------------------------------------===//
// The capture's shape
//===----------------------------------------------------------------------===//

// Records the registry entry with |config| on the record-only device.
static rl_status_t rl_test_record(rl_dt_sim_t* sim, int64_t pos,
                                  const rl_workload_param_value_t* config,
                                  uint32_t config_count) {
  const rl_workload_param_value_t value = {"pos", pos};
  const rl_workload_options_t options = {.code_object = sim->bytes,
                                         .code_object_size = sim->size,
                                         .seed = 7,
                                         .params = &value,
                                         .param_count = 1,
                                         .config = config,
                                         .config_count = config_count};
  return rl_workload_decode.record(sim->funnel, &options);
}

static rl_capture_t* rl_test_capture(int64_t pos,
                                     const rl_workload_param_value_t* config,
                                     uint32_t config_count) {
  rl_dt_sim_t sim;
  rl_dt_sim_open(&sim, "decode", 1);
  rl_dt_ok(rl_test_record(&sim, pos, config, config_count));
  rl_capture_t* capture = NULL;
  rl_dt_ok(rl_funnel_finish(sim.funnel, &capture));
  rl_dt_sim_close(&sim);
  return capture;
}

// 13 launches per layer plus 4: 17, 56 (the default) and 628 (48 layers).
static void decode_workload_launches_thirteen_per_layer_plus_four(
    void** state) {
  (void)state;
  const struct {
    int64_t layers;
    uint32_t launches;
  } cases[] = {{1, 17}, {4, 56}, {48, 628}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const rl_workload_param_value_t config = {"layers", cases[i].layers};
    rl_capture_t* capture = rl_test_capture(30, &config, 1);
    assert_int_equal(capture->launch_count, cases[i].launches);
    printf("layers %2lld: %u launches\n", (long long)cases[i].layers,
           capture->launch_count);
    rl_capture_destroy(capture);
  }
  assert_ptr_equal(rl_workload_find("decode"), &rl_workload_decode);
}

static bool rl_test_expr_is(const rl_expr_t* e, int64_t add, rl_expr_op_t op,
                            int64_t operand) {
  return e->param == 0 && e->add == add && e->op == op &&
         e->operand == operand;
}

// Checks the bindings of launch |l| of kernel |name| at pos 33.
static void rl_test_bindings(const rl_capture_launch_t* launch,
                             const char* name) {
  uint32_t kernarg = 0, grid = 0;
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    const rl_expr_t* e = &binding->expr;
    if (binding->target == RL_BINDING_GRID) {
      ++grid;
      assert_int_equal(binding->offset, 0);
      assert_true(rl_test_expr_is(e, 1, RL_EXPR_CEIL_DIV, 32));
      continue;
    }
    ++kernarg;
    if (!strcmp(name, "dc_rope") || !strcmp(name, "dc_kv_append")) {
      assert_true(rl_test_expr_is(e, 0, RL_EXPR_ADD, 0));
    } else if (!strcmp(name, "dc_attn_partial")) {
      assert_true(rl_test_expr_is(e, 1, RL_EXPR_ADD, 0));
    } else {
      assert_string_equal(name, "dc_attn_merge");
      assert_true(rl_test_expr_is(e, 1, RL_EXPR_CEIL_DIV, 32));
    }
  }
  const bool pos_kernel = !strcmp(name, "dc_rope") ||
                          !strcmp(name, "dc_kv_append") ||
                          !strcmp(name, "dc_attn_partial") ||
                          !strcmp(name, "dc_attn_merge");
  assert_int_equal(kernarg, pos_kernel ? 1 : 0);
  assert_int_equal(grid, !strcmp(name, "dc_attn_partial") ? 1 : 0);
  if (!strcmp(name, "dc_attn_partial")) {
    assert_int_equal(launch->grid[0], 2);  // ceil(34 / 32)
    assert_int_equal(launch->grid[1], 4);  // heads
  }
}

// The workspace slots are declared over exactly the required capacity.
static void rl_test_workspace_slots(const rl_capture_t* capture,
                                    const rl_capture_launch_t* launch,
                                    const char* name, uint32_t partials) {
  const bool partial = !strcmp(name, "dc_attn_partial");
  if (!partial && strcmp(name, "dc_attn_merge")) return;
  uint32_t found = 0;
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    const rl_pointer_slot_t* slot = &launch->slots[s];
    if (slot->buffer != partials) continue;
    ++found;
    assert_int_equal(slot->source, RL_EFFECT_SOURCE_DECLARED);
    assert_int_equal(slot->effect, partial ? RL_EFFECT_WRITE : RL_EFFECT_READ);
    assert_int_equal(slot->extent_offset, 0);
    assert_int_equal(slot->extent_size, capture->buffers[partials].size);
  }
  assert_int_equal(found, 1);
}

// Parameters, bindings, roles, regions and window of the default capture.
static void
decode_workload_default_capture_has_expected_params_bindings_regions(
    void** state) {
  (void)state;
  rl_capture_t* capture = rl_test_capture(33, NULL, 0);
  assert_int_equal(capture->param_count, 1);
  assert_string_equal(capture->params[0].name, "pos");
  assert_int_equal(capture->params[0].min, 1);
  assert_int_equal(capture->params[0].max, 512);
  assert_int_equal(capture->params[0].capture_value, 33);
  uint32_t partials = 0;
  (void)rl_test_initial(capture, "partials", &partials);
  // 16 chunks x 4 heads x 18 floats x 4 bytes.
  assert_int_equal(capture->buffers[partials].size, 4608);
  assert_int_equal(rl_decode_workspace_bytes(&rl_test_default), 4608);
  assert_int_equal(capture->buffers[partials].role, RL_BUFFER_ROLE_WORKSPACE);
  uint32_t roles[RL_BUFFER_ROLE_COUNT_] = {0};
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    ++roles[capture->buffers[b].role];
  }
  assert_int_equal(roles[RL_BUFFER_ROLE_WEIGHTS], 10);
  assert_int_equal(roles[RL_BUFFER_ROLE_STATE], 4);
  assert_int_equal(roles[RL_BUFFER_ROLE_SCRATCH], 6);
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    const char* name = capture->kernels[launch->kernel].name;
    rl_test_bindings(launch, name);
    rl_test_workspace_slots(capture, launch, name, partials);
  }
  // Regions: kv_cache is every row (16 KiB per row x 512), the guard row
  // is row 34.
  const struct {
    const char* name;
    uint64_t offset, size;
    rl_region_type_t type;
  } regions[] = {{"token", 0, 4, RL_REGION_U32},
                 {"logits", 0, 1024, RL_REGION_F32},
                 {"hidden", 0, 256, RL_REGION_F32},
                 {"kv_cache", 0, 2048ull * 512, RL_REGION_F32},
                 {"kv_guard", 2048ull * 34, 2048, RL_REGION_F32},
                 {"partials", 0, 4608, RL_REGION_F32}};
  assert_int_equal(capture->region_count, 6);
  for (uint32_t r = 0; r < 6; ++r) {
    assert_string_equal(capture->regions[r].name, regions[r].name);
    assert_int_equal(capture->regions[r].offset, regions[r].offset);
    assert_int_equal(capture->regions[r].size, regions[r].size);
    assert_int_equal(capture->regions[r].type, regions[r].type);
  }
  assert_int_equal(capture->window_count, 1);
  assert_int_equal(capture->windows[0].param, 0);
  assert_int_equal(capture->windows[0].start, 30);
  assert_int_equal(capture->windows[0].count, 12);
  assert_int_equal(capture->windows[0].stride, 1);
  rl_capture_destroy(capture);
}

// At the last admitted position there is no inactive row to guard.
static void test_no_guard_at_last_position(void** state) {
  (void)state;
  rl_capture_t* capture = rl_test_capture(511, NULL, 0);
  assert_int_equal(capture->region_count, 5);
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    assert_string_not_equal(capture->regions[r].name, "kv_guard");
  }
  rl_capture_destroy(capture);
}

// An undersized workspace is refused at record time; a capture whose
// workspace shrank fails validation (the declared extents no longer fit);
// a larger one is fine.
static void test_workspace_contract(void** state) {
  (void)state;
  rl_dt_sim_t sim;
  rl_dt_sim_open(&sim, "decode", 1);
  const rl_workload_param_value_t small = {"workspace_chunks", 15};
  rl_dt_expect(rl_test_record(&sim, 30, &small, 1),
               RL_STATUS_INVALID_ARGUMENT,
               "partials workspace of 4320 bytes (15 chunks)");
  rl_dt_sim_close(&sim);
  // Negative control: the exact and a larger capacity record.
  const rl_workload_param_value_t exact = {"workspace_chunks", 16};
  rl_capture_t* capture = rl_test_capture(30, &exact, 1);
  rl_capture_destroy(capture);
  const rl_workload_param_value_t large = {"workspace_chunks", 20};
  capture = rl_test_capture(30, &large, 1);
  uint32_t partials = 0;
  (void)rl_test_initial(capture, "partials", &partials);
  assert_int_equal(capture->buffers[partials].size, 20 * 4 * 18 * 4);
  rl_capture_destroy(capture);
  capture = rl_test_capture(30, NULL, 0);
  (void)rl_test_initial(capture, "partials", &partials);
  rl_dt_ok(rl_capture_validate(capture));
  capture->buffers[partials].size -= 72;  // one chunk of one head
  rl_dt_expect(rl_capture_validate(capture), RL_STATUS_INVALID_INPUT,
               "outside buffer partials");
  capture->buffers[partials].size += 72;
  rl_capture_destroy(capture);
}

// Unknown names and values outside the admitted ranges are refused.
static void decode_workload_refuses_unknown_options_and_out_of_range_values(
    void** state) {
  (void)state;
  const struct {
    int64_t pos;
    rl_workload_param_value_t config;
    const char* needle;
  } cases[] = {
      {512, {"layers", 4}, "pos=512 is outside"},
      {0, {"layers", 4}, "pos=0 is outside"},
      {30, {"layers", 0}, "layers=0 is outside"},
      {30, {"layer", 2}, "has no config entry layer"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    rl_dt_sim_t sim;
    rl_dt_sim_open(&sim, "decode", 1);
    rl_dt_expect(rl_test_record(&sim, cases[i].pos, &cases[i].config, 1),
                 RL_STATUS_INVALID_ARGUMENT, cases[i].needle);
    rl_dt_sim_close(&sim);
  }
  const rl_decode_dims_t odd = {4, 4, 15, 128, 256, 512, 32, 0};
  rl_dt_expect(rl_decode_dims_check(&odd), RL_STATUS_INVALID_ARGUMENT,
               "head_dim 15");
  rl_dt_ok(rl_decode_dims_check(&rl_test_default));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_step_default_dims),
      cmocka_unit_test(test_step_small_dims),
      cmocka_unit_test(decode_workload_three_targets_agree_bit_for_bit),
      cmocka_unit_test(decode_workload_launches_thirteen_per_layer_plus_four),
      cmocka_unit_test(
          decode_workload_default_capture_has_expected_params_bindings_regions),
      cmocka_unit_test(test_no_guard_at_last_position),
      cmocka_unit_test(test_workspace_contract),
      cmocka_unit_test(
          decode_workload_refuses_unknown_options_and_out_of_range_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
