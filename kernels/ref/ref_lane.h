// kernels/ref/ref_lane.h — what every 64-lane reference kernel does the same
// way (private to kernels/ref/): a lane's global id, a 32-bit element's
// address, one element loaded or stored, the
// element-wise loop, the LDS trees, and the argmax, attention merge and silu
// the decode and verify kernels share.
//
// decode.hip, verify.hip and vecchain.hip share these shapes, so their
// references (decode_ref.c, verify_ref.c, vecchain_ref.c) share one
// definition of each instead of a copy per file. Everything here is static
// inline: the kernels call these once per lane and element.
#ifndef REDLINE_KERNELS_REF_REF_LANE_H_
#define REDLINE_KERNELS_REF_REF_LANE_H_

#include <math.h>
#include <stdint.h>

#include "kernels/ref/ref_kernel.h"
#include "sim/sim_math.h"

#ifdef __cplusplus
extern "C" {
#endif

// Lanes in one work-group of the 64-lane kernels (blockDim.x in the HIP).
#define RL_REF_BLOCK 64u
// The literal of decode.hip and verify.hip: -log2(e) rounded to binary32
// (0xbfb8aa3b).
#define RL_REF_NEG_LOG2E (-1.44269504088896340736f)
// The argmax kernels' "no index yet" (0xffffffff, larger than any index).
#define RL_REF_NO_INDEX 0xffffffffu

// The global id of |lane| (`v_lshl_or_b32 v0, s15, 6, v0`: group << 6 |
// lane, 32 bits).
static inline uint32_t rl_ref_global_id(const rl_sim_wg_t* wg, uint32_t lane) {
  return (wg->group_id[0] << 6) | lane;
}

// The address of 32-bit element |index| of the buffer at |base|.
static inline uint64_t rl_ref_element(uint64_t base, uint32_t index) {
  return base + ((uint64_t)index << 2);
}

// Loads or stores the 4 bytes of element |index| of the buffer at |base|.
static inline rl_status_t rl_ref_load(rl_sim_wg_t* wg, uint64_t base,
                                      uint32_t index, void* out_value) {
  return rl_sim_wg_load(wg, rl_ref_element(base, index), out_value, 4);
}

static inline rl_status_t rl_ref_store(rl_sim_wg_t* wg, uint64_t base,
                                       uint32_t index, const void* value) {
  return rl_sim_wg_store(wg, rl_ref_element(base, index), value, 4);
}

// The LDS trees over the RL_REF_BLOCK slots of |lds|: at stride 32, 16, ...,
// 1 lane l < stride sets lds[l] to lds[l] + lds[l + stride] (sum,
// `ds_load_2addr_b32 ... offset1:<stride>` then `v_add_f32`) or to
// lds[l + stride] when that compares greater (max). A step's lanes write
// slots disjoint from those they read, and barriers order the steps, so
// running the lanes in turn is exact. Both return lds[0].
static inline float rl_ref_tree_sum(float* lds) {
  for (uint32_t stride = RL_REF_BLOCK / 2; stride > 0; stride /= 2) {
    for (uint32_t lane = 0; lane < stride; ++lane) {
      lds[lane] = lds[lane] + lds[lane + stride];
    }
  }
  return lds[0];
}

static inline float rl_ref_tree_max(float* lds) {
  for (uint32_t stride = RL_REF_BLOCK / 2; stride > 0; stride /= 2) {
    for (uint32_t lane = 0; lane < stride; ++lane) {
      const float o = lds[lane + stride], m = lds[lane];
      lds[lane] = o > m ? o : m;
    }
  }
  return lds[0];
}

// The argmax of one work-group over the |n| elements of the row that starts
// at element |first| of |logits|, as decode.hip's dc_argmax and verify.hip's
// vf_argmax compute it: lane l keeps the first strict maximum of row[l],
// row[l + 64], ... starting from (-inf, RL_REF_NO_INDEX); the tree at stride
// s lets lane l < s take slot l + s when its value is larger, or equal with a
// smaller index (`v_cmpx_ngt_f32`, `v_cmpx_eq_f32`, u32 compare).
// *|out_winner| is lane 0's index, 0 if none won. |lds| holds RL_REF_BLOCK
// floats, then RL_REF_BLOCK u32 (the kernel's begin() checked 512 bytes).
static inline rl_status_t rl_ref_argmax(rl_sim_wg_t* wg, uint64_t logits,
                                        uint32_t first, uint32_t n,
                                        uint32_t* out_winner) {
  float* values = (float*)rl_sim_wg_lds(wg);
  uint32_t* indices = (uint32_t*)(values + RL_REF_BLOCK);
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    values[lane] = -INFINITY;
    indices[lane] = RL_REF_NO_INDEX;
    for (uint32_t i = lane; i < n; i += RL_REF_BLOCK) {
      float v = 0;
      RL_RETURN_IF_ERROR(rl_ref_load(wg, logits, first + i, &v));
      if (v > values[lane]) {
        values[lane] = v;
        indices[lane] = i;
      }
    }
  }
  for (uint32_t stride = RL_REF_BLOCK / 2; stride > 0; stride /= 2) {
    for (uint32_t lane = 0; lane < stride; ++lane) {
      const float ov = values[lane + stride];
      const uint32_t oi = indices[lane + stride];
      if (ov > values[lane] || (ov == values[lane] && oi < indices[lane])) {
        values[lane] = ov;
        indices[lane] = oi;
      }
    }
  }
  *out_winner = indices[0] == RL_REF_NO_INDEX ? 0 : indices[0];
  return RL_OK;
}

// Lane |d| of the attention merge both dc_attn_merge and vf_attn_merge
// compute over |chunks| partials, chunk c's record (m, l, acc[head_dim]) at
// element |first| + c * |stride| of |partials| (32-bit sums): M = max of
// m_c (compare and select, ascending c); then for c ascending f = exp2(m_c -
// M), L = fmaf(l_c, f, L), A = fmaf(acc_c[d], f, A) (`v_sub_f32`,
// `v_exp_f32`, two `v_fmac_f32`); *|out| = A * rcp(L) (`v_rcp_f32`,
// `v_mul_f32`).
static inline rl_status_t rl_ref_merge_lane(rl_sim_wg_t* wg,
                                            uint64_t partials, uint32_t first,
                                            uint32_t stride, uint32_t chunks,
                                            uint32_t d, float* out) {
  float M = -INFINITY;
  for (uint32_t c = 0; c < chunks; ++c) {
    float v = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, partials, first + c * stride, &v));
    M = v > M ? v : M;
  }
  float L = 0.0f, A = 0.0f;
  for (uint32_t c = 0; c < chunks; ++c) {
    const uint32_t base = first + c * stride;
    float m = 0, l = 0, acc = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, partials, base, &m));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, partials, base + 1, &l));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, partials, base + 2 + d, &acc));
    const float f = rl_sim_math_exp2f(m - M);
    L = fmaf(l, f, L);
    A = fmaf(acc, f, A);
  }
  *out = A * rl_sim_math_rcpf(L);
  return RL_OK;
}

// silu(g) * u as both decode.hip and verify.hip round it: e = exp2(g *
// -log2e) (`v_mul_f32 v1, 0xbfb8aa3b, v4`, `v_exp_f32`), silu = g * rcp(1 +
// e) (`v_add_f32 v1, 1.0, v1`, `v_rcp_f32`, `v_mul_f32`), then silu * u.
static inline float rl_ref_silu_mul(float g, float u) {
  const float e = rl_sim_math_exp2f(g * RL_REF_NEG_LOG2E);
  const float silu = g * rl_sim_math_rcpf(1.0f + e);
  return silu * u;
}

// The element-wise shape of the 64-lane kernels (add, silu_mul, axpy): every
// lane whose global id i is below |n| loads a = a[a_first + i] and b =
// b[b_first + i], then stores op(a, b, k) to out[out_first + i]. The index
// sums are 32-bit, as the kernels compute them; loads go before the store.
typedef float (*rl_ref_binary_op_t)(float a, float b, float k);

typedef struct rl_ref_binary_s {
  uint64_t a, b, out;                    // the buffers
  uint32_t a_first, b_first, out_first;  // this row's first elements
  uint32_t n;                            // elements in the row
  float k;                               // the constant op may use
} rl_ref_binary_t;

static inline rl_status_t rl_ref_binary(rl_sim_wg_t* wg,
                                        const rl_ref_binary_t* m,
                                        rl_ref_binary_op_t op) {
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    const uint32_t i = rl_ref_global_id(wg, lane);
    if (i >= m->n) continue;
    float a = 0, b = 0;
    RL_RETURN_IF_ERROR(rl_ref_load(wg, m->a, m->a_first + i, &a));
    RL_RETURN_IF_ERROR(rl_ref_load(wg, m->b, m->b_first + i, &b));
    const float result = op(a, b, m->k);
    RL_RETURN_IF_ERROR(rl_ref_store(wg, m->out, m->out_first + i, &result));
  }
  return RL_OK;
}

// The ops of rl_ref_binary: a + b (`v_add_f32`) and rl_ref_silu_mul(a, b).
static inline float rl_ref_op_add(float a, float b, float k) {
  (void)k;
  return a + b;
}

static inline float rl_ref_op_silu_mul(float a, float b, float k) {
  (void)k;
  return rl_ref_silu_mul(a, b);
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNELS_REF_REF_LANE_H_
