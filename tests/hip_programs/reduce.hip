// tests/hip_programs/reduce.hip — a grid-wide reduction the way HIP code
// writes it: a grid-stride loop per work-item, a wave-level tree through
// warp shuffles, one atomic per wave.
//
// hp_reduce_sum: __shfl_down tree (offsets 16..1), lane 0 atomicAdd.
// hp_reduce_max: __shfl_xor butterfly (masks 16..1, every lane ends with the
// maximum), lane 0 atomicMax.
// hp_reduce_sum64: 64-bit sums through two 32-bit shuffles, lane 0 a 64-bit
// atomicAdd.
// hp_reduce_dpp: the DPP idioms of rocPRIM/hipCUB warp scans and reductions
// (__builtin_amdgcn_update_dpp / mov_dpp8, which clang folds into
// v_add_nc_u32_dpp, v_add_f32_dpp, v_mov_b32_dpp): a row_shr inclusive scan
// per row of 16, quad_perm / row_half_mirror / row_mirror reductions
// (integer and float) finished across rows with v_readlane, a DPP8
// reversal of each 8 lanes and a row_shr with row/bank masks that keeps
// the old value. One element per work-item.
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

// __builtin_amdgcn_update_dpp(old, src, dpp_ctrl, row_mask, bank_mask,
// bound_ctrl) controls (RDNA3 ISA guide, DPP_CTRL).
#define RL_HP_QUAD_PERM(a, b, c, d) ((a) | (b) << 2 | (c) << 4 | (d) << 6)
#define RL_HP_ROW_SHR(n) (0x110 + (n))
#define RL_HP_ROW_MIRROR 0x140
#define RL_HP_ROW_HALF_MIRROR 0x141

#define rl_hp_dpp(v, ctrl) \
  __builtin_amdgcn_update_dpp(0, (v), (ctrl), 0xf, 0xf, true)

RL_HP_KERNEL(256) void hp_reduce_dpp(const unsigned* __restrict__ in,
                                     unsigned* scan, unsigned* perm,
                                     unsigned* masked, unsigned* wave_sum,
                                     float* wave_fsum) {
  unsigned i = rl_hp_block_x() * 256u + rl_hp_tid_x();
  int v = (int)in[i];
  int s = v;  // inclusive scan within each row of 16 lanes
  s += rl_hp_dpp(s, RL_HP_ROW_SHR(1));
  s += rl_hp_dpp(s, RL_HP_ROW_SHR(2));
  s += rl_hp_dpp(s, RL_HP_ROW_SHR(4));
  s += rl_hp_dpp(s, RL_HP_ROW_SHR(8));
  scan[i] = (unsigned)s;
  int t = v;  // every lane of a row ends with the row's sum
  t += rl_hp_dpp(t, RL_HP_QUAD_PERM(1, 0, 3, 2));
  t += rl_hp_dpp(t, RL_HP_QUAD_PERM(2, 3, 0, 1));
  t += rl_hp_dpp(t, RL_HP_ROW_HALF_MIRROR);
  t += rl_hp_dpp(t, RL_HP_ROW_MIRROR);
  float f = (float)(v & 0xffff);
  f += __builtin_bit_cast(float, rl_hp_dpp(__builtin_bit_cast(int, f),
                                           RL_HP_QUAD_PERM(1, 0, 3, 2)));
  f += __builtin_bit_cast(float, rl_hp_dpp(__builtin_bit_cast(int, f),
                                           RL_HP_QUAD_PERM(2, 3, 0, 1)));
  f += __builtin_bit_cast(float, rl_hp_dpp(__builtin_bit_cast(int, f),
                                           RL_HP_ROW_HALF_MIRROR));
  f += __builtin_bit_cast(float, rl_hp_dpp(__builtin_bit_cast(int, f),
                                           RL_HP_ROW_MIRROR));
  // DPP8: each group of 8 lanes reversed.
  perm[i] = (unsigned)__builtin_amdgcn_mov_dpp8(v, 0x53977);
  // row_shr:3 into old = ~v, rows 0 only and banks 1 and 3 only, no
  // bound_ctrl: disabled lanes and lanes without a source keep ~v.
  masked[i] = (unsigned)__builtin_amdgcn_update_dpp(~v, v, RL_HP_ROW_SHR(3),
                                                    0x1, 0xa, false);
  int total = __builtin_amdgcn_readlane(t, 0) + __builtin_amdgcn_readlane(t, 16);
  float ftotal = __builtin_bit_cast(
      float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, f), 0));
  ftotal += __builtin_bit_cast(
      float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, f), 16));
  if (rl_hp_lane() == 0) {
    wave_sum[i / 32u] = (unsigned)total;
    wave_fsum[i / 32u] = ftotal;
  }
}
