// kernels/decode.hip — the kernels of the "decode" workload: one decode step
// of a tiny transformer (kernels/workloads/decode.c records the launches).
//
// Per layer: RMSNorm, the fused QKV matvec, RoPE at pos, the KV-cache append
// at pos, split-KV attention (partials over chunks of the context, then a
// merge per head), the output matvec, a residual add, RMSNorm, the fused
// gate/up matvec, SiLU(gate) x up, the down matvec and a residual add. Around
// the layers: the token embedding, the final RMSNorm, the LM head (a matvec
// to vocab logits) and argmax writing the next token.
//
// Launch contract: every kernel runs 64x1x1 work-groups
// (RL_DC_BLOCK_SIZE); grids are whole work-groups. Element-wise kernels
// cover n work-items rounded up to a block, and work-items past n do
// nothing. dc_rmsnorm and dc_argmax run one work-group; dc_matvec one
// work-group per row; dc_attn_partial a chunks x heads grid; dc_attn_merge
// one work-group per head. head_dim and the attention chunk are at most 64.
//
// Determinism and the reference. kernels/ref/decode_ref.c reproduces every
// kernel bit for bit on the simulated GPU, so the arithmetic is spelled out:
//   - floating-point contraction is off for the whole file (the pragma
//     below); a fused multiply-add exists exactly where __builtin_fmaf is
//     written (v_fma_f32 / v_fmac_f32);
//   - every reduction has a fixed order: a lane's strided partial sum in
//     ascending index order, then a fixed LDS tree (strides 32, 16, ..., 1);
//   - transcendentals are the hardware instructions through amdgcn builtins
//     (no device libraries exist for these targets): v_exp_f32 (2^x),
//     v_rsq_f32 (1/sqrt x) and v_rcp_f32 (1/x). kernels/ref/ref_math.h models
//     each of them; no float division appears anywhere (it would expand to
//     v_div_scale/v_div_fmas/v_div_fixup);
//   - maxima are written as `v > m ? v : m` so the compiler emits a compare
//     and a select, whose result on signed zeros and NaN is the one written.
//
// The file is self-contained device code (no hip_runtime.h, no device
// libraries), compiled like vecchain.hip by kernels/kernels.cmake. Kernels
// are extern "C": symbols are the plain names (`dc_matvec`, `dc_matvec.kd`).

#pragma clang fp contract(off)

#define RL_DC_BLOCK_SIZE 64u
// log2(e), rounded to binary32 (0x3fb8aa3b). exp(x) = 2^(x * log2(e)).
#define RL_DC_LOG2E 1.44269504088896340736f

#define RL_DC_KERNEL                                   \
  extern "C" __attribute__((global)) __attribute__(( \
      amdgpu_flat_work_group_size(RL_DC_BLOCK_SIZE, RL_DC_BLOCK_SIZE)))
#define RL_DC_DEVICE static __attribute__((device)) inline \
  __attribute__((always_inline))

RL_DC_DEVICE unsigned rl_dc_lane(void) {
  return __builtin_amdgcn_workitem_id_x();
}

// The global index of the calling work-item in a 1-D launch of 64-wide blocks.
RL_DC_DEVICE unsigned rl_dc_global_id(void) {
  return __builtin_amdgcn_workgroup_id_x() * RL_DC_BLOCK_SIZE + rl_dc_lane();
}

// Orders the work-group's LDS accesses before and after the barrier.
RL_DC_DEVICE void rl_dc_barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// Sums the 64 slots of |lds| into lds[0] with the fixed tree: at stride s
// (32, 16, ..., 1) lane l < s sets lds[l] = lds[l] + lds[l + s]. Every lane
// may read lds[0] afterwards.
RL_DC_DEVICE void rl_dc_tree_sum(float* lds, unsigned lane) {
  rl_dc_barrier();
  for (unsigned stride = RL_DC_BLOCK_SIZE / 2; stride > 0; stride /= 2) {
    if (lane < stride) lds[lane] = lds[lane] + lds[lane + stride];
    rl_dc_barrier();
  }
}

// out[i] = table[t * n + i] for the token t = token[0], clamped to
// vocab - 1 so a corrupt token cannot read past the table.
RL_DC_KERNEL void dc_embed(const float* __restrict__ table,
                           const unsigned* __restrict__ token,
                           float* __restrict__ out, unsigned n,
                           unsigned vocab) {
  unsigned i = rl_dc_global_id();
  if (i >= n) return;
  unsigned t = token[0];
  t = t < vocab ? t : vocab - 1;
  out[i] = table[t * n + i];
}

// out[i] = (x[i] * r) * w[i] with r = rsq(sum(x^2) * inv_n + eps), one
// work-group. inv_n is 1/n from the host, so no division is needed.
RL_DC_KERNEL void dc_rmsnorm(const float* __restrict__ x,
                             const float* __restrict__ w,
                             float* __restrict__ out, unsigned n, float inv_n,
                             float eps) {
  __attribute__((shared)) static float rl_dc_lds[RL_DC_BLOCK_SIZE];
  unsigned lane = rl_dc_lane();
  float sum = 0.0f;
  for (unsigned i = lane; i < n; i += RL_DC_BLOCK_SIZE) {
    sum = __builtin_fmaf(x[i], x[i], sum);
  }
  rl_dc_lds[lane] = sum;
  rl_dc_tree_sum(rl_dc_lds, lane);
  float mean = rl_dc_lds[0] * inv_n;
  float r = __builtin_amdgcn_rsqf(mean + eps);
  for (unsigned i = lane; i < n; i += RL_DC_BLOCK_SIZE) {
    out[i] = (x[i] * r) * w[i];
  }
}

// y[row] = sum over c of W[row * cols + c] * x[c] for row = work-group id:
// each lane accumulates its strided columns with fused multiply-adds, then
// the LDS tree sums the 64 lanes.
RL_DC_KERNEL void dc_matvec(const float* __restrict__ W,
                            const float* __restrict__ x,
                            float* __restrict__ y, unsigned cols) {
  __attribute__((shared)) static float rl_dc_lds[RL_DC_BLOCK_SIZE];
  unsigned lane = rl_dc_lane();
  unsigned row = __builtin_amdgcn_workgroup_id_x();
  float sum = 0.0f;
  for (unsigned c = lane; c < cols; c += RL_DC_BLOCK_SIZE) {
    sum = __builtin_fmaf(W[row * cols + c], x[c], sum);
  }
  rl_dc_lds[lane] = sum;
  rl_dc_tree_sum(rl_dc_lds, lane);
  if (lane == 0) y[row] = rl_dc_lds[0];
}

// Rotates the interleaved pairs (qk[2p], qk[2p + 1]) for p < pairs by the
// angle of pair i = p % half at position pos, read from the host-computed
// table: table[(pos * half + i) * 2] = cos, [... + 1] = sin. q and k are
// contiguous, so one launch rotates both.
RL_DC_KERNEL void dc_rope(float* __restrict__ qk,
                          const float* __restrict__ table, unsigned pos,
                          unsigned half, unsigned pairs) {
  unsigned p = rl_dc_global_id();
  if (p >= pairs) return;
  unsigned angle = (pos * half + p % half) * 2;
  float c = table[angle];
  float s = table[angle + 1];
  float x0 = qk[2 * p];
  float x1 = qk[2 * p + 1];
  qk[2 * p] = __builtin_fmaf(x0, c, -(x1 * s));
  qk[2 * p + 1] = __builtin_fmaf(x0, s, x1 * c);
}

// Appends the k and v rows of this step at |pos|: cache[pos * stride + i] =
// src[i] (k) and cache[pos * stride + n + i] = src[n + i] (v), i < n.
RL_DC_KERNEL void dc_kv_append(const float* __restrict__ src,
                               float* __restrict__ cache, unsigned stride,
                               unsigned pos, unsigned n) {
  unsigned i = rl_dc_global_id();
  if (i >= n) return;
  unsigned row = pos * stride;
  cache[row + i] = src[i];
  cache[row + n + i] = src[n + i];
}

// Split-KV attention, first pass: work-group (c, h) covers context chunk c
// (positions t = c * chunk + j, j < chunk, t < context) of head h.
// The K row of position t, head h starts at kv[t * stride + h * head_dim];
// its V row heads * head_dim floats later. Scores are in the log2 domain:
// s_t = (q . k_t) * score_scale with score_scale = log2(e) / sqrt(head_dim)
// from the host. The group writes, at partials[(c * heads + h) * (head_dim
// + 2)]: m = max s_t, l = sum 2^(s_t - m), and acc[d] = sum 2^(s_t - m) *
// v_t[d] (d < head_dim), each sum in ascending t.
RL_DC_KERNEL void dc_attn_partial(const float* __restrict__ q,
                                  const float* __restrict__ kv,
                                  float* __restrict__ partials,
                                  unsigned stride, unsigned head_dim,
                                  unsigned heads, unsigned chunk,
                                  unsigned context, float score_scale) {
  __attribute__((shared)) static float rl_dc_scores[RL_DC_BLOCK_SIZE];
  __attribute__((shared)) static float rl_dc_probs[RL_DC_BLOCK_SIZE];
  unsigned lane = rl_dc_lane();
  unsigned c = __builtin_amdgcn_workgroup_id_x();
  unsigned h = __builtin_amdgcn_workgroup_id_y();
  unsigned first = c * chunk;
  unsigned t = first + lane;
  unsigned kv_dim = heads * head_dim;
  bool valid = lane < chunk && t < context;
  float s = -__builtin_inff();
  if (valid) {
    float dot = 0.0f;
    for (unsigned d = 0; d < head_dim; ++d) {
      dot = __builtin_fmaf(q[h * head_dim + d],
                           kv[t * stride + h * head_dim + d], dot);
    }
    s = dot * score_scale;
  }
  rl_dc_scores[lane] = s;
  rl_dc_barrier();
  float m = rl_dc_scores[0];
  for (unsigned j = 1; j < RL_DC_BLOCK_SIZE; ++j) {
    float v = rl_dc_scores[j];
    m = v > m ? v : m;
  }
  rl_dc_probs[lane] = valid ? __builtin_amdgcn_exp2f(s - m) : 0.0f;
  rl_dc_barrier();
  if (lane >= head_dim) return;
  unsigned count = context - first < chunk ? context - first : chunk;
  float l = 0.0f;
  float acc = 0.0f;
  for (unsigned j = 0; j < count; ++j) {
    float p = rl_dc_probs[j];
    l = l + p;
    acc = __builtin_fmaf(
        p, kv[(first + j) * stride + kv_dim + h * head_dim + lane], acc);
  }
  unsigned base = (c * heads + h) * (head_dim + 2);
  partials[base + 2 + lane] = acc;
  if (lane == 0) {
    partials[base] = m;
    partials[base + 1] = l;
  }
}

// Split-KV attention, second pass: work-group h merges the |chunks| partials
// of head h. Lane d < head_dim computes M = max m_c, then with f_c =
// 2^(m_c - M): L = sum l_c * f_c and A = sum acc_c[d] * f_c (ascending c,
// fused), and writes out[h * head_dim + d] = A * rcp(L).
RL_DC_KERNEL void dc_attn_merge(const float* __restrict__ partials,
                                float* __restrict__ out, unsigned head_dim,
                                unsigned heads, unsigned chunks) {
  unsigned lane = rl_dc_lane();
  unsigned h = __builtin_amdgcn_workgroup_id_x();
  if (lane >= head_dim) return;
  unsigned width = head_dim + 2;
  float M = -__builtin_inff();
  for (unsigned c = 0; c < chunks; ++c) {
    float v = partials[(c * heads + h) * width];
    M = v > M ? v : M;
  }
  float L = 0.0f;
  float A = 0.0f;
  for (unsigned c = 0; c < chunks; ++c) {
    unsigned base = (c * heads + h) * width;
    float f = __builtin_amdgcn_exp2f(partials[base] - M);
    L = __builtin_fmaf(partials[base + 1], f, L);
    A = __builtin_fmaf(partials[base + 2 + lane], f, A);
  }
  out[h * head_dim + lane] = A * __builtin_amdgcn_rcpf(L);
}

// x[i] = x[i] + delta[i]: the residual add, in place.
RL_DC_KERNEL void dc_add(float* __restrict__ x,
                         const float* __restrict__ delta, unsigned n) {
  unsigned i = rl_dc_global_id();
  if (i < n) x[i] = x[i] + delta[i];
}

// out[i] = (g * rcp(1 + 2^(g * -log2(e)))) * u with g = gu[i] (gate) and
// u = gu[n + i] (up): SiLU(gate) x up.
RL_DC_KERNEL void dc_silu_mul(const float* __restrict__ gu,
                              float* __restrict__ out, unsigned n) {
  unsigned i = rl_dc_global_id();
  if (i >= n) return;
  float g = gu[i];
  float u = gu[n + i];
  float e = __builtin_amdgcn_exp2f(g * -RL_DC_LOG2E);
  float silu = g * __builtin_amdgcn_rcpf(1.0f + e);
  out[i] = silu * u;
}

// token[0] = the smallest i < n with the largest logits[i], one work-group.
// Each lane keeps the first maximum of its strided elements (strict >),
// then the LDS tree takes the other slot when its value is larger, or equal
// with a smaller index. A lane that saw no element (or only NaN) holds
// (-inf, 0xffffffff); if that survives, the token is 0.
RL_DC_KERNEL void dc_argmax(const float* __restrict__ logits,
                            unsigned* __restrict__ token, unsigned n) {
  __attribute__((shared)) static float rl_dc_values[RL_DC_BLOCK_SIZE];
  __attribute__((shared)) static unsigned rl_dc_indices[RL_DC_BLOCK_SIZE];
  unsigned lane = rl_dc_lane();
  float best = -__builtin_inff();
  unsigned index = 0xffffffffu;
  for (unsigned i = lane; i < n; i += RL_DC_BLOCK_SIZE) {
    float v = logits[i];
    if (v > best) {
      best = v;
      index = i;
    }
  }
  rl_dc_values[lane] = best;
  rl_dc_indices[lane] = index;
  rl_dc_barrier();
  for (unsigned stride = RL_DC_BLOCK_SIZE / 2; stride > 0; stride /= 2) {
    if (lane < stride) {
      float ov = rl_dc_values[lane + stride];
      unsigned oi = rl_dc_indices[lane + stride];
      float v = rl_dc_values[lane];
      if (ov > v || (ov == v && oi < rl_dc_indices[lane])) {
        rl_dc_values[lane] = ov;
        rl_dc_indices[lane] = oi;
      }
    }
    rl_dc_barrier();
  }
  if (lane == 0) {
    unsigned winner = rl_dc_indices[0];
    token[0] = winner == 0xffffffffu ? 0u : winner;
  }
}
