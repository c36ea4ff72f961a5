// Reference implementations of the kernels of kernels/verify.hip.
//
// Conventions of decode_ref.c: each function computes one work-group of 64
// lanes with the kernel's 32-bit index arithmetic, loads and stores go
// through rl_sim_wg_load/store (4 bytes per float or u32 element, 1 byte per
// int8 cache element), fused multiply-adds are fmaf() exactly where the
// source writes __builtin_fmaf (v_fmac_f32 / v_dual_fmac_f32 in the gfx1100
// disassembly), this file is compiled with -ffp-contract=off, and the
// transcendentals are the shared model of sim/sim_math.h. Conversions:
// (float)int8 is v_cvt_f32_i32 (exact), __builtin_rintf is v_rndne_f32
// (round half to even, rintf() in the default rounding mode), the clamp to
// [-127, 127] and the int conversion (v_cvt_i32_f32) are exact on the
// clamped integral value. A work-item reads a value it needs once (the
// query row of vf_attn_partial is read per lane in the kernel and once per
// group here): the set of bytes accessed, which is what the hazard checker
// sees, is the same.
#include <math.h>
#include <stdint.h>

#include "kernels/ref/ref_kernel.h"
#include "kernels/ref/ref_lane.h"
#include "sim/sim_math.h"

// vf_embed(table, tokens, out, n, vocab).
static rl_status_t rl_vf_embed(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint32_t n = args[3].u32, vocab = args[4].u32, r = wg->group_id[1];
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    const uint32_t i = rl_ref_global_id(wg, lane);
    if (i >= n) continue;
    uint32_t t = 0;
    float v = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, r, &t));
    t = t < vocab ? t : vocab - 1;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, t * n + i, &v));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[2].pointer, r * n + i, &v));
  }
  return RL_OK;
}

// vf_rmsnorm(x, w, out, n, inv_n, eps), row = group x.
static rl_status_t rl_vf_rmsnorm(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const float inv_n = args[4].f32, eps = args[5].f32;
  const uint32_t n = args[3].u32, base = wg->group_id[0] * n;
  float* lds = (float*)rl_sim_wg_lds(wg);
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    float sum = 0.0f;
    for (uint32_t i = lane; i < n; i += RL_REF_BLOCK) {
      float v = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, base + i, &v));
      sum = fmaf(v, v, sum);
    }
    lds[lane] = sum;
  }
  const float r = rl_sim_math_rsqf(rl_ref_tree_sum(lds) * inv_n + eps);
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    for (uint32_t i = lane; i < n; i += RL_REF_BLOCK) {
      float v = 0, w = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, base + i, &v));
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, i, &w));
      const float out = (v * r) * w;
      RL_RETURN_IF_ERROR(rl_ref_store(wg, args[2].pointer, base + i, &out));
    }
  }
  return RL_OK;
}

// vf_matmul(W, X, Y, rows, cols): row = group x, b = group y.
static rl_status_t rl_vf_matmul(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint32_t rows = args[3].u32, cols = args[4].u32;
  const uint32_t row = wg->group_id[0], b = wg->group_id[1];
  float* lds = (float*)rl_sim_wg_lds(wg);
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    float sum = 0.0f;
    for (uint32_t c = lane; c < cols; c += RL_REF_BLOCK) {
      float w = 0, x = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, row * cols + c, &w));
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, b * cols + c, &x));
      sum = fmaf(w, x, sum);
    }
    lds[lane] = sum;
  }
  const float y = rl_ref_tree_sum(lds);
  return rl_ref_store(wg, args[2].pointer, b * rows + row, &y);
}

// vf_rope(qkv, table, pos, half, pairs, stride); half a power of two.
static rl_status_t rl_vf_rope(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint32_t pos = args[2].u32, half = args[3].u32, pairs = args[4].u32,
                 stride = args[5].u32;
  const uint32_t r = wg->group_id[1];
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    const uint32_t p = rl_ref_global_id(wg, lane);
    if (p >= pairs) continue;
    const uint32_t angle = ((pos + r) * half + (p & (half - 1))) * 2;
    const uint32_t row = r * stride;
    float c = 0, s = 0, x0 = 0, x1 = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, angle, &c));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, angle + 1, &s));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, row + 2 * p, &x0));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, row + 2 * p + 1, &x1));
    const float r0 = fmaf(x0, c, -(x1 * s));
    const float r1 = fmaf(x0, s, x1 * c);
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[0].pointer, row + 2 * p, &r0));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[0].pointer, row + 2 * p + 1, &r1));
  }
  return RL_OK;
}

// vf_kv_append(qkv, cache, scales, src_stride, row_bytes, row_scales, pos,
// n): group (k, r). n > 64 would leave values without a lane: refused.
static rl_status_t rl_vf_kv_append(rl_sim_wg_t* wg,
                                   const rl_ref_arg_t* args) {
  const uint32_t src_stride = args[3].u32, row_bytes = args[4].u32,
                 row_scales = args[5].u32;
  const uint32_t pos = args[6].u32, n = args[7].u32;
  if (n > RL_REF_BLOCK) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "vf_kv_append: n %u, one lane per value allows %u", n,
                     RL_REF_BLOCK);
  }
  const uint32_t k = wg->group_id[0], r = wg->group_id[1];
  float* lds = (float*)rl_sim_wg_lds(wg);
  float v[RL_REF_BLOCK];
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    v[lane] = 0.0f;
    if (lane < n) {
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer,
                                     r * src_stride + (1 + k) * n + lane,
                                     &v[lane]));
    }
    lds[lane] = fabsf(v[lane]);
  }
  const float amax = rl_ref_tree_max(lds);
  const float scale = amax * (1.0f / 127.0f);
  const float inv = rl_sim_math_rcpf(scale);
  const uint32_t t = pos + r;
  for (uint32_t lane = 0; lane < n; ++lane) {
    float q = rintf(v[lane] * inv);
    q = q > 127.0f ? 127.0f : q;
    q = q < -127.0f ? -127.0f : q;
    q = amax > 0.0f ? q : 0.0f;
    const int8_t byte = (int8_t)(int)q;
    RL_RETURN_IF_ERROR(rl_sim_wg_store(
        wg, args[1].pointer + t * row_bytes + k * n + lane, &byte, 1));
  }
  return rl_ref_store(wg, args[2].pointer, t * row_scales + k, &scale);
}

// The arguments of vf_attn_partial.
typedef struct rl_vf_attn_s {
  uint64_t qkv, kv, ks, partials;
  uint32_t row_bytes, row_scales, head_dim, heads, chunk, chunks, pos;
  float score_scale;
} rl_vf_attn_t;

// Scores of one 64-position tile: s[j] for t = base + j < last. The head's
// K bytes of a position are read with one access (the bytes every lane's
// loop reads).
static rl_status_t rl_vf_attn_scores(rl_sim_wg_t* wg, const rl_vf_attn_t* a,
                                     const float* q, uint32_t h,
                                     uint32_t base, uint32_t last,
                                     float* scores) {
  int8_t k[RL_REF_BLOCK];
  for (uint32_t j = 0; j < RL_REF_BLOCK; ++j) {
    const uint32_t t = base + j;
    scores[j] = -INFINITY;
    if (t >= last) continue;
    float dot = 0.0f, scale = 0;
    RL_RETURN_IF_ERROR(rl_sim_wg_load(
        wg, a->kv + t * a->row_bytes + h * a->head_dim, k, a->head_dim));
    for (uint32_t d = 0; d < a->head_dim; ++d) dot = fmaf(q[d], (float)k[d], dot);
    RL_RETURN_IF_ERROR(rl_ref_load(wg, a->ks, t * a->row_scales, &scale));
    scores[j] = (dot * scale) * a->score_scale;
  }
  return RL_OK;
}

// One tile's accumulation for every lane d < head_dim, position-major: the
// operations on each lane's l and acc are in the kernel's order (ascending
// j); the V bytes of a position and its scale are read with one access
// each.
static rl_status_t rl_vf_attn_accumulate(rl_sim_wg_t* wg,
                                         const rl_vf_attn_t* a,
                                         const float* probs, uint32_t h,
                                         uint32_t base, uint32_t count,
                                         float* l, float* acc) {
  const uint32_t n = a->heads * a->head_dim;
  int8_t v[RL_REF_BLOCK];
  for (uint32_t j = 0; j < count; ++j) {
    const uint32_t tj = base + j;
    float vs = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, a->ks, tj * a->row_scales + 1, &vs));
    RL_RETURN_IF_ERROR(rl_sim_wg_load(
        wg, a->kv + tj * a->row_bytes + n + h * a->head_dim, v, a->head_dim));
    const float pv = probs[j] * vs;
    for (uint32_t d = 0; d < a->head_dim; ++d) {
      l[d] = l[d] + probs[j];
      acc[d] = fmaf(pv, (float)v[d], acc[d]);
    }
  }
  return RL_OK;
}

// vf_attn_partial(qkv, kv, ks, partials, row_bytes, row_scales, head_dim,
// heads, chunk, chunks, pos, score_scale): group (c, h, r). Every lane
// keeps its own l; lanes d < head_dim all compute the same l, lane 0's is
// stored.
static rl_status_t rl_vf_attn_partial(rl_sim_wg_t* wg,
                                      const rl_ref_arg_t* args) {
  const rl_vf_attn_t a = {args[0].pointer, args[1].pointer, args[2].pointer,
                          args[3].pointer, args[4].u32,     args[5].u32,
                          args[6].u32,     args[7].u32,     args[8].u32,
                          args[9].u32,     args[10].u32,    args[11].f32};
  if (a.head_dim < 1 || a.head_dim > RL_REF_BLOCK) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "vf_attn_partial: head_dim %u, expected 1..%u",
                     a.head_dim, RL_REF_BLOCK);
  }
  const uint32_t c = wg->group_id[0], h = wg->group_id[1];
  const uint32_t r = wg->group_id[2];
  const uint32_t n = a.heads * a.head_dim;
  const uint32_t end = a.pos + r + 1, first = c * a.chunk;
  const uint32_t last = first + a.chunk < end ? first + a.chunk : end;
  float q[RL_REF_BLOCK];
  for (uint32_t d = 0; d < a.head_dim; ++d) {
    RL_RETURN_IF_ERROR(
        rl_ref_load(wg, a.qkv, r * 3 * n + h * a.head_dim + d, &q[d]));
  }
  float* scores = (float*)rl_sim_wg_lds(wg);
  float* probs = scores + RL_REF_BLOCK;
  float m = -INFINITY;
  float l[RL_REF_BLOCK] = {0}, acc[RL_REF_BLOCK] = {0};
  for (uint32_t base = first; base < last; base += RL_REF_BLOCK) {
    RL_RETURN_IF_ERROR(rl_vf_attn_scores(wg, &a, q, h, base, last, scores));
    for (uint32_t j = 0; j < RL_REF_BLOCK; ++j) probs[j] = scores[j];
    const float tile_max = rl_ref_tree_max(probs);
    const float m_new = tile_max > m ? tile_max : m;
    const float alpha = rl_sim_math_exp2f(m - m_new);
    for (uint32_t j = 0; j < RL_REF_BLOCK; ++j) {
      probs[j] = base + j < last ? rl_sim_math_exp2f(scores[j] - m_new) : 0.0f;
    }
    const uint32_t count =
        last - base < RL_REF_BLOCK ? last - base : RL_REF_BLOCK;
    for (uint32_t d = 0; d < a.head_dim; ++d) {
      l[d] = l[d] * alpha;
      acc[d] = acc[d] * alpha;
    }
    RL_RETURN_IF_ERROR(
        rl_vf_attn_accumulate(wg, &a, probs, h, base, count, l, acc));
    m = m_new;
  }
  const uint32_t out = ((r * a.heads + h) * a.chunks + c) * (a.head_dim + 2);
  for (uint32_t d = 0; d < a.head_dim; ++d) {
    RL_RETURN_IF_ERROR(rl_ref_store(wg, a.partials, out + 2 + d, &acc[d]));
  }
  RL_RETURN_IF_ERROR(rl_ref_store(wg, a.partials, out, &m));
  return rl_ref_store(wg, a.partials, out + 1, &l[0]);
}

// vf_attn_merge(partials, attn, head_dim, heads, chunks): group (h, r)
// merges the chunks of (r * heads + h) (rl_ref_merge_lane).
static rl_status_t rl_vf_attn_merge(rl_sim_wg_t* wg,
                                    const rl_ref_arg_t* args) {
  const uint32_t head_dim = args[2].u32, heads = args[3].u32,
                 chunks = args[4].u32;
  const uint32_t h = wg->group_id[0], r = wg->group_id[1];
  const uint32_t width = head_dim + 2, first = (r * heads + h) * chunks;
  for (uint32_t d = 0; d < wg->size[0] && d < head_dim; ++d) {
    float out = 0;
    RL_RETURN_IF_ERROR(rl_ref_merge_lane(wg, args[0].pointer, first * width,
                                         width, chunks, d, &out));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[1].pointer,
                                    (r * heads + h) * head_dim + d, &out));
  }
  return RL_OK;
}

// vf_add(x, delta, n).
static rl_status_t rl_vf_add(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t x = args[0].pointer, delta = args[1].pointer;
  const rl_ref_binary_t m = {.a = x, .b = delta, .out = x, .n = args[2].u32};
  return rl_ref_binary(wg, &m, rl_ref_op_add);
}

// vf_recur(x, xn, decay, gain, state, history, n, rows).
static rl_status_t rl_vf_recur(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint32_t n = args[6].u32, rows = args[7].u32;
  for (uint32_t i = 0; i < wg->size[0] && i < n; ++i) {
    float s = 0, decay = 0, gain = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[4].pointer, i, &s));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[2].pointer, i, &decay));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[3].pointer, i, &gain));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[5].pointer, i, &s));
    for (uint32_t t = 0; t < rows; ++t) {
      float xn = 0, x = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, t * n + i, &xn));
      s = fmaf(decay, s, gain * xn);
      RL_RETURN_IF_ERROR(
          rl_ref_store(wg, args[5].pointer, (t + 1) * n + i, &s));
      RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, t * n + i, &x));
      const float out = x + s;
      RL_RETURN_IF_ERROR(rl_ref_store(wg, args[0].pointer, t * n + i, &out));
    }
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[4].pointer, i, &s));
  }
  return RL_OK;
}

// vf_silu_mul(gu, out, n), row = group y.
static rl_status_t rl_vf_silu_mul(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t gu = args[0].pointer;
  const uint32_t n = args[2].u32, r = wg->group_id[1];
  const rl_ref_binary_t m = {.a = gu, .b = gu, .out = args[1].pointer,
                             .a_first = r * 2 * n, .b_first = r * 2 * n + n,
                             .out_first = r * n, .n = n};
  return rl_ref_binary(wg, &m, rl_ref_op_silu_mul);
}

// vf_argmax(logits, argmax, n), row = group x.
static rl_status_t rl_vf_argmax(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint32_t n = args[2].u32, r = wg->group_id[0];
  uint32_t winner = 0;
  RL_RETURN_IF_ERROR(rl_ref_argmax(wg, args[0].pointer, r * n, n, &winner));
  return rl_ref_store(wg, args[1].pointer, r, &winner);
}

// vf_accept(tokens, argmax, state, drafts, rows, pos, slot, first_slot,
// windows), lane 0 of one group.
static rl_status_t rl_vf_accept(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint32_t rows = args[4].u32, pos = args[5].u32, slot = args[6].u32;
  const uint32_t first_slot = args[7].u32, windows = args[8].u32;
  uint32_t tau = 0, expected = 0;
  RL_RETURN_IF_ERROR(rl_ref_load(wg, args[2].pointer, 3, &expected));
  while (tau < rows) {
    uint32_t token = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[0].pointer, tau, &token));
    if (token != expected) break;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, tau, &expected));
    ++tau;
  }
  uint32_t last = 0;
  RL_RETURN_IF_ERROR(rl_ref_load(wg, args[1].pointer, rows - 1, &last));
  const uint32_t state[4] = {tau, pos + rows, pos + tau, last};
  for (uint32_t i = 0; i < 4; ++i) {
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[2].pointer, i, &state[i]));
  }
  uint32_t next = slot - first_slot + 1;
  next = next < windows ? next : windows - 1;
  for (uint32_t i = 0; i < rows; ++i) {
    uint32_t token = 0;
    RL_RETURN_IF_ERROR(
        rl_ref_load(wg, args[3].pointer, next * rows + i, &token));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[0].pointer, i, &token));
  }
  return RL_OK;
}

// vf_kv_save(cache, scales, dst, dst_scales, pos, words, scale_count) and
// vf_kv_restore(cache, scales, src, src_scales, state, pos, words,
// scale_count): the same copy in either direction, restore only for rows
// r >= state[0].
static rl_status_t rl_vf_kv_copy(rl_sim_wg_t* wg, uint64_t cache,
                                 uint64_t scales, uint64_t rows,
                                 uint64_t row_scales, uint32_t pos,
                                 uint32_t words, uint32_t scale_count,
                                 int restore) {
  const uint32_t r = wg->group_id[1], t = pos + r;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    const uint32_t e = rl_ref_global_id(wg, lane);
    uint32_t value = 0;
    uint64_t from = 0, to = 0;
    uint32_t from_index = 0, to_index = 0;
    if (e < words) {
      from = restore ? rows : cache;
      to = restore ? cache : rows;
      from_index = restore ? r * words + e : t * words + e;
      to_index = restore ? t * words + e : r * words + e;
    } else if (e - words < scale_count) {
      const uint32_t s = e - words;
      from = restore ? row_scales : scales;
      to = restore ? scales : row_scales;
      from_index = restore ? r * scale_count + s : t * scale_count + s;
      to_index = restore ? t * scale_count + s : r * scale_count + s;
    } else {
      continue;
    }
    RL_RETURN_IF_ERROR(rl_ref_load(wg, from, from_index, &value));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, to, to_index, &value));
  }
  return RL_OK;
}

static rl_status_t rl_vf_kv_save(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  return rl_vf_kv_copy(wg, args[0].pointer, args[1].pointer, args[2].pointer,
                       args[3].pointer, args[4].u32, args[5].u32, args[6].u32,
                       0);
}

static rl_status_t rl_vf_kv_restore(rl_sim_wg_t* wg,
                                    const rl_ref_arg_t* args) {
  uint32_t tau = 0;
  RL_RETURN_IF_ERROR(rl_ref_load(wg, args[4].pointer, 0, &tau));
  if (wg->group_id[1] < tau) return RL_OK;
  return rl_vf_kv_copy(wg, args[0].pointer, args[1].pointer, args[2].pointer,
                       args[3].pointer, args[5].u32, args[6].u32, args[7].u32,
                       1);
}

// vf_recur_restore(state, history, accept, n, rows), layer = group x.
static rl_status_t rl_vf_recur_restore(rl_sim_wg_t* wg,
                                       const rl_ref_arg_t* args) {
  const uint32_t n = args[3].u32, rows = args[4].u32, l = wg->group_id[0];
  for (uint32_t i = 0; i < wg->size[0] && i < n; ++i) {
    uint32_t tau = 0;
    float v = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, args[2].pointer, 0, &tau));
    RL_RETURN_IF_ERROR(
        rl_ref_load(wg, args[1].pointer, (l * (rows + 1) + tau) * n + i, &v));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, args[0].pointer, l * n + i, &v));
  }
  return RL_OK;
}

#define RL_VF_P RL_REF_ARG_POINTER
#define RL_VF_U RL_REF_ARG_U32
#define RL_VF_F RL_REF_ARG_F32

// LDS: the trees need whole work-groups (vf_rmsnorm, vf_matmul,
// vf_kv_append, vf_attn_partial, vf_argmax).
const rl_ref_kernel_t rl_ref_verify_kernels[] = {
    {"vf_embed", {64, 1, 1}, 5, {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U},
     0, false, rl_vf_embed},
    {"vf_rmsnorm", {64, 1, 1}, 6,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_F, RL_VF_F}, RL_REF_BLOCK * 4,
     true, rl_vf_rmsnorm},
    {"vf_matmul", {64, 1, 1}, 5,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U}, RL_REF_BLOCK * 4, true,
     rl_vf_matmul},
    {"vf_rope", {64, 1, 1}, 6,
     {RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U, RL_VF_U, RL_VF_U}, 0, false,
     rl_vf_rope},
    {"vf_kv_append", {64, 1, 1}, 8,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U, RL_VF_U, RL_VF_U, RL_VF_U},
     RL_REF_BLOCK * 4, true, rl_vf_kv_append},
    {"vf_attn_partial", {64, 1, 1}, 12,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U, RL_VF_U, RL_VF_U,
      RL_VF_U, RL_VF_U, RL_VF_U, RL_VF_F},
     RL_REF_BLOCK * 8, true, rl_vf_attn_partial},
    {"vf_attn_merge", {64, 1, 1}, 5,
     {RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U, RL_VF_U}, 0, false,
     rl_vf_attn_merge},
    {"vf_add", {64, 1, 1}, 3, {RL_VF_P, RL_VF_P, RL_VF_U}, 0, false,
     rl_vf_add},
    {"vf_recur", {64, 1, 1}, 8,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U},
     0, false, rl_vf_recur},
    {"vf_silu_mul", {64, 1, 1}, 3, {RL_VF_P, RL_VF_P, RL_VF_U}, 0, false,
     rl_vf_silu_mul},
    {"vf_argmax", {64, 1, 1}, 3, {RL_VF_P, RL_VF_P, RL_VF_U}, RL_REF_BLOCK * 8,
     true, rl_vf_argmax},
    {"vf_accept", {64, 1, 1}, 9,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U, RL_VF_U, RL_VF_U,
      RL_VF_U},
     0, false, rl_vf_accept},
    {"vf_kv_save", {64, 1, 1}, 7,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U, RL_VF_U}, 0, false,
     rl_vf_kv_save},
    {"vf_kv_restore", {64, 1, 1}, 8,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U, RL_VF_U},
     0, false, rl_vf_kv_restore},
    {"vf_recur_restore", {64, 1, 1}, 5,
     {RL_VF_P, RL_VF_P, RL_VF_P, RL_VF_U, RL_VF_U}, 0, false,
     rl_vf_recur_restore},
};

const uint32_t rl_ref_verify_kernel_count =
    sizeof(rl_ref_verify_kernels) / sizeof(rl_ref_verify_kernels[0]);
