// tests/hip_programs/hip_programs_ref.h — CPU references of the corpus
// programs (tests/hip_programs/*.hip) and the comparisons that check a
// device result against them.
//
// Integer results are compared exactly. Float results are compared exactly
// where the kernel's operation order is reproduced here (compiled with
// -ffp-contract=off; fmaf where the kernel writes __builtin_fmaf), and with
// a stated tolerance only where the kernel uses an approximate hardware
// instruction (v_exp_f32 inside expf, v_rsq_f32): see each function.
//
// Each compare returns the number of mismatching elements and prints the
// first few (program, index, got, expected), so a test can require zero and
// a negative control can require exactly the mismatches it planted.
#ifndef REDLINE_TESTS_HIP_PROGRAMS_HIP_PROGRAMS_REF_H_
#define REDLINE_TESTS_HIP_PROGRAMS_HIP_PROGRAMS_REF_H_

#include <stdint.h>

// Exact comparisons of 32- and 64-bit words.
uint32_t rl_hp_compare_u32(const char* what, const uint32_t* got,
                           const uint32_t* expected, uint32_t count);
uint32_t rl_hp_compare_u64(const char* what, const uint64_t* got,
                           const uint64_t* expected, uint64_t count);

// |got[i] - expected[i]| <= rel * |expected[i]| + abs_floor[i] (abs_floor
// may be NULL: 0); NaN never matches. rel 0 and no floor means bit-exact
// up to the sign of zero.
uint32_t rl_hp_compare_f32(const char* what, const float* got,
                           const float* expected, const float* abs_floor,
                           double rel, uint32_t count);

// transpose.hip: out (cols x rows) = in (rows x cols) transposed.
void rl_hp_ref_transpose(const uint32_t* in, uint32_t rows, uint32_t cols,
                         uint32_t* out);

// softmax.hip in double precision, rounded to float at the end.
void rl_hp_ref_softmax(const float* in, uint32_t rows, uint32_t cols,
                       float* out);

// dot.hip hp_dot_half2: a is rows x k half2 (as uint16 pairs), b is k half2;
// every half2 operation rounded to half as v_pk_mul_f16 / v_pk_add_f16 do.
void rl_hp_ref_dot_half2(const uint16_t* a, const uint16_t* b, uint32_t rows,
                         uint32_t k, float* out);
// hp_dot_int8_* (signed bytes) and hp_dot_u8_builtin (unsigned bytes).
void rl_hp_ref_dot_i8(const uint32_t* a, const uint32_t* b, uint32_t rows,
                      uint32_t k, uint32_t* out);
void rl_hp_ref_dot_u8(const uint32_t* a, const uint32_t* b, uint32_t rows,
                      uint32_t k, uint32_t* out);
// float <-> half (round to nearest even) for inputs and the reference.
uint16_t rl_hp_half_from_float(float value);
float rl_hp_half_to_float(uint16_t bits);

// scan.hip: the exclusive prefix sum of the Collatz step counts of in[].
void rl_hp_ref_scan(const uint32_t* in, uint32_t n, uint32_t* out);

// int64.hip: eight results per element.
void rl_hp_ref_int64(const uint64_t* a, const uint64_t* b, uint32_t n,
                     uint64_t* out);

// histogram.hip: 256 bins of the |n| bytes of in[].
void rl_hp_ref_histogram(const uint32_t* in, uint32_t n, uint32_t* bins);

// bitonic.hip: each 512-key slice sorted ascending.
void rl_hp_ref_bitonic(const uint32_t* keys, uint32_t slices, uint32_t* out);

// gemm.hip: c = a x b with one fmaf per k in ascending order.
void rl_hp_ref_gemm(const float* a, const float* b, uint32_t m, uint32_t n,
                    uint32_t k, float* c);

// layernorm.hip: mean and variance with the kernel's order (64 strided lane
// sums, then the LDS tree), so |y2| (sqrtf and a division, both correctly
// rounded) is exact. |y| uses v_rsq_f32, modelled here as the correctly
// rounded 1/sqrt; |y_floor| receives the per-element absolute tolerance of
// y (see the .c file).
void rl_hp_ref_layernorm(const float* x, const float* gamma, const float* beta,
                         uint32_t rows, uint32_t cols, float eps, float* y,
                         float* y2, float* y_floor);

#endif  // REDLINE_TESTS_HIP_PROGRAMS_HIP_PROGRAMS_REF_H_
