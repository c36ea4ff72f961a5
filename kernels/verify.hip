// kernels/verify.hip — the kernels of the "verify" workload: the verify step
// of speculative decoding, B draft tokens checked in one forward pass of a
// tiny transformer (kernels/workloads/verify.c records the launches).
//
// Rows. Row r < B is the draft token at position pos + r. Every row-wise
// kernel takes the row from work-group id y, so no kernel divides.
//
// Per layer: RMSNorm per row, the fused QKV matmul, RoPE per row at pos + r,
// the append of the B K/V rows into the int8 cache (quantised per row with
// one f32 scale), causal FA2-style split-KV attention (vf_attn_partial over
// (chunk, head, row) with an online softmax over 64-position tiles, then
// vf_attn_merge per (head, row)), the output matmul, a residual add, the
// gated linear recurrence (vf_recur), RMSNorm, the gate/up matmul,
// SiLU(gate) x up, the down matmul and a residual add. Around the layers:
// the backup of the B K/V rows' previous bytes (vf_kv_save), the embedding,
// the final RMSNorm, the LM head, argmax per row, the acceptance kernel
// (vf_accept: tau, heads, next drafts), the snapshot of the forward rows
// (vf_kv_save again) and the rollback (vf_kv_restore, vf_recur_restore).
//
// Launch contract: 64x1x1 work-groups; grids are whole work-groups. The
// arithmetic rules are those of decode.hip: contraction off, fused
// multiply-add only where __builtin_fmaf is written, fixed reduction orders
// (a lane's strided sum ascending, then the LDS tree 32, 16, ..., 1),
// transcendentals as the hardware instructions (v_exp_f32, v_rsq_f32,
// v_rcp_f32, modelled by kernels/ref/ref_math.h), rounding to an integer by
// v_rndne_f32 (__builtin_rintf), no float division, maxima written as
// compare-and-select. kernels/ref/verify_ref.c reproduces each kernel bit for
// bit.

#pragma clang fp contract(off)

#define RL_VF_BLOCK 64u
#define RL_VF_LOG2E 1.44269504088896340736f

#define RL_VF_KERNEL                                   \
  extern "C" __attribute__((global)) __attribute__(( \
      amdgpu_flat_work_group_size(RL_VF_BLOCK, RL_VF_BLOCK)))
#define RL_VF_DEVICE static __attribute__((device)) inline \
  __attribute__((always_inline))

RL_VF_DEVICE unsigned rl_vf_lane(void) {
  return __builtin_amdgcn_workitem_id_x();
}

// x index of the work-item in a grid of 64-wide blocks.
RL_VF_DEVICE unsigned rl_vf_global_x(void) {
  return __builtin_amdgcn_workgroup_id_x() * RL_VF_BLOCK + rl_vf_lane();
}

RL_VF_DEVICE void rl_vf_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// lds[0] = the fixed-tree sum of the 64 slots.
RL_VF_DEVICE void rl_vf_tree_sum(float* lds, unsigned lane) {
  rl_vf_barrier();
  for (unsigned stride = RL_VF_BLOCK / 2; stride > 0; stride /= 2) {
    if (lane < stride) lds[lane] = lds[lane] + lds[lane + stride];
    rl_vf_barrier();
  }
}

// lds[0] = the fixed-tree maximum (v > m ? v : m) of the 64 slots.
RL_VF_DEVICE void rl_vf_tree_max(float* lds, unsigned lane) {
  rl_vf_barrier();
  for (unsigned stride = RL_VF_BLOCK / 2; stride > 0; stride /= 2) {
    if (lane < stride) {
      float o = lds[lane + stride];
      float m = lds[lane];
      lds[lane] = o > m ? o : m;
    }
    rl_vf_barrier();
  }
}

// Row r = group y: out[r * n + i] = table[t * n + i], t = min(tokens[r],
// vocab - 1).
RL_VF_KERNEL void vf_embed(const float* __restrict__ table,
                           const unsigned* __restrict__ tokens,
                           float* __restrict__ out, unsigned n,
                           unsigned vocab) {
  unsigned i = rl_vf_global_x();
  unsigned r = __builtin_amdgcn_workgroup_id_y();
  if (i >= n) return;
  unsigned t = tokens[r];
  t = t < vocab ? t : vocab - 1;
  out[r * n + i] = table[t * n + i];
}

// Row r = group x: out[r n + i] = (x[r n + i] * rsq(sum x^2 * inv_n + eps))
// * w[i].
RL_VF_KERNEL void vf_rmsnorm(const float* __restrict__ x,
                             const float* __restrict__ w,
                             float* __restrict__ out, unsigned n, float inv_n,
                             float eps) {
  __attribute__((shared)) static float rl_vf_lds[RL_VF_BLOCK];
  unsigned lane = rl_vf_lane();
  unsigned base = __builtin_amdgcn_workgroup_id_x() * n;
  float sum = 0.0f;
  for (unsigned i = lane; i < n; i += RL_VF_BLOCK) {
    sum = __builtin_fmaf(x[base + i], x[base + i], sum);
  }
  rl_vf_lds[lane] = sum;
  rl_vf_tree_sum(rl_vf_lds, lane);
  float r = __builtin_amdgcn_rsqf(rl_vf_lds[0] * inv_n + eps);
  for (unsigned i = lane; i < n; i += RL_VF_BLOCK) {
    out[base + i] = (x[base + i] * r) * w[i];
  }
}

// Y[b * rows + row] = sum_c W[row * cols + c] * X[b * cols + c] for row =
// group x, b = group y; rows = the grid's x extent in groups (passed).
RL_VF_KERNEL void vf_matmul(const float* __restrict__ W,
                            const float* __restrict__ X,
                            float* __restrict__ Y, unsigned rows,
                            unsigned cols) {
  __attribute__((shared)) static float rl_vf_lds[RL_VF_BLOCK];
  unsigned lane = rl_vf_lane();
  unsigned row = __builtin_amdgcn_workgroup_id_x();
  unsigned b = __builtin_amdgcn_workgroup_id_y();
  float sum = 0.0f;
  for (unsigned c = lane; c < cols; c += RL_VF_BLOCK) {
    sum = __builtin_fmaf(W[row * cols + c], X[b * cols + c], sum);
  }
  rl_vf_lds[lane] = sum;
  rl_vf_tree_sum(rl_vf_lds, lane);
  if (lane == 0) Y[b * rows + row] = rl_vf_lds[0];
}

// Row r = group y rotates the pairs p < pairs of qkv row r (q then k, the
// first 2 x pairs floats of a row of |stride|) at position pos + r:
// table[((pos + r) * half + p % half) * 2] = cos, + 1 = sin. half is a
// power of two (p & (half - 1)).
RL_VF_KERNEL void vf_rope(float* __restrict__ qkv,
                          const float* __restrict__ table, unsigned pos,
                          unsigned half, unsigned pairs, unsigned stride) {
  unsigned p = rl_vf_global_x();
  unsigned r = __builtin_amdgcn_workgroup_id_y();
  if (p >= pairs) return;
  unsigned angle = ((pos + r) * half + (p & (half - 1))) * 2;
  float c = table[angle];
  float s = table[angle + 1];
  float* row = qkv + r * stride;
  float x0 = row[2 * p];
  float x1 = row[2 * p + 1];
  row[2 * p] = __builtin_fmaf(x0, c, -(x1 * s));
  row[2 * p + 1] = __builtin_fmaf(x0, s, x1 * c);
}

// Appends row r = group y, kind k = group x (0: K, 1: V) of this layer:
// src = qkv[r * src_stride + (1 + k) * n ...] (n <= 64, one lane per value).
// amax = tree max of |v|; scale = amax * (1/127); q = rint(v * rcp(scale))
// clamped to [-127, 127] (0 when amax is 0). The bytes go to cache[(pos + r)
// * row_bytes + k * n + i] and the scale to scales[(pos + r) * row_scales +
// k]; |cache| and |scales| point at this layer's K row and scale.
RL_VF_KERNEL void vf_kv_append(const float* __restrict__ qkv,
                               signed char* __restrict__ cache,
                               float* __restrict__ scales, unsigned src_stride,
                               unsigned row_bytes, unsigned row_scales,
                               unsigned pos, unsigned n) {
  __attribute__((shared)) static float rl_vf_lds[RL_VF_BLOCK];
  unsigned lane = rl_vf_lane();
  unsigned k = __builtin_amdgcn_workgroup_id_x();
  unsigned r = __builtin_amdgcn_workgroup_id_y();
  float v = lane < n ? qkv[r * src_stride + (1 + k) * n + lane] : 0.0f;
  rl_vf_lds[lane] = __builtin_fabsf(v);
  rl_vf_tree_max(rl_vf_lds, lane);
  float amax = rl_vf_lds[0];
  float scale = amax * (1.0f / 127.0f);
  float q = __builtin_rintf(v * __builtin_amdgcn_rcpf(scale));
  q = q > 127.0f ? 127.0f : q;
  q = q < -127.0f ? -127.0f : q;
  q = amax > 0.0f ? q : 0.0f;
  unsigned t = pos + r;
  if (lane < n) cache[t * row_bytes + k * n + lane] = (signed char)(int)q;
  if (lane == 0) scales[t * row_scales + k] = scale;
}

// Split-KV causal attention, first pass. Group (c, h, r): chunk c of the
// context [0, pos + B) for head h of row r; the chunk is positions [c *
// chunk, c * chunk + chunk) cut to the row's causal end pos + r + 1. For
// position t the K bytes of head h are at kv[t * row_bytes + h * head_dim]
// with scale ks[t * row_scales], V bytes n = heads * head_dim later with
// scale ks[t * row_scales + 1]. q is qkv row r (stride 3n), head h.
// Online softmax over 64-position tiles (log2 domain, s_t = (q . k8_t) *
// kscale_t * score_scale): per tile the tree maximum M_tile, m' = max(m,
// M_tile), alpha = 2^(m - m'), p_t = 2^(s_t - m'), then l = l * alpha +
// sum p_t and acc[d] = acc[d] * alpha + sum (p_t * vscale_t) * v8_t[d]
// (ascending t). The group writes m, l and acc at partials[((r * heads + h)
// * chunks + c) * (head_dim + 2)]; an empty chunk writes -inf, 0, 0.
RL_VF_KERNEL void vf_attn_partial(const float* __restrict__ qkv,
                                  const signed char* __restrict__ kv,
                                  const float* __restrict__ ks,
                                  float* __restrict__ partials,
                                  unsigned row_bytes, unsigned row_scales,
                                  unsigned head_dim, unsigned heads,
                                  unsigned chunk, unsigned chunks,
                                  unsigned pos, float score_scale) {
  __attribute__((shared)) static float rl_vf_scores[RL_VF_BLOCK];
  __attribute__((shared)) static float rl_vf_probs[RL_VF_BLOCK];
  unsigned lane = rl_vf_lane();
  unsigned c = __builtin_amdgcn_workgroup_id_x();
  unsigned h = __builtin_amdgcn_workgroup_id_y();
  unsigned r = __builtin_amdgcn_workgroup_id_z();
  unsigned n = heads * head_dim;
  unsigned end = pos + r + 1;
  unsigned first = c * chunk;
  unsigned last = first + chunk < end ? first + chunk : end;
  const float* q = qkv + r * 3 * n + h * head_dim;
  float m = -__builtin_inff();
  float l = 0.0f;
  float acc = 0.0f;
  for (unsigned base = first; base < last; base += RL_VF_BLOCK) {
    unsigned t = base + lane;
    bool valid = t < last;
    float s = -__builtin_inff();
    if (valid) {
      const signed char* k = kv + t * row_bytes + h * head_dim;
      float dot = 0.0f;
      for (unsigned d = 0; d < head_dim; ++d) {
        dot = __builtin_fmaf(q[d], (float)k[d], dot);
      }
      s = (dot * ks[t * row_scales]) * score_scale;
    }
    rl_vf_scores[lane] = s;
    rl_vf_probs[lane] = s;
    rl_vf_tree_max(rl_vf_probs, lane);
    float tile_max = rl_vf_probs[0];
    float m_new = tile_max > m ? tile_max : m;
    float alpha = __builtin_amdgcn_exp2f(m - m_new);
    rl_vf_barrier();
    rl_vf_probs[lane] =
        valid ? __builtin_amdgcn_exp2f(rl_vf_scores[lane] - m_new) : 0.0f;
    rl_vf_barrier();
    unsigned count = last - base < RL_VF_BLOCK ? last - base : RL_VF_BLOCK;
    l = l * alpha;
    acc = acc * alpha;
    if (lane < head_dim) {
      for (unsigned j = 0; j < count; ++j) {
        unsigned tj = base + j;
        float p = rl_vf_probs[j];
        float pv = p * ks[tj * row_scales + 1];
        l = l + p;
        acc = __builtin_fmaf(pv, (float)kv[tj * row_bytes + n + h * head_dim +
                                           lane], acc);
      }
    }
    m = m_new;
    rl_vf_barrier();
  }
  unsigned out = ((r * heads + h) * chunks + c) * (head_dim + 2);
  if (lane < head_dim) partials[out + 2 + lane] = acc;
  if (lane == 0) {
    partials[out] = m;
    partials[out + 1] = l;
  }
}

// Split-KV attention, second pass: group (h, r), lane d < head_dim. M = max
// m_c; f_c = 2^(m_c - M); L = sum l_c f_c, A = sum acc_c[d] f_c (ascending
// c, fused); attn[r * heads * head_dim + h * head_dim + d] = A * rcp(L).
RL_VF_KERNEL void vf_attn_merge(const float* __restrict__ partials,
                                float* __restrict__ attn, unsigned head_dim,
                                unsigned heads, unsigned chunks) {
  unsigned lane = rl_vf_lane();
  unsigned h = __builtin_amdgcn_workgroup_id_x();
  unsigned r = __builtin_amdgcn_workgroup_id_y();
  if (lane >= head_dim) return;
  unsigned width = head_dim + 2;
  unsigned first = (r * heads + h) * chunks;
  float M = -__builtin_inff();
  for (unsigned c = 0; c < chunks; ++c) {
    float v = partials[(first + c) * width];
    M = v > M ? v : M;
  }
  float L = 0.0f;
  float A = 0.0f;
  for (unsigned c = 0; c < chunks; ++c) {
    unsigned base = (first + c) * width;
    float f = __builtin_amdgcn_exp2f(partials[base] - M);
    L = __builtin_fmaf(partials[base + 1], f, L);
    A = __builtin_fmaf(partials[base + 2 + lane], f, A);
  }
  attn[(r * heads + h) * head_dim + lane] = A * __builtin_amdgcn_rcpf(L);
}

// x[i] = x[i] + delta[i] for i < n (all rows, flattened).
RL_VF_KERNEL void vf_add(float* __restrict__ x,
                         const float* __restrict__ delta, unsigned n) {
  unsigned i = rl_vf_global_x();
  if (i < n) x[i] = x[i] + delta[i];
}

// The gated linear recurrence of one layer, one group, lane i < n (n <= 64):
// s = state[i]; history[i] = s (the state before the step); for rows t
// ascending: s = fma(decay[i], s, gain[i] * xn[t n + i]); history[(t + 1) n +
// i] = s; x[t n + i] = x[t n + i] + s. Then state[i] = s. history has rows +
// 1 entries per layer.
RL_VF_KERNEL void vf_recur(float* __restrict__ x,
                           const float* __restrict__ xn,
                           const float* __restrict__ decay,
                           const float* __restrict__ gain,
                           float* __restrict__ state,
                           float* __restrict__ history, unsigned n,
                           unsigned rows) {
  unsigned i = rl_vf_lane();
  if (i >= n) return;
  float s = state[i];
  float a = decay[i];
  float g = gain[i];
  history[i] = s;
  for (unsigned t = 0; t < rows; ++t) {
    s = __builtin_fmaf(a, s, g * xn[t * n + i]);
    history[(t + 1) * n + i] = s;
    x[t * n + i] = x[t * n + i] + s;
  }
  state[i] = s;
}

// out[r n + i] = (g * rcp(1 + 2^(g * -log2 e))) * u, g = gu[r 2n + i],
// u = gu[r 2n + n + i]; row r = group y.
RL_VF_KERNEL void vf_silu_mul(const float* __restrict__ gu,
                              float* __restrict__ out, unsigned n) {
  unsigned i = rl_vf_global_x();
  unsigned r = __builtin_amdgcn_workgroup_id_y();
  if (i >= n) return;
  float g = gu[r * 2 * n + i];
  float u = gu[r * 2 * n + n + i];
  float e = __builtin_amdgcn_exp2f(g * -RL_VF_LOG2E);
  float silu = g * __builtin_amdgcn_rcpf(1.0f + e);
  out[r * n + i] = silu * u;
}

// Row r = group x: argmax[r] = the smallest index of the largest
// logits[r * n + i] (decode.hip's dc_argmax per row).
RL_VF_KERNEL void vf_argmax(const float* __restrict__ logits,
                            unsigned* __restrict__ argmax, unsigned n) {
  __attribute__((shared)) static float rl_vf_values[RL_VF_BLOCK];
  __attribute__((shared)) static unsigned rl_vf_indices[RL_VF_BLOCK];
  unsigned lane = rl_vf_lane();
  unsigned r = __builtin_amdgcn_workgroup_id_x();
  float best = -__builtin_inff();
  unsigned index = 0xffffffffu;
  for (unsigned i = lane; i < n; i += RL_VF_BLOCK) {
    float v = logits[r * n + i];
    if (v > best) {
      best = v;
      index = i;
    }
  }
  rl_vf_values[lane] = best;
  rl_vf_indices[lane] = index;
  rl_vf_barrier();
  for (unsigned stride = RL_VF_BLOCK / 2; stride > 0; stride /= 2) {
    if (lane < stride) {
      float ov = rl_vf_values[lane + stride];
      unsigned oi = rl_vf_indices[lane + stride];
      float v = rl_vf_values[lane];
      if (ov > v || (ov == v && oi < rl_vf_indices[lane])) {
        rl_vf_values[lane] = ov;
        rl_vf_indices[lane] = oi;
      }
    }
    rl_vf_barrier();
  }
  if (lane == 0) {
    unsigned winner = rl_vf_indices[0];
    argmax[r] = winner == 0xffffffffu ? 0u : winner;
  }
}

// One group, lane 0. Exact acceptance: draft r (tokens[r], the token at pos
// + r) is accepted when it equals the target's prediction for its position,
// the argmax of the previous row: state[3] (the last row of the previous
// step) for r = 0, argmax[r - 1] after. tau = the length of the accepted
// prefix (0..rows). state[0] = tau, state[1] = pos + rows (the head after
// the forward pass), state[2] = pos + tau (the head after rollback),
// state[3] = argmax[rows - 1]. The next drafts: tokens[i] = drafts[next *
// rows + i], next = slot - first_slot + 1 clamped to windows - 1 (slot =
// pos / rows, bound by the replay; drafts is the drafter's table, one row
// per window).
RL_VF_KERNEL void vf_accept(unsigned* __restrict__ tokens,
                            const unsigned* __restrict__ argmax,
                            unsigned* __restrict__ state,
                            const unsigned* __restrict__ drafts,
                            unsigned rows, unsigned pos, unsigned slot,
                            unsigned first_slot, unsigned windows) {
  if (rl_vf_lane() != 0) return;
  unsigned tau = 0;
  unsigned expected = state[3];
  while (tau < rows && tokens[tau] == expected) {
    expected = argmax[tau];
    ++tau;
  }
  state[0] = tau;
  state[1] = pos + rows;
  state[2] = pos + tau;
  state[3] = argmax[rows - 1];
  unsigned next = slot - first_slot + 1;
  next = next < windows ? next : windows - 1;
  for (unsigned i = 0; i < rows; ++i) tokens[i] = drafts[next * rows + i];
}

// Row r = group y: copies the 4-byte words of cache row pos + r (words per
// row) and its scale_count scales into dst row r and dst_scales row r.
// Element e = global x: e < words is a cache word, words <= e < words +
// scale_count a scale.
RL_VF_KERNEL void vf_kv_save(const unsigned* __restrict__ cache,
                             const float* __restrict__ scales,
                             unsigned* __restrict__ dst,
                             float* __restrict__ dst_scales, unsigned pos,
                             unsigned words, unsigned scale_count) {
  unsigned e = rl_vf_global_x();
  unsigned r = __builtin_amdgcn_workgroup_id_y();
  unsigned t = pos + r;
  if (e < words) {
    dst[r * words + e] = cache[t * words + e];
  } else if (e - words < scale_count) {
    unsigned s = e - words;
    dst_scales[r * scale_count + s] = scales[t * scale_count + s];
  }
}

// The rollback of the rejected rows: row r = group y with r >= tau =
// state[0] gets back the words and scales vf_kv_save put in src row r.
RL_VF_KERNEL void vf_kv_restore(unsigned* __restrict__ cache,
                                float* __restrict__ scales,
                                const unsigned* __restrict__ src,
                                const float* __restrict__ src_scales,
                                const unsigned* __restrict__ state,
                                unsigned pos, unsigned words,
                                unsigned scale_count) {
  unsigned e = rl_vf_global_x();
  unsigned r = __builtin_amdgcn_workgroup_id_y();
  if (r < state[0]) return;
  unsigned t = pos + r;
  if (e < words) {
    cache[t * words + e] = src[r * words + e];
  } else if (e - words < scale_count) {
    unsigned s = e - words;
    scales[t * scale_count + s] = src_scales[r * scale_count + s];
  }
}

// Layer l = group x: state[l n + i] = history[(l (rows + 1) + tau) n + i],
// tau = accept[0], i < n (n <= 64): the recurrence after the last accepted
// row (entry 0: before the step, when nothing is accepted).
RL_VF_KERNEL void vf_recur_restore(float* __restrict__ state,
                                   const float* __restrict__ history,
                                   const unsigned* __restrict__ accept,
                                   unsigned n, unsigned rows) {
  unsigned i = rl_vf_lane();
  unsigned l = __builtin_amdgcn_workgroup_id_x();
  if (i >= n) return;
  unsigned tau = accept[0];
  state[l * n + i] = history[(l * (rows + 1) + tau) * n + i];
}
