// Reference implementations of the kernels of kernels/vecchain.hip.
//
// Each function computes one work-group: it loops over the work-items of
// the group (wg->size[0] of them, 64 for whole groups) and does what each
// would do, with the same 32-bit index arithmetic. The compiled code
// computes the global id as `v_lshl_or_b32 v0, s15, 6, v0` (group << 6 |
// lane, 32 bits) and addresses element i as base + ((u64)i << 2)
// (`v_lshlrev_b64 v[0:1], 2, v[0:1]` with v1 = 0), so both are mirrored
// exactly, wrap-around included.
//
// Float semantics were confirmed in the gfx1100 disassembly
// (`llvm-objdump-19 -d --mcpu=gfx1100 vecchain-gfx1100.co`; gfx1151 and
// gfx1201 emit the same operations). Operand order of a single add or
// multiply does not matter: IEEE-754 addition and multiplication are
// commutative for every non-NaN input. This file must not be compiled with
// floating-point contraction (ref.cmake passes -ffp-contract=off), so a
// multiply followed by an add stays two roundings unless fmaf() is written.
#include <math.h>
#include <stdint.h>

#include "kernels/ref/ref_kernel.h"
#include "kernels/ref/ref_lane.h"

// Element loads and stores of f32 values (rl_ref_global_id is the HIP's
// rl_vc_global_id).
static rl_status_t rl_vc_load_f32(rl_sim_wg_t* wg, uint64_t base,
                                  uint32_t index, float* out_value) {
  return rl_ref_load(wg, base, index, out_value);
}

static rl_status_t rl_vc_store_f32(rl_sim_wg_t* wg, uint64_t base,
                                   uint32_t index, float value) {
  return rl_ref_store(wg, base, index, &value);
}

// vc_fill(out, value, n): out[i] = value. A plain store of the argument's
// bits (`global_store_b32` of s2), no arithmetic.
static rl_status_t rl_vc_fill(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t out = args[0].pointer;
  const float value = args[1].f32;
  const uint32_t n = args[2].u32;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    uint32_t i = rl_ref_global_id(wg, lane);
    if (i < n) RL_RETURN_IF_ERROR(rl_vc_store_f32(wg, out, i, value));
  }
  return RL_OK;
}

// vc_scale(in, out, s, n): out[i] = in[i] * s, one rounding
// (`v_mul_f32_e32 v2, s2, v2`).
static rl_status_t rl_vc_scale(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t in = args[0].pointer, out = args[1].pointer;
  const float s = args[2].f32;
  const uint32_t n = args[3].u32;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    uint32_t i = rl_ref_global_id(wg, lane);
    if (i >= n) continue;
    float x = 0;
    RL_RETURN_IF_ERROR(rl_vc_load_f32(wg, in, i, &x));
    RL_RETURN_IF_ERROR(rl_vc_store_f32(wg, out, i, x * s));
  }
  return RL_OK;
}

// vc_add(a, b, out, n): out[i] = a[i] + b[i] (`v_add_f32_e32 v2, v2, v3`).
static rl_status_t rl_vc_add(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const rl_ref_binary_t m = {.a = args[0].pointer, .b = args[1].pointer,
                             .out = args[2].pointer, .n = args[3].u32};
  return rl_ref_binary(wg, &m, rl_ref_op_add);
}

// vc_axpy_pos(x, y, pos, n): y[i] += x[i] * (float)pos.
// The compiler contracts the multiply-add into one fused operation with a
// single rounding: `v_cvt_f32_u32_e32 v4, s2` converts pos (unsigned, round
// to nearest even), then `v_fmac_f32_e32 v3, v2, v4` computes
// y = fma(x, (float)pos, y) (gfx1151/gfx1201: `v_fmac_f32_e32 v3, s0, v2`).
// Hence fmaf() here, not x * p + y, which would round twice.
static float rl_vc_op_axpy(float x, float y, float scale) {
  return fmaf(x, scale, y);
}

static rl_status_t rl_vc_axpy_pos(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t x = args[0].pointer, y = args[1].pointer;
  const rl_ref_binary_t m = {.a = x, .b = y, .out = y, .n = args[3].u32,
                             .k = (float)args[2].u32};
  return rl_ref_binary(wg, &m, rl_vc_op_axpy);
}

// The strided sum of one work-item of vc_partial_sum: 0.0f + in[first] +
// in[first + 64] + ... while below |end|, one `v_add_f32_e32 v3, v3, v4`
// per element in ascending order (v3 starts at 0, so a lane without
// elements contributes +0.0f). The index advances in 32 bits
// (`v_add_nc_u32_e32 v1, 64, v1`); if it wrapped while still below |end|
// the GPU loop would never end, which the reference reports instead of
// hanging (an in-bounds |in| faults long before).
static rl_status_t rl_vc_lane_sum(rl_sim_wg_t* wg, uint64_t in, uint32_t first,
                                  uint32_t end, float* out_sum) {
  float sum = 0.0f;
  for (uint32_t i = first; i < end; i += RL_REF_BLOCK) {
    float value = 0;
    RL_RETURN_IF_ERROR(rl_vc_load_f32(wg, in, i, &value));
    sum += value;
    if (i > UINT32_MAX - RL_REF_BLOCK) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "vc_partial_sum: index %u + 64 wraps below end %u; the "
                       "kernel would not terminate", i, end);
    }
  }
  *out_sum = sum;
  return RL_OK;
}

// vc_partial_sum(in, partials, chunk, n): partials[g] = the sum of
// in[g * chunk, min(g * chunk + chunk, n)) for group g.
// begin = g * chunk and begin + chunk wrap in 32 bits (`s_mul_i32`,
// `s_add_i32`, then `s_min_u32` for the end). Every lane stores its strided
// sum in the LDS array (`ds_store_b32`); then the tree with strides 32, 16,
// ..., 1 runs: lane l < stride sets lds[l] = lds[l + stride] + lds[l]
// (`ds_load_2addr_b32 v[2:3], v1 offset1:<stride>`, `v_add_f32 v2, v3, v2`).
// Within one step the lanes read disjoint slots from the ones written, and
// the barrier between steps orders the steps, so applying each step to all
// lanes in turn is exact. Lane 0 stores lds[0] to partials[g]
// (`global_store_b32` with s[0:1] = partials + (g << 2)).
static rl_status_t rl_vc_partial_sum(rl_sim_wg_t* wg,
                                     const rl_ref_arg_t* args) {
  const uint64_t in = args[0].pointer, partials = args[1].pointer;
  const uint32_t chunk = args[2].u32, n = args[3].u32;
  float* lds = (float*)rl_sim_wg_lds(wg);  // begin() checked 256 bytes
  const uint32_t group = wg->group_id[0];
  const uint32_t begin = group * chunk;
  const uint32_t end = begin + chunk < n ? begin + chunk : n;
  for (uint32_t lane = 0; lane < RL_REF_BLOCK; ++lane) {
    RL_RETURN_IF_ERROR(rl_vc_lane_sum(wg, in, begin + lane, end, &lds[lane]));
  }
  for (uint32_t stride = RL_REF_BLOCK / 2; stride > 0; stride /= 2) {
    for (uint32_t lane = 0; lane < stride; ++lane) {
      lds[lane] += lds[lane + stride];
    }
  }
  return rl_vc_store_f32(wg, partials, group, lds[0]);
}

// vc_merge(partials, out, count): work-item 0 of the launch sums
// partials[0, count) in ascending order from 0.0f and stores it to out[0].
// The id test is `v_sub_nc_u32 v0, 0, v0` / `v_cmp_eq_u32 vcc, s2, v0` with
// s2 = group << 6: the 32-bit global id equals 0. One add per element
// (`v_add_f32_e32 v0, s5, v0` on gfx1100, `s_add_f32` on gfx1151/gfx1201,
// both IEEE binary32 round-to-nearest-even).
static rl_status_t rl_vc_merge(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t partials = args[0].pointer, out = args[1].pointer;
  const uint32_t count = args[2].u32;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    if (rl_ref_global_id(wg, lane) != 0) continue;
    float sum = 0.0f;
    for (uint32_t i = 0; i < count; ++i) {
      float value = 0;
      RL_RETURN_IF_ERROR(rl_vc_load_f32(wg, partials, i, &value));
      sum += value;
    }
    RL_RETURN_IF_ERROR(rl_vc_store_f32(wg, out, 0, sum));
  }
  return RL_OK;
}

// vc_copy_u32(in, out, n): out[i] = in[i] as raw 32-bit words
// (`global_load_b32` then `global_store_b32`, no conversion).
static rl_status_t rl_vc_copy_u32(rl_sim_wg_t* wg, const rl_ref_arg_t* args) {
  const uint64_t in = args[0].pointer, out = args[1].pointer;
  const uint32_t n = args[2].u32;
  for (uint32_t lane = 0; lane < wg->size[0]; ++lane) {
    uint32_t i = rl_ref_global_id(wg, lane);
    if (i >= n) continue;
    uint32_t word = 0;
    RL_RETURN_IF_ERROR(rl_sim_wg_load(wg, rl_ref_element(in, i), &word, 4));
    RL_RETURN_IF_ERROR(rl_sim_wg_store(wg, rl_ref_element(out, i), &word, 4));
  }
  return RL_OK;
}

#define RL_VC_P RL_REF_ARG_POINTER
#define RL_VC_U RL_REF_ARG_U32
#define RL_VC_F RL_REF_ARG_F32

// Every kernel is written for 64x1x1 blocks
// (amdgpu_flat_work_group_size(64, 64) in vecchain.hip). vc_partial_sum's
// shared array is 64 floats (.group_segment_fixed_size 256) and its tree
// reads the slot of every lane, so it needs whole work-groups.
const rl_ref_kernel_t rl_ref_vecchain_kernels[] = {
    {"vc_fill", {64, 1, 1}, 3, {RL_VC_P, RL_VC_F, RL_VC_U}, 0, false,
     rl_vc_fill},
    {"vc_scale", {64, 1, 1}, 4, {RL_VC_P, RL_VC_P, RL_VC_F, RL_VC_U}, 0,
     false, rl_vc_scale},
    {"vc_add", {64, 1, 1}, 4, {RL_VC_P, RL_VC_P, RL_VC_P, RL_VC_U}, 0, false,
     rl_vc_add},
    {"vc_axpy_pos", {64, 1, 1}, 4, {RL_VC_P, RL_VC_P, RL_VC_U, RL_VC_U}, 0,
     false, rl_vc_axpy_pos},
    {"vc_partial_sum", {64, 1, 1}, 4, {RL_VC_P, RL_VC_P, RL_VC_U, RL_VC_U},
     RL_REF_BLOCK * 4, true, rl_vc_partial_sum},
    {"vc_merge", {64, 1, 1}, 3, {RL_VC_P, RL_VC_P, RL_VC_U}, 0, false,
     rl_vc_merge},
    {"vc_copy_u32", {64, 1, 1}, 3, {RL_VC_P, RL_VC_P, RL_VC_U}, 0, false,
     rl_vc_copy_u32},
};

const uint32_t rl_ref_vecchain_kernel_count =
    sizeof(rl_ref_vecchain_kernels) / sizeof(rl_ref_vecchain_kernels[0]);
