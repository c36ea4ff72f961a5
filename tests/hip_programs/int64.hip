// tests/hip_programs/int64.hip — 64-bit integer arithmetic, which gfx11 has
// no single instructions for: the compiler expands division and remainder
// (a v_rcp_iflag_f32-seeded Newton iteration on 64 bits, or a loop for
// constants), multiplication (v_mad_u64_u32 / v_mul_hi_u32 / v_mul_lo_u32)
// and variable shifts (v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64).
//
// One work-item per element; eight results per element (see the reference
// in hip_programs_test.c). Divisors are forced nonzero (b | 1), and the
// signed division avoids INT64_MIN / -1.
//
// Launch: block 64x1x1, grid ceil(n/64).
#include "hip_device.h"

RL_HP_KERNEL(64) void hp_int64(const unsigned long long* __restrict__ a,
                               const unsigned long long* __restrict__ b,
                               unsigned long long* __restrict__ out,
                               unsigned n) {
  unsigned i = rl_hp_block_x() * 64u + rl_hp_tid_x();
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i] | 1ull;
  long long sx = (long long)x, sy = (long long)y;
  if (sx == (-9223372036854775807ll - 1) && sy == -1) sy = 1;
  unsigned long long* o = out + 8ull * i;
  o[0] = x / y;
  o[1] = x % y;
  o[2] = (unsigned long long)(sx / sy);
  o[3] = (unsigned long long)(sx % sy);
  o[4] = x * y;
  o[5] = (unsigned long long)(((unsigned __int128)x * y) >> 64);
  o[6] = (x << (y & 63)) ^ (x >> ((y >> 8) & 63));
  o[7] = (unsigned long long)(sx >> ((y >> 16) & 63)) + x / 1000000007ull;
}
