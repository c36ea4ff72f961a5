// tests/hip_programs/bitonic.hip — bitonic sort of 512 keys per work-group
// in LDS (256 work-items, each owning one compare-exchange per step).
// Ascending 32-bit unsigned keys; each group sorts its own 512-key slice.
//
// Launch: block 256x1x1, grid = number of 512-key slices.
#include "hip_device.h"

#define RL_BS_KEYS 512u

RL_HP_KERNEL(256) void hp_bitonic(unsigned* keys) {
  RL_HP_SHARED unsigned s[RL_BS_KEYS];
  unsigned tid = rl_hp_tid_x();
  unsigned* slice = keys + rl_hp_block_x() * RL_BS_KEYS;
  s[tid] = slice[tid];
  s[tid + 256u] = slice[tid + 256u];
  rl_hp_sync();
  for (unsigned size = 2; size <= RL_BS_KEYS; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      unsigned lo = 2u * tid - (tid & (stride - 1u));
      unsigned hi = lo + stride;
      bool up = (lo & size) == 0;
      unsigned a = s[lo], b = s[hi];
      if ((a > b) == up) {
        s[lo] = b;
        s[hi] = a;
      }
      rl_hp_sync();
    }
  }
  slice[tid] = s[tid];
  slice[tid + 256u] = s[tid + 256u];
}
