// tests/hip_programs/softmax.hip — row softmax, one work-group per row:
// the row maximum by an LDS tree, exp(x - max) through expf, the row sum by
// an LDS tree, then one float division per element.
//
// expf is __builtin_expf (no device library exists for these targets):
// clang lowers llvm.exp.f32 itself to a range-reduced v_exp_f32 sequence;
// the division x / sum is the IEEE one (v_div_scale, v_div_fmas,
// v_div_fixup around v_rcp_f32). Maxima are `a > b ? a : b`.
//
// Launch: block 256x1x1, grid rows x 1; |cols| any.
#include "hip_device.h"

#pragma clang fp contract(off)

#define RL_SM_BLOCK 256u

RL_HP_KERNEL(RL_SM_BLOCK) void hp_softmax(const float* __restrict__ in,
                                          float* __restrict__ out,
                                          unsigned cols) {
  RL_HP_SHARED float part[RL_SM_BLOCK];
  unsigned tid = rl_hp_tid_x();
  const float* row = in + (unsigned long)rl_hp_block_x() * cols;
  float* dst = out + (unsigned long)rl_hp_block_x() * cols;
  float m = -__builtin_inff();
  for (unsigned i = tid; i < cols; i += RL_SM_BLOCK) m = row[i] > m ? row[i] : m;
  part[tid] = m;
  rl_hp_sync();
  for (unsigned s = RL_SM_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) part[tid] = part[tid + s] > part[tid] ? part[tid + s] : part[tid];
    rl_hp_sync();
  }
  m = part[0];
  rl_hp_sync();
  float sum = 0.0f;
  for (unsigned i = tid; i < cols; i += RL_SM_BLOCK) {
    float e = __builtin_expf(row[i] - m);
    dst[i] = e;
    sum += e;
  }
  part[tid] = sum;
  rl_hp_sync();
  for (unsigned s = RL_SM_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) part[tid] = part[tid] + part[tid + s];
    rl_hp_sync();
  }
  sum = part[0];
  for (unsigned i = tid; i < cols; i += RL_SM_BLOCK) dst[i] = dst[i] / sum;
}
