// tests/hip_programs/histogram.hip — a 256-bin byte histogram: per
// work-group bins in LDS incremented with LDS atomics (ds_add_u32), then one
// global atomicAdd per nonzero bin.
//
// Launch: block 256x1x1, any grid; |n| bytes packed four per word; the 256
// global bins start at zero.
#include "hip_device.h"

RL_HP_KERNEL(256) void hp_histogram(const unsigned* __restrict__ in,
                                    unsigned* bins, unsigned n) {
  RL_HP_SHARED unsigned local[256];
  unsigned tid = rl_hp_tid_x();
  local[tid] = 0;
  rl_hp_sync();
  unsigned stride = __builtin_amdgcn_grid_size_x();
  for (unsigned i = rl_hp_block_x() * 256u + tid; i < n; i += stride) {
    unsigned byte = (in[i >> 2] >> ((i & 3u) * 8u)) & 0xffu;
    __hip_atomic_fetch_add(&local[byte], 1u, __ATOMIC_RELAXED,
                           __HIP_MEMORY_SCOPE_WORKGROUP);
  }
  rl_hp_sync();
  if (local[tid] != 0) rl_hp_atomic_add(&bins[tid], local[tid]);
}
