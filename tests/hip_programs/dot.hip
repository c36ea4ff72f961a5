// tests/hip_programs/dot.hip — fp16 and int8 dot products.
//
// hp_dot_half2: out[i] = sum over k of a[i][k] * b[k] for rows of half2,
// in half2 arithmetic (v_pk_mul_f16, v_pk_add_f16: contraction is off, so a
// product is rounded to half before it is added); the two halves of the
// accumulator are added at the end and widened to float.
// hp_dot_int8_builtin: int32 rows of packed int8, accumulated with
// __builtin_amdgcn_sudot4 (v_dot4_i32_iu8, both operands signed).
// hp_dot_int8_plain: the same sum written as plain C (four sign-extended
// byte products per word); the compiler may turn it into v_dot4.
// hp_dot_u8_builtin: __builtin_amdgcn_udot4 (v_dot4_u32_u8).
//
// Launch: block 64x1x1, grid ceil(rows/64); |k| words per row.
#include "hip_device.h"

#pragma clang fp contract(off)

typedef _Float16 rl_half2 __attribute__((ext_vector_type(2)));

RL_HP_DEVICE unsigned rl_dot_row(void) {
  return rl_hp_block_x() * 64u + rl_hp_tid_x();
}

RL_HP_KERNEL(64) void hp_dot_half2(const rl_half2* __restrict__ a,
                                   const rl_half2* __restrict__ b,
                                   float* __restrict__ out, unsigned rows,
                                   unsigned k) {
  unsigned row = rl_dot_row();
  if (row >= rows) return;
  rl_half2 acc = {0, 0};
  for (unsigned j = 0; j < k; ++j) acc = acc + a[row * k + j] * b[j];
  out[row] = (float)(_Float16)(acc.x + acc.y);
}

RL_HP_KERNEL(64) void hp_dot_int8_builtin(const int* __restrict__ a,
                                          const int* __restrict__ b,
                                          int* __restrict__ out,
                                          unsigned rows, unsigned k) {
  unsigned row = rl_dot_row();
  if (row >= rows) return;
  int acc = 0;
  for (unsigned j = 0; j < k; ++j)
    acc = __builtin_amdgcn_sudot4(true, a[row * k + j], true, b[j], acc, false);
  out[row] = acc;
}

RL_HP_KERNEL(64) void hp_dot_int8_plain(const int* __restrict__ a,
                                        const int* __restrict__ b,
                                        int* __restrict__ out, unsigned rows,
                                        unsigned k) {
  unsigned row = rl_dot_row();
  if (row >= rows) return;
  const signed char* pa = (const signed char*)(a + row * k);
  const signed char* pb = (const signed char*)b;
  int acc = 0;
  for (unsigned j = 0; j < 4 * k; j += 4) {
    acc += pa[j] * pb[j] + pa[j + 1] * pb[j + 1] + pa[j + 2] * pb[j + 2] +
           pa[j + 3] * pb[j + 3];
  }
  out[row] = acc;
}

RL_HP_KERNEL(64) void hp_dot_u8_builtin(const unsigned* __restrict__ a,
                                        const unsigned* __restrict__ b,
                                        unsigned* __restrict__ out,
                                        unsigned rows, unsigned k) {
  unsigned row = rl_dot_row();
  if (row >= rows) return;
  unsigned acc = 0;
  for (unsigned j = 0; j < k; ++j)
    acc = __builtin_amdgcn_udot4(a[row * k + j], b[j], acc, false);
  out[row] = acc;
}
