// tests/hip_programs/layernorm.hip — layer normalisation of one row per
// 64-wide work-group: mean and variance by LDS trees, then
// y = (x - mean) * rsqrt(var + eps) * gamma + beta, and a second output
// with sqrtf for the standard deviation (y2 = (x - mean) / sqrt(var + eps)).
//
// rsqrt is __builtin_amdgcn_rsqf (v_rsq_f32, no device library needed);
// sqrtf is __builtin_sqrtf, which clang lowers itself to the correctly
// rounded v_sqrt_f32 sequence (scaling, v_sqrt_f32, a correction step).
//
// Launch: block 64x1x1, grid rows x 1.
#include "hip_device.h"

#pragma clang fp contract(off)

#define RL_LN_BLOCK 64u

RL_HP_DEVICE float rl_ln_block_sum(float* part, float v) {
  unsigned tid = rl_hp_tid_x();
  part[tid] = v;
  rl_hp_sync();
  for (unsigned s = RL_LN_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) part[tid] = part[tid] + part[tid + s];
    rl_hp_sync();
  }
  float total = part[0];
  rl_hp_sync();
  return total;
}

RL_HP_KERNEL(RL_LN_BLOCK) void hp_layernorm(const float* __restrict__ x,
                                            const float* __restrict__ gamma,
                                            const float* __restrict__ beta,
                                            float* __restrict__ y,
                                            float* __restrict__ y2,
                                            unsigned cols, float eps) {
  RL_HP_SHARED float part[RL_LN_BLOCK];
  unsigned tid = rl_hp_tid_x();
  unsigned long base = (unsigned long)rl_hp_block_x() * cols;
  float sum = 0.0f;
  for (unsigned i = tid; i < cols; i += RL_LN_BLOCK) sum = sum + x[base + i];
  float mean = rl_ln_block_sum(part, sum) / (float)cols;
  float sq = 0.0f;
  for (unsigned i = tid; i < cols; i += RL_LN_BLOCK) {
    float d = x[base + i] - mean;
    sq = sq + d * d;
  }
  float var = rl_ln_block_sum(part, sq) / (float)cols;
  float r = __builtin_amdgcn_rsqf(var + eps);
  float sd = __builtin_sqrtf(var + eps);
  for (unsigned i = tid; i < cols; i += RL_LN_BLOCK) {
    float d = x[base + i] - mean;
    y[base + i] = d * r * gamma[i] + beta[i];
    y2[base + i] = d / sd;
  }
}
