// tests/hip_programs/reduce.hip — a grid-wide reduction the way HIP code
// writes it: a grid-stride loop per work-item, a wave-level tree through
// warp shuffles, one atomic per wave.
//
// hp_reduce_sum: __shfl_down tree (offsets 16..1), lane 0 atomicAdd.
// hp_reduce_max: __shfl_xor butterfly (masks 16..1, every lane ends with the
// maximum), lane 0 atomicMax.
// hp_reduce_sum64: 64-bit sums through two 32-bit shuffles, lane 0 a 64-bit
// atomicAdd.
//
// Launch: block 256x1x1, any grid. *sum and *max start at 0 / INT_MIN.
#include "hip_device.h"

RL_HP_KERNEL(256) void hp_reduce_sum(const unsigned* __restrict__ in,
                                     unsigned* sum, unsigned n) {
  unsigned stride = __builtin_amdgcn_grid_size_x();
  unsigned acc = 0;
  for (unsigned i = rl_hp_block_x() * 256u + rl_hp_tid_x(); i < n; i += stride)
    acc += in[i];
  for (unsigned offset = RL_HP_WARP / 2; offset > 0; offset >>= 1)
    acc += (unsigned)rl_hp_shfl_down((int)acc, offset, RL_HP_WARP);
  if (rl_hp_lane() == 0) rl_hp_atomic_add(sum, acc);
}

RL_HP_KERNEL(256) void hp_reduce_max(const int* __restrict__ in, int* max,
                                     unsigned n) {
  unsigned stride = __builtin_amdgcn_grid_size_x();
  int acc = -2147483647 - 1;
  for (unsigned i = rl_hp_block_x() * 256u + rl_hp_tid_x(); i < n; i += stride)
    acc = in[i] > acc ? in[i] : acc;
  for (int mask = RL_HP_WARP / 2; mask > 0; mask >>= 1) {
    int other = rl_hp_shfl_xor(acc, mask, RL_HP_WARP);
    acc = other > acc ? other : acc;
  }
  if (rl_hp_lane() == 0) rl_hp_atomic_max(max, acc);
}

RL_HP_KERNEL(256) void hp_reduce_sum64(const unsigned long long* __restrict__ in,
                                       unsigned long long* sum, unsigned n) {
  unsigned stride = __builtin_amdgcn_grid_size_x();
  unsigned long long acc = 0;
  for (unsigned i = rl_hp_block_x() * 256u + rl_hp_tid_x(); i < n; i += stride)
    acc += in[i];
  for (unsigned offset = RL_HP_WARP / 2; offset > 0; offset >>= 1) {
    unsigned lo = (unsigned)rl_hp_shfl_down((int)(unsigned)acc, offset,
                                            RL_HP_WARP);
    unsigned hi = (unsigned)rl_hp_shfl_down((int)(unsigned)(acc >> 32), offset,
                                            RL_HP_WARP);
    acc += ((unsigned long long)hi << 32) | lo;
  }
  if (rl_hp_lane() == 0)
    __hip_atomic_fetch_add(sum, acc, __ATOMIC_RELAXED,
                           __HIP_MEMORY_SCOPE_AGENT);
}
