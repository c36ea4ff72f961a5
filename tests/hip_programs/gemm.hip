// tests/hip_programs/gemm.hip — C = A x B in float with 16x16 LDS tiles (the
// textbook shared-memory GEMM): each work-item of a 16x16 group computes one
// element of C, accumulating tile by tile with an explicit fused
// multiply-add in ascending k, so the host reproduces every rounding with
// fmaf. A is m x k, B is k x n, C is m x n, all row-major; m, n, k are
// multiples of 16.
//
// Launch: block 16x16x1, grid (n/16) x (m/16).
#include "hip_device.h"

#pragma clang fp contract(off)

#define RL_GM_TILE 16u

RL_HP_KERNEL(256) void hp_gemm(const float* __restrict__ a,
                               const float* __restrict__ b,
                               float* __restrict__ c, unsigned m, unsigned n,
                               unsigned k) {
  RL_HP_SHARED float ta[RL_GM_TILE][RL_GM_TILE];
  RL_HP_SHARED float tb[RL_GM_TILE][RL_GM_TILE];
  unsigned tx = rl_hp_tid_x(), ty = rl_hp_tid_y();
  unsigned row = rl_hp_block_y() * RL_GM_TILE + ty;
  unsigned col = rl_hp_block_x() * RL_GM_TILE + tx;
  float acc = 0.0f;
  for (unsigned t = 0; t < k; t += RL_GM_TILE) {
    ta[ty][tx] = a[row * k + t + tx];
    tb[ty][tx] = b[(t + ty) * n + col];
    rl_hp_sync();
    for (unsigned j = 0; j < RL_GM_TILE; ++j)
      acc = __builtin_fmaf(ta[ty][j], tb[j][tx], acc);
    rl_hp_sync();
  }
  (void)m;
  c[row * n + col] = acc;
}
