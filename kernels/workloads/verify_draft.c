// The verify workload's drafter: an eager double-precision run of the model
// that proposes the drafts of the window (kernels/workloads/verify_internal.h).
//
// It follows the step of verify.h one row at a time (a causal row depends
// only on the rows before it, so row-by-row and batched passes compute the
// same function): embedding, per layer RMSNorm, QKV, RoPE at the row's
// position, the int8 quantisation of the K/V row into a host copy of the
// cache, exact softmax attention over the dequantised rows [0, p], output
// projection, the recurrence, the MLP; then the LM head and argmax. After a
// window it rolls back as the step does: rows from tau on get their
// previous bytes, the recurrence its value after row tau - 1.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/workloads/verify_internal.h"

// The model's dimensions and the drafter's working state.
typedef struct rl_vd_s {
  const rl_vf_t* vf;
  const rl_vf_host_t* host;
  uint32_t L, h, hd, heads, f, V, B;
  int8_t* cache;      // working copy [C][row_bytes]
  float* scales;      // working copy [C][row_scales]
  int8_t* backup;     // [B][row_bytes], the rows before the window
  float* backup_scales;
  double* recur;      // [L][h]
  double* history;    // [L][B + 1][h]
  double* scores;     // [C]
  double x[64], xn[64], qkv[192], attn[64], delta[64], n[64];
  double* gate_up;    // [2f]
  double* logits;     // [V]
} rl_vd_t;

static const float* rl_vd_w(const rl_vd_t* d, rl_vf_buffer_t b) {
  return d->host->weights[b];
}

static void rl_vd_rmsnorm(const rl_vd_t* d, const double* x, const float* w,
                          double* out) {
  double sum = 0;
  for (uint32_t i = 0; i < d->h; ++i) sum += x[i] * x[i];
  const double r = 1.0 / sqrt(sum / d->h + RL_VERIFY_EPS);
  for (uint32_t i = 0; i < d->h; ++i) out[i] = x[i] * r * w[i];
}

static void rl_vd_matvec(const float* W, const double* x, uint32_t rows,
                         uint32_t cols, double* y) {
  for (uint32_t r = 0; r < rows; ++r) {
    double s = 0;
    for (uint32_t c = 0; c < cols; ++c) s += (double)W[(size_t)r * cols + c] * x[c];
    y[r] = s;
  }
}

// The kernel's quantisation of |v| (h values) into cache row |p|, layer
// |l|, kind |k| (0 K, 1 V): scale = max |v| / 127 in float, q = rint(v /
// scale) clamped to +-127.
static void rl_vd_append(rl_vd_t* d, uint32_t p, uint32_t l, uint32_t k,
                         const double* v) {
  const rl_vf_t* vf = d->vf;
  float amax = 0;
  for (uint32_t i = 0; i < d->h; ++i) {
    const float a = fabsf((float)v[i]);
    amax = a > amax ? a : amax;
  }
  const float scale = amax * (1.0f / 127.0f);
  int8_t* row = d->cache + (size_t)p * vf->row_bytes + (l * 2 + k) * d->h;
  for (uint32_t i = 0; i < d->h; ++i) {
    float q = amax > 0 ? rintf((float)v[i] / scale) : 0.0f;
    q = q > 127.0f ? 127.0f : (q < -127.0f ? -127.0f : q);
    row[i] = (int8_t)(int)q;
  }
  d->scales[(size_t)p * vf->row_scales + l * 2 + k] = scale;
}

// Exact softmax attention of the query in d->qkv over positions [0, p] of
// layer |l| into d->attn.
static void rl_vd_attend(rl_vd_t* d, uint32_t p, uint32_t l) {
  const rl_vf_t* vf = d->vf;
  const double inv = 1.0 / sqrt((double)d->hd);
  for (uint32_t hh = 0; hh < d->heads; ++hh) {
    const double* q = &d->qkv[hh * d->hd];
    double mx = -INFINITY;
    for (uint32_t t = 0; t <= p; ++t) {
      const int8_t* k = d->cache + (size_t)t * vf->row_bytes + l * 2 * d->h +
                        hh * d->hd;
      double dot = 0;
      for (uint32_t e = 0; e < d->hd; ++e) dot += q[e] * k[e];
      const double s =
          dot * d->scales[(size_t)t * vf->row_scales + l * 2] * inv;
      d->scores[t] = s;
      mx = s > mx ? s : mx;
    }
    double sum = 0, acc[64] = {0};
    for (uint32_t t = 0; t <= p; ++t) {
      const int8_t* v = d->cache + (size_t)t * vf->row_bytes +
                        (l * 2 + 1) * d->h + hh * d->hd;
      const double w = exp(d->scores[t] - mx) *
                       d->scales[(size_t)t * vf->row_scales + l * 2 + 1];
      sum += exp(d->scores[t] - mx);
      for (uint32_t e = 0; e < d->hd; ++e) acc[e] += w * v[e];
    }
    for (uint32_t e = 0; e < d->hd; ++e) d->attn[hh * d->hd + e] = acc[e] / sum;
  }
}

static void rl_vd_rope(rl_vd_t* d, uint32_t p) {
  const float* rope = rl_vd_w(d, RL_VF_ROPE);
  const uint32_t half = d->hd / 2;
  for (uint32_t i = 0; i < d->h; ++i) {  // the pairs of q, then of k
    const size_t a = ((size_t)p * half + i % half) * 2;
    const double c = rope[a], s = rope[a + 1];
    const double x0 = d->qkv[2 * i], x1 = d->qkv[2 * i + 1];
    d->qkv[2 * i] = x0 * c - x1 * s;
    d->qkv[2 * i + 1] = x0 * s + x1 * c;
  }
}

static void rl_vd_mlp(rl_vd_t* d, uint32_t l) {
  const uint32_t h = d->h, f = d->f;
  rl_vd_rmsnorm(d, d->x, rl_vd_w(d, RL_VF_FFN_NORM) + l * h, d->n);
  rl_vd_matvec(rl_vd_w(d, RL_VF_W_GATE_UP) + (size_t)l * 2 * f * h, d->n,
               2 * f, h, d->gate_up);
  for (uint32_t i = 0; i < f; ++i) {
    const double g = d->gate_up[i];
    d->gate_up[i] = g / (1 + exp(-g)) * d->gate_up[f + i];
  }
  rl_vd_matvec(rl_vd_w(d, RL_VF_W_DOWN) + (size_t)l * h * f, d->gate_up, h,
               f, d->delta);
  for (uint32_t i = 0; i < h; ++i) d->x[i] += d->delta[i];
}

// Row |r| of a window: token |token| at position |p|; returns its argmax.
static uint32_t rl_vd_row(rl_vd_t* d, uint32_t r, uint32_t p,
                          uint32_t token) {
  const uint32_t h = d->h;
  const float* emb = rl_vd_w(d, RL_VF_EMBEDDING);
  const uint32_t t = token < d->V ? token : d->V - 1;
  for (uint32_t i = 0; i < h; ++i) d->x[i] = emb[(size_t)t * h + i];
  for (uint32_t l = 0; l < d->L; ++l) {
    rl_vd_rmsnorm(d, d->x, rl_vd_w(d, RL_VF_ATTN_NORM) + l * h, d->xn);
    rl_vd_matvec(rl_vd_w(d, RL_VF_W_QKV) + (size_t)l * 3 * h * h, d->xn,
                 3 * h, h, d->qkv);
    rl_vd_rope(d, p);
    rl_vd_append(d, p, l, 0, &d->qkv[h]);
    rl_vd_append(d, p, l, 1, &d->qkv[2 * h]);
    rl_vd_attend(d, p, l);
    rl_vd_matvec(rl_vd_w(d, RL_VF_W_O) + (size_t)l * h * h, d->attn, h, h,
                 d->delta);
    for (uint32_t i = 0; i < h; ++i) d->x[i] += d->delta[i];
    const float* decay = rl_vd_w(d, RL_VF_DECAY) + l * h;
    const float* gain = rl_vd_w(d, RL_VF_GAIN) + l * h;
    double* s = &d->recur[l * h];
    for (uint32_t i = 0; i < h; ++i) {
      s[i] = decay[i] * s[i] + gain[i] * d->xn[i];
      d->history[((size_t)l * (d->B + 1) + r + 1) * h + i] = s[i];
      d->x[i] += s[i];
    }
    rl_vd_mlp(d, l);
  }
  rl_vd_rmsnorm(d, d->x, rl_vd_w(d, RL_VF_FINAL_NORM), d->n);
  rl_vd_matvec(rl_vd_w(d, RL_VF_LM_HEAD), d->n, d->V, h, d->logits);
  uint32_t best = 0;
  for (uint32_t v = 1; v < d->V; ++v) {
    if (d->logits[v] > d->logits[best]) best = v;
  }
  return best;
}

uint32_t rl_vf_wrong_row(const rl_vf_t* vf, uint32_t w) {
  const uint32_t n = vf->dims.wrong_drafts, W = RL_VERIFY_WINDOW_STEPS;
  const uint32_t B = vf->dims.batch;
  if ((w + 1) * n / W == w * n / W) return B;
  return 1 + (37 * w + 3) % (B - 1);
}

static void rl_vd_free(rl_vd_t* d) {
  free(d->cache);
  free(d->scales);
  free(d->backup);
  free(d->backup_scales);
  free(d->recur);
  free(d->history);
  free(d->scores);
  free(d->gate_up);
  free(d->logits);
}

static rl_status_t rl_vd_init(rl_vd_t* d, const rl_vf_t* vf,
                              const rl_vf_host_t* host) {
  const rl_verify_dims_t* dims = &vf->dims;
  *d = (rl_vd_t){.vf = vf, .host = host, .L = dims->layers, .h = vf->hidden,
                 .hd = dims->head_dim, .heads = dims->heads, .f = dims->ffn,
                 .V = dims->vocab, .B = dims->batch};
  const size_t C = dims->max_context;
  d->cache = malloc(C * vf->row_bytes);
  d->scales = malloc(C * vf->row_scales * sizeof(float));
  d->backup = malloc((size_t)d->B * vf->row_bytes);
  d->backup_scales = malloc((size_t)d->B * vf->row_scales * sizeof(float));
  d->recur = malloc((size_t)d->L * d->h * sizeof(double));
  d->history = malloc((size_t)d->L * (d->B + 1) * d->h * sizeof(double));
  d->scores = malloc(C * sizeof(double));
  d->gate_up = malloc((size_t)2 * d->f * sizeof(double));
  d->logits = malloc((size_t)d->V * sizeof(double));
  if (!d->cache || !d->scales || !d->backup || !d->backup_scales ||
      !d->recur || !d->history || !d->scores || !d->gate_up || !d->logits) {
    rl_vd_free(d);
    return rl_status_out_of_memory();
  }
  memcpy(d->cache, host->cache, C * vf->row_bytes);
  memcpy(d->scales, host->scales, C * vf->row_scales * sizeof(float));
  for (size_t i = 0; i < (size_t)d->L * d->h; ++i) d->recur[i] = host->recur[i];
  return RL_OK;
}

// Window |w| at |pos|: drafts into |drafts| (B), then the rollback;
// returns tau, updates *|expected| to the last row's argmax.
static uint32_t rl_vd_window(rl_vd_t* d, uint32_t w, uint32_t pos,
                             uint32_t* expected, uint32_t* drafts) {
  const rl_vf_t* vf = d->vf;
  const size_t rb = vf->row_bytes, rs = vf->row_scales;
  memcpy(d->backup, d->cache + (size_t)pos * rb, d->B * rb);
  memcpy(d->backup_scales, d->scales + (size_t)pos * rs,
         d->B * rs * sizeof(float));
  for (uint32_t l = 0; l < d->L; ++l) {
    for (uint32_t i = 0; i < d->h; ++i) {
      d->history[(size_t)l * (d->B + 1) * d->h + i] = d->recur[l * d->h + i];
    }
  }
  const uint32_t wrong = rl_vf_wrong_row(vf, w);
  uint32_t want = *expected;
  for (uint32_t r = 0; r < d->B; ++r) {
    drafts[r] = r == wrong ? (want + 1 + w) % d->V : want;
    want = rl_vd_row(d, r, pos + r, drafts[r]);
  }
  *expected = want;
  const uint32_t tau = wrong < d->B ? wrong : d->B;
  for (uint32_t r = tau; r < d->B; ++r) {
    memcpy(d->cache + (size_t)(pos + r) * rb, d->backup + r * rb, rb);
    memcpy(d->scales + (size_t)(pos + r) * rs, d->backup_scales + r * rs,
           rs * sizeof(float));
  }
  for (uint32_t l = 0; l < d->L; ++l) {
    for (uint32_t i = 0; i < d->h; ++i) {
      d->recur[l * d->h + i] =
          d->history[((size_t)l * (d->B + 1) + tau) * d->h + i];
    }
  }
  return tau;
}

rl_status_t rl_vf_draft(const rl_vf_t* vf, const rl_vf_host_t* host,
                        uint32_t first, uint32_t* drafts, uint32_t* out_tau) {
  if (vf->hidden > 64) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify drafter: hidden %u above 64", vf->hidden);
  }
  rl_vd_t d;
  RL_RETURN_IF_ERROR(rl_vd_init(&d, vf, host));
  uint32_t expected = first;
  for (uint32_t w = 0; w < RL_VERIFY_WINDOW_STEPS; ++w) {
    const int64_t pos = vf->window_start + (int64_t)w * d.B;
    uint32_t tau = 0;
    if (pos + d.B <= vf->dims.max_context) {
      tau = rl_vd_window(&d, w, (uint32_t)pos, &expected, &drafts[w * d.B]);
    } else {
      for (uint32_t r = 0; r < d.B; ++r) drafts[w * d.B + r] = expected;
    }
    if (out_tau) out_tau[w] = tau;
  }
  rl_vd_free(&d);
  return RL_OK;
}
