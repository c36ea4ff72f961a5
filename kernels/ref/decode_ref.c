// Reference implementations of the kernels of kernels/decode.hip.
//
// Each function computes one work-group of 64 lanes, doing what each lane
// would do with the same 32-bit index arithmetic (element i of a buffer is
// at base + ((u64)i << 2); u32 products and sums wrap as on the GPU, which
// is also why their association does not matter). Loads and stores go
// through rl_sim_wg_load/store one element at a time; an index that leaves
// the buffer is a VM fault long before a 32-bit strided loop could wrap.
//
// Float semantics were read from the disassembly (`llvm-objdump-19 -d
// --mcpu=gfx1100 decode-gfx1100.co`; gfx1151 and gfx1201 emit the same
// operations, gfx1201 doing some uniform ones on the SALU: s_fmac_f32,
// s_sub_f32, v_s_exp_f32, v_s_rcp_f32, same IEEE/model results). decode.hip
// turns contraction off, so every fused multiply-add is a __builtin_fmaf in
// the source (v_fmac_f32 / v_dual_fmac_f32) and fmaf() here; this file is
// compiled with -ffp-contract=off (ref.cmake) so nothing else fuses. The
// transcendentals v_exp_f32, v_rsq_f32 and v_rcp_f32 are the shared model
// of sim/sim_math.h. Operand order of one add or multiply does not
// matter (commutative for non-NaN inputs).
#include <math.h>
#include <stdint.h>

#include "kernels/ref/ref_kernel.h"
#include "kernels/ref/ref_lane.h"
#include "sim/sim_math.h"

// dc_embed(table, token, out, n, vocab): out[i] = table[t * n + i] with
// t = min(token[0], vocab - 1) (`s_cmp_lt_u32` / `s_cselect_b32`, vocab - 1
// wrapping when vocab is 0, as `s_add_i32 s7, s3, -1` does).
static rl_status_t rl_dc_embed(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t table = args[0].pointer, token = args[1].pointer,
                 out = args[2].pointer;
  const uint32_t n = args[3].u32, vocab = args[4].u32;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    uint32_t i = rl_ref_global_id(wg, lane);
    if (i >= n) continue;
    uint32_t t = 0;
    float value = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, token, 0, &t));
    t = t < vocab ? t : vocab - 1;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, table, t * n + i, &value));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, out, i, &value));
  }
  return RL_OK;
}

// dc_rmsnorm(x, w, out, n, inv_n, eps), one work-group. Lane l sums
// fmaf(x[i], x[i], sum) over i = l, l + 64, ... (`v_fmac_f32 v3, v4, v4`),
// the tree adds the lanes, then mean = total * inv_n (`v_mul_f32`),
// r = rsq(mean + eps) (`v_add_f32`, `v_rsq_f32`) and out[i] = (x[i] * r) *
// w[i] (two `v_mul_f32`, in that order).
static rl_status_t rl_dc_rmsnorm(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t x = args[0].pointer, w = args[1].pointer,
                 out = args[2].pointer;
  const uint32_t n = args[3].u32;
  const float inv_n = args[4].f32, eps = args[5].f32;
  float* lds = (float*)rl_sim_wg_lds(wg);  // begin() checked 256 bytes
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    float sum = 0.0f;
    for (uint32_t i = lane; i < n; i += RL_REF_BLOCK) {
      float v = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, x, i, &v));
      sum = fmaf(v, v, sum);
    }
    lds[lane] = sum;
  }
  const float mean = rl_ref_tree_sum(lds) * inv_n;
  const float r = rl_sim_math_rsqf(mean + eps);
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    for (uint32_t i = lane; i < n; i += RL_REF_BLOCK) {
      float v = 0, weight = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, x, i, &v));
      RL_RETURN_IF_ERROR(rl_ref_load(wg, w, i, &weight));
      const float result = (v * r) * weight;
      RL_RETURN_IF_ERROR(rl_ref_store(wg, out, i, &result));
    }
  }
  return RL_OK;
}

// dc_matvec(W, x, y, cols): row = group id; lane l sums fmaf(W[row * cols +
// c], x[c], sum) over c = l, l + 64, ... (`v_fmac_f32 v5, v1, v4`), the tree
// adds the lanes, lane 0 stores y[row].
static rl_status_t rl_dc_matvec(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t W = args[0].pointer, x = args[1].pointer, y = args[2].pointer;
  const uint32_t cols = args[3].u32;
  float* lds = (float*)rl_sim_wg_lds(wg);  // begin() checked 256 bytes
  const uint32_t row = wg->group_id[0];
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    float sum = 0.0f;
    for (uint32_t c = lane; c < cols; c += RL_REF_BLOCK) {
      float weight = 0, v = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, W, row * cols + c, &weight));
      RL_RETURN_IF_ERROR(rl_ref_load(wg, x, c, &v));
      sum = fmaf(weight, v, sum);
    }
    lds[lane] = sum;
  }
  const float result = rl_ref_tree_sum(lds);
  return rl_ref_store(wg, y, row, &result);
}

// dc_rope(qk, table, pos, half, pairs): pair p < pairs rotates (qk[2p],
// qk[2p + 1]) by table[a], table[a + 1] (cos, sin) with a = (pos * half +
// p % half) * 2 (`v_add_lshl_u32`). The compiled code: v6 = x1 * -s
// (`v_mul_f32_e64 v6, v3, -v5`, exactly -(x1 * s)), v7 = c * x1, then
// x0' = fma(x0, c, v6) and x1' = fma(x0, s, v7). The GPU's u32 remainder by
// zero gives an unspecified value (a v_rcp_iflag_f32 sequence), so half = 0
// is refused.
static rl_status_t rl_dc_rope(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t qk = args[0].pointer, table = args[1].pointer;
  const uint32_t pos = args[2].u32, half = args[3].u32, pairs = args[4].u32;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    const uint32_t p = rl_ref_global_id(wg, lane);
    if (p >= pairs) continue;
    if (half == 0) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "dc_rope: half 0, the GPU's remainder by zero is not "
                       "specified");
    }
    const uint32_t angle = (pos * half + p % half) * 2;
    float c = 0, s = 0, x0 = 0, x1 = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, table, angle, &c));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, table, angle + 1, &s));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, qk, 2 * p, &x0));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, qk, 2 * p + 1, &x1));
    const float r0 = fmaf(x0, c, -(x1 * s));
    const float r1 = fmaf(x0, s, x1 * c);
    RL_RETURN_IF_ERROR(rl_ref_store(wg, qk, 2 * p, &r0));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, qk, 2 * p + 1, &r1));
  }
  return RL_OK;
}

// dc_kv_append(src, cache, stride, pos, n): raw 32-bit copies
// cache[pos * stride + i] = src[i] and cache[pos * stride + n + i] =
// src[n + i] for i < n.
static rl_status_t rl_dc_kv_append(rl_sim_wg_t* wg,
                                   const rl_ref_arg_t* args) {
  const uint64_t src = args[0].pointer, cache = args[1].pointer;
  const uint32_t stride = args[2].u32, pos = args[3].u32, n = args[4].u32;
  const uint32_t row = pos * stride;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    const uint32_t i = rl_ref_global_id(wg, lane);
    if (i >= n) continue;
    uint32_t k = 0, v = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, src, i, &k));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, src, n + i, &v));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, cache, row + i, &k));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, cache, row + n + i, &v));
  }
  return RL_OK;
}

// The arguments of dc_attn_partial.
typedef struct rl_dc_attn_s {
  uint64_t q, kv, partials;
  uint32_t stride, head_dim, heads, chunk, context;
  float score_scale;
} rl_dc_attn_t;

// The arguments of dc_attn_partial, in argument order.
static rl_dc_attn_t rl_dc_attn_args(const rl_ref_arg_t* args) {
  const rl_dc_attn_t a = {
      args[0].pointer, args[1].pointer, args[2].pointer, args[3].u32,
      args[4].u32,     args[5].u32,     args[6].u32,     args[7].u32,
      args[8].f32};
  return a;
}

// Phase 1 of dc_attn_partial for one lane: the score of position |t| of
// head |h|, dot = fmaf(q[h * hd + d], k[d], dot) for d ascending (`v_fmac_f32
// v3, s0, v1`, q through scalar loads), then dot * score_scale.
static rl_status_t rl_dc_attn_score(rl_sim_wg_t* wg, const rl_dc_attn_t* a,
                                    uint32_t h, uint32_t t, float* out_score) {
  float dot = 0.0f;
  for (uint32_t d = 0; d < a->head_dim; ++d) {
    float q = 0, k = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, a->q, h * a->head_dim + d, &q));
    RL_RETURN_IF_ERROR(rl_ref_load(
        wg, a->kv, t * a->stride + h * a->head_dim + d, &k));
    dot = fmaf(q, k, dot);
  }
  *out_score = dot * a->score_scale;
  return RL_OK;
}

// Phase 3 for lane |d| < head_dim: l = l + p_j and acc = fmaf(p_j, v_j[d],
// acc) for j < count, then the stores of acc (and of m, l by lane 0).
static rl_status_t rl_dc_attn_accumulate(rl_sim_wg_t* wg,
                                         const rl_dc_attn_t* a,
                                         const float* probs, uint32_t c,
                                         uint32_t h, uint32_t d, float m) {
  const uint32_t first = c * a->chunk;
  const uint32_t kv_dim = a->heads * a->head_dim;
  const uint32_t left = a->context - first;
  const uint32_t count = left < a->chunk ? left : a->chunk;
  float l = 0.0f, acc = 0.0f;
  for (uint32_t j = 0; j < count; ++j) {
    float v = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(
        wg, a->kv, (first + j) * a->stride + kv_dim + h * a->head_dim + d,
        &v));
    l = l + probs[j];
    acc = fmaf(probs[j], v, acc);
  }
  const uint32_t base = (c * a->heads + h) * (a->head_dim + 2);
  RL_RETURN_IF_ERROR(rl_ref_store(wg, a->partials, base + 2 + d, &acc));
  if (d != 0) return RL_OK;
  RL_RETURN_IF_ERROR(rl_ref_store(wg, a->partials, base, &m));
  return rl_ref_store(wg, a->partials, base + 1, &l);
}

// dc_attn_partial(q, kv, partials, stride, head_dim, heads, chunk, context,
// score_scale): group (c, h). Lane j scores position t = c * chunk + j when
// j < chunk and t < context (else -inf) into LDS; after the barrier every
// lane scans the 64 scores, m = v > m ? v : m (`v_cmp_gt_f32` then
// `v_cndmask_b32`, unrolled), and writes p_j = valid ? exp2(s_j - m) : 0
// (`v_sub_f32`, `v_exp_f32`, `v_cndmask_b32 v1, 0, v1`); after the second
// barrier lanes d < head_dim accumulate. chunk > 64 would index past the
// 64-float LDS array, so it is refused.
static rl_status_t rl_dc_attn_partial(rl_sim_wg_t* wg,
                                      const rl_ref_arg_t* args) {
  const rl_dc_attn_t a = rl_dc_attn_args(args);
  if (a.chunk > RL_REF_BLOCK) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "dc_attn_partial: chunk %u, the kernel's LDS holds %u "
                     "positions", a.chunk, RL_REF_BLOCK);
  }
  float* scores = (float*)rl_sim_wg_lds(wg);  // begin() checked 512 bytes
  float* probs = scores + RL_REF_BLOCK;
  const uint32_t c = wg->group_id[0], h = wg->group_id[1];
  bool valid[RL_REF_BLOCK];
  for (uint32_t j = 0; j < RL_REF_BLOCK; ++j) {
    const uint32_t t = c * a.chunk + j;
    valid[j] = j < a.chunk && t < a.context;
    scores[j] = -INFINITY;
    if (!valid[j]) continue;
    RL_RETURN_IF_ERROR(rl_dc_attn_score(wg, &a, h, t, &scores[j]));
  }
  float m = scores[0];
  for (uint32_t j = 1; j < RL_REF_BLOCK; ++j) m = scores[j] > m ? scores[j] : m;
  for (uint32_t j = 0; j < RL_REF_BLOCK; ++j) {
    probs[j] = valid[j] ? rl_sim_math_exp2f(scores[j] - m) : 0.0f;
  }
  for (uint32_t d = 0; d < a.head_dim && d < RL_REF_BLOCK; ++d) {
    RL_RETURN_IF_ERROR(rl_dc_attn_accumulate(wg, &a, probs, c, h, d, m));
  }
  return RL_OK;
}

// dc_attn_merge(partials, out, head_dim, heads, chunks): group h, lane d <
// head_dim merges the chunks' partials at ((c * heads + h) * (head_dim + 2))
// (rl_ref_merge_lane; gfx1201 does the uniform L on the SALU) into
// out[h * head_dim + d].
static rl_status_t rl_dc_attn_merge(rl_sim_wg_t* wg,
                                    const rl_ref_arg_t* args) {
  const uint64_t partials = args[0].pointer, out = args[1].pointer;
  const uint32_t head_dim = args[2].u32, heads = args[3].u32,
                 chunks = args[4].u32;
  const uint32_t h = wg->group_id[0];
  const uint32_t width = head_dim + 2;
  for (uint32_t d = 0; d < wg->size[0] && d < head_dim; ++d) {
    float result = 0;
    RL_RETURN_IF_ERROR(rl_ref_merge_lane(wg, partials, h * width,
                                         heads * width, chunks, d, &result));
    RL_RETURN_IF_ERROR(rl_ref_store(wg, out, h * head_dim + d, &result));
  }
  return RL_OK;
}

// dc_add(x, delta, n): x[i] = x[i] + delta[i] (`v_add_f32`).
static rl_status_t rl_dc_add(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t x = args[0].pointer, delta = args[1].pointer;
  const rl_ref_binary_t m = {.a = x, .b = delta, .out = x, .n = args[2].u32};
  return rl_ref_binary(wg, &m, rl_ref_op_add);
}

// dc_silu_mul(gu, out, n): g = gu[i], u = gu[n + i], out[i] =
// rl_ref_silu_mul(g, u).
static rl_status_t rl_dc_silu_mul(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t gu = args[0].pointer, out = args[1].pointer;
  const uint32_t n = args[2].u32;
  const rl_ref_binary_t m = {.a = gu, .b = gu, .out = out, .b_first = n,
                             .n = n};
  return rl_ref_binary(wg, &m, rl_ref_op_silu_mul);
}

// dc_argmax(logits, token, n), one work-group: rl_ref_argmax over
// logits[0, n); lane 0 stores the index.
static rl_status_t rl_dc_argmax(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t logits = args[0].pointer, token = args[1].pointer;
  const uint32_t n = args[2].u32;
  uint32_t winner = 0;
  RL_RETURN_IF_ERROR(rl_ref_argmax(wg, logits, 0, n, &winner));
  return rl_ref_store(wg, token, 0, &winner);
}

#define RL_DC_P RL_REF_ARG_POINTER
#define RL_DC_U RL_REF_ARG_U32
#define RL_DC_F RL_REF_ARG_F32

// Every kernel is written for 64x1x1 blocks. LDS (.group_segment_fixed_size
// of the compiled kernels): dc_rmsnorm and dc_matvec 64 floats, and their
// trees read every lane's slot, so they need whole work-groups;
// dc_attn_partial 2 x 64 floats (scores, probabilities); dc_argmax 64
// floats and 64 u32.
const rl_ref_kernel_t rl_ref_decode_kernels[] = {
    {"dc_embed", {64, 1, 1}, 5, {RL_DC_P, RL_DC_P, RL_DC_P, RL_DC_U, RL_DC_U},
     0, false, rl_dc_embed},
    {"dc_rmsnorm", {64, 1, 1}, 6,
     {RL_DC_P, RL_DC_P, RL_DC_P, RL_DC_U, RL_DC_F, RL_DC_F}, RL_REF_BLOCK * 4,
     true, rl_dc_rmsnorm},
    {"dc_matvec", {64, 1, 1}, 4, {RL_DC_P, RL_DC_P, RL_DC_P, RL_DC_U},
     RL_REF_BLOCK * 4, true, rl_dc_matvec},
    {"dc_rope", {64, 1, 1}, 5, {RL_DC_P, RL_DC_P, RL_DC_U, RL_DC_U, RL_DC_U},
     0, false, rl_dc_rope},
    {"dc_kv_append", {64, 1, 1}, 5,
     {RL_DC_P, RL_DC_P, RL_DC_U, RL_DC_U, RL_DC_U}, 0, false,
     rl_dc_kv_append},
    {"dc_attn_partial", {64, 1, 1}, 9,
     {RL_DC_P, RL_DC_P, RL_DC_P, RL_DC_U, RL_DC_U, RL_DC_U, RL_DC_U, RL_DC_U,
      RL_DC_F},
     RL_REF_BLOCK * 8, true, rl_dc_attn_partial},
    {"dc_attn_merge", {64, 1, 1}, 5,
     {RL_DC_P, RL_DC_P, RL_DC_U, RL_DC_U, RL_DC_U}, 0, false,
     rl_dc_attn_merge},
    {"dc_add", {64, 1, 1}, 3, {RL_DC_P, RL_DC_P, RL_DC_U}, 0, false,
     rl_dc_add},
    {"dc_silu_mul", {64, 1, 1}, 3, {RL_DC_P, RL_DC_P, RL_DC_U}, 0, false,
     rl_dc_silu_mul},
    {"dc_argmax", {64, 1, 1}, 3, {RL_DC_P, RL_DC_P, RL_DC_U}, RL_REF_BLOCK * 8,
     true, rl_dc_argmax},
};

const uint32_t rl_ref_decode_kernel_count =
    sizeof(rl_ref_decode_kernels) / sizeof(rl_ref_decode_kernels[0]);
