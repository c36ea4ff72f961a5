// Ordinary HIP programs (tests/hip_programs/*.hip, docs/hip-programs.md)
// run by the `isa` executor through the recording funnel, each checked
// against its CPU reference (hip_programs_ref.h):
//   - every program on gfx1100 and gfx1151 at -O2, scan at -O1 and int64 at
//     -Os on gfx1100 (differently laid-out code), softmax with
//     -fgpu-flush-denormals-to-zero (s_denorm_mode around the division);
//   - the negative control: each program again with one planted error in
//     its reference, which its comparison must report exactly once;
//   - transpose, reduce and scan captured to .rlc and replayed by
//     `redline shadow --executor isa` (four arms, byte-exact).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "tests/hip_programs/hip_programs_harness.h"
#include "tests/hip_programs/hip_programs_ref.h"

// What one run of a program is asked to do.
typedef struct rl_hp_run_s {
  const char* target;
  const char* variant;
  // Plants one wrong element in the reference (the negative control).
  bool corrupt_reference;
  // Declares regions and writes the capture here when set.
  const char* capture_path;
} rl_hp_run_t;

typedef uint32_t (*rl_hp_program_fn)(const rl_hp_run_t* run);

static uint64_t rl_hp_seed(const char* program) {
  uint64_t seed = 0x5eed;
  for (const char* p = program; *p; ++p) seed = seed * 131u + (uint8_t)*p;
  return seed;
}

static void rl_hp_fill_u32(uint32_t* data, size_t count, uint64_t* state) {
  for (size_t i = 0; i < count; ++i) data[i] = (uint32_t)rl_hp_next(state);
}

static float rl_hp_uniform(uint64_t* state, float amplitude) {
  double u = (double)(rl_hp_next(state) >> 40) * 0x1p-23 - 1.0;
  return (float)(u * amplitude);
}

static void rl_hp_finish(rl_hp_t* hp, const rl_hp_run_t* run) {
  if (run->capture_path) rl_hp_write_capture(hp, run->capture_path);
  rl_hp_close(hp);
}

// ---------------------------------------------------------------------------
// The programs. Each returns the number of mismatching elements.

static uint32_t rl_hp_transpose(const rl_hp_run_t* run) {
  enum { kRows = 200, kCols = 136 };
  uint64_t state = rl_hp_seed("transpose");
  uint32_t* in = malloc(kRows * kCols * 4);
  uint32_t* got = malloc(kRows * kCols * 4);
  uint32_t* expected = malloc(kRows * kCols * 4);
  rl_hp_fill_u32(in, kRows * kCols, &state);
  rl_hp_t hp;
  rl_hp_open(&hp, "transpose", run->target, run->variant);
  uint64_t a_in = 0, a_out = 0;
  rl_hp_buffer(&hp, "in", in, kRows * kCols * 4, &a_in);
  uint32_t out = rl_hp_buffer(&hp, "out", NULL, kRows * kCols * 4, &a_out);
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(a_in), rl_funnel_arg_pointer(a_out),
      rl_funnel_arg_u32(kRows), rl_funnel_arg_u32(kCols)};
  rl_hp_launch(&hp, "hp_transpose", (kCols + 31) / 32, (kRows + 31) / 32, 32,
               8, args, 4);
  rl_hp_read(&hp, out, got, kRows * kCols * 4);
  if (run->capture_path) {
    rl_hp_region(&hp, "out", out, kRows * kCols * 4, RL_REGION_U32);
  }
  rl_hp_finish(&hp, run);
  rl_hp_ref_transpose(in, kRows, kCols, expected);
  if (run->corrupt_reference) expected[777] ^= 1u;
  uint32_t bad = rl_hp_compare_u32("transpose", got, expected, kRows * kCols);
  free(in);
  free(got);
  free(expected);
  return bad;
}

// hp_reduce_dpp (reduce.hip): DPP scans, reductions and permutes of
// |in|'s first kN elements, checked against the lane arithmetic they spell
// (wave32: rows of 16 lanes, banks of 4).
static uint32_t rl_hp_reduce_dpp(const rl_hp_run_t* run, const uint32_t* in) {
  enum { kN = 2048, kWaves = kN / 32 };
  rl_hp_t hp;
  rl_hp_open(&hp, "reduce", run->target, run->variant);
  uint64_t a_in = 0, a_scan = 0, a_perm = 0, a_masked = 0, a_sum = 0,
           a_fsum = 0;
  rl_hp_buffer(&hp, "in", in, kN * 4, &a_in);
  uint32_t scan = rl_hp_buffer(&hp, "scan", NULL, kN * 4, &a_scan);
  uint32_t perm = rl_hp_buffer(&hp, "perm", NULL, kN * 4, &a_perm);
  uint32_t masked = rl_hp_buffer(&hp, "masked", NULL, kN * 4, &a_masked);
  uint32_t sum = rl_hp_buffer(&hp, "wave_sum", NULL, kWaves * 4, &a_sum);
  uint32_t fsum = rl_hp_buffer(&hp, "wave_fsum", NULL, kWaves * 4, &a_fsum);
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(a_in),     rl_funnel_arg_pointer(a_scan),
      rl_funnel_arg_pointer(a_perm),   rl_funnel_arg_pointer(a_masked),
      rl_funnel_arg_pointer(a_sum),    rl_funnel_arg_pointer(a_fsum)};
  rl_hp_launch(&hp, "hp_reduce_dpp", kN / 256, 1, 256, 1, args, 6);
  uint32_t* got = malloc(kN * 4 * 3 + kWaves * 8);
  uint32_t* want = malloc(kN * 4 * 3 + kWaves * 8);
  rl_hp_read(&hp, scan, got, kN * 4);
  rl_hp_read(&hp, perm, got + kN, kN * 4);
  rl_hp_read(&hp, masked, got + 2 * kN, kN * 4);
  rl_hp_read(&hp, sum, got + 3 * kN, kWaves * 4);
  rl_hp_read(&hp, fsum, got + 3 * kN + kWaves, kWaves * 4);
  rl_hp_close(&hp);  // the reduce capture holds the other three kernels
  for (uint32_t i = 0; i < kN; ++i) {
    uint32_t lane = i % 32, row0 = i - i % 16, pos = i % 16;
    uint32_t acc = 0;
    for (uint32_t j = row0; j <= i; ++j) acc += in[j];
    want[i] = acc;
    want[kN + i] = in[(i & ~7u) | (7 - (i & 7))];
    bool enabled = lane < 16 && (((0xau >> (pos / 4)) & 1) != 0);
    want[2 * kN + i] = enabled && pos >= 3 ? in[i - 3] : ~in[i];
  }
  for (uint32_t w = 0; w < kWaves; ++w) {
    uint32_t total = 0;
    float ftotal = 0.0f;
    for (uint32_t l = 0; l < 32; ++l) {
      total += in[w * 32 + l];
      ftotal += (float)(in[w * 32 + l] & 0xffff);  // exact: below 2^24
    }
    want[3 * kN + w] = total;
    memcpy(&want[3 * kN + kWaves + w], &ftotal, 4);
  }
  uint32_t bad = rl_hp_compare_u32("reduce_dpp", got, want, 3 * kN + 2 * kWaves);
  free(got);
  free(want);
  return bad;
}

static uint32_t rl_hp_reduce(const rl_hp_run_t* run) {
  enum { kN = 50000, kGroups = 8 };
  uint64_t state = rl_hp_seed("reduce");
  uint32_t* in = malloc(kN * 4);
  uint64_t* in64 = malloc(kN * 8);
  rl_hp_fill_u32(in, kN, &state);
  for (uint32_t i = 0; i < kN; ++i) in64[i] = rl_hp_next(&state) >> 12;
  const int32_t max_init = INT32_MIN;
  rl_hp_t hp;
  rl_hp_open(&hp, "reduce", run->target, run->variant);
  uint64_t a_in = 0, a_in64 = 0, a_sum = 0, a_max = 0, a_sum64 = 0;
  rl_hp_buffer(&hp, "in", in, kN * 4, &a_in);
  rl_hp_buffer(&hp, "in64", in64, kN * 8, &a_in64);
  uint32_t sum = rl_hp_buffer(&hp, "sum", NULL, 4, &a_sum);
  uint32_t max = rl_hp_buffer(&hp, "max", &max_init, 4, &a_max);
  uint32_t sum64 = rl_hp_buffer(&hp, "sum64", NULL, 8, &a_sum64);
  const rl_funnel_arg_t sum_args[] = {rl_funnel_arg_pointer(a_in),
                                      rl_funnel_arg_pointer(a_sum),
                                      rl_funnel_arg_u32(kN)};
  const rl_funnel_arg_t max_args[] = {rl_funnel_arg_pointer(a_in),
                                      rl_funnel_arg_pointer(a_max),
                                      rl_funnel_arg_u32(kN)};
  const rl_funnel_arg_t sum64_args[] = {rl_funnel_arg_pointer(a_in64),
                                        rl_funnel_arg_pointer(a_sum64),
                                        rl_funnel_arg_u32(kN)};
  rl_hp_launch(&hp, "hp_reduce_sum", kGroups, 1, 256, 1, sum_args, 3);
  rl_hp_launch(&hp, "hp_reduce_max", kGroups, 1, 256, 1, max_args, 3);
  rl_hp_launch(&hp, "hp_reduce_sum64", kGroups, 1, 256, 1, sum64_args, 3);
  uint32_t got[2];
  uint64_t got64 = 0;
  rl_hp_read(&hp, sum, &got[0], 4);
  rl_hp_read(&hp, max, &got[1], 4);
  rl_hp_read(&hp, sum64, &got64, 8);
  if (run->capture_path) {
    rl_hp_region(&hp, "sum", sum, 4, RL_REGION_U32);
    rl_hp_region(&hp, "max", max, 4, RL_REGION_I32);
    rl_hp_region(&hp, "sum64", sum64, 8, RL_REGION_BYTES);
  }
  rl_hp_finish(&hp, run);
  uint32_t expected[2] = {0, (uint32_t)INT32_MIN};
  uint64_t expected64 = 0;
  for (uint32_t i = 0; i < kN; ++i) {
    expected[0] += in[i];
    if ((int32_t)in[i] > (int32_t)expected[1]) expected[1] = in[i];
    expected64 += in64[i];
  }
  if (run->corrupt_reference) expected[1] ^= 1u;
  uint32_t bad = rl_hp_compare_u32("reduce", got, expected, 2) +
                 rl_hp_compare_u64("reduce_sum64", &got64, &expected64, 1) +
                 rl_hp_reduce_dpp(run, in);
  free(in);
  free(in64);
  return bad;
}

static uint32_t rl_hp_softmax(const rl_hp_run_t* run) {
  enum { kRows = 12, kCols = 1000 };
  uint64_t state = rl_hp_seed("softmax");
  float* in = malloc(kRows * kCols * 4);
  float* got = malloc(kRows * kCols * 4);
  float* expected = malloc(kRows * kCols * 4);
  for (uint32_t i = 0; i < kRows * kCols; ++i) in[i] = rl_hp_uniform(&state, 8);
  rl_hp_t hp;
  rl_hp_open(&hp, "softmax", run->target, run->variant);
  uint64_t a_in = 0, a_out = 0;
  rl_hp_buffer(&hp, "in", in, kRows * kCols * 4, &a_in);
  uint32_t out = rl_hp_buffer(&hp, "out", NULL, kRows * kCols * 4, &a_out);
  const rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(a_in),
                                  rl_funnel_arg_pointer(a_out),
                                  rl_funnel_arg_u32(kCols)};
  rl_hp_launch(&hp, "hp_softmax", kRows, 1, 256, 1, args, 3);
  rl_hp_read(&hp, out, got, kRows * kCols * 4);
  rl_hp_finish(&hp, run);
  rl_hp_ref_softmax(in, kRows, kCols, expected);
  if (run->corrupt_reference) expected[4242] *= 1.001f;
  // Tolerance 2^-20 relative (8 ulp at the top of a binade). The
  // reference is exact (double), rounded once. The kernel's expf is clang's
  // own expansion around v_exp_f32 (range reduction with fma, then 2^f,
  // documented to about 1 ulp), so each term carries an ulp or two; the
  // row sum adds float rounding along the lane loop and the LDS tree, and
  // the division one more rounding. Measured: under 2 ulp (2.4e-7) on
  // both targets; 2^-20 leaves four times that, while a real mistake (a
  // wrong term, maximum or sum) moves results by far more.
  uint32_t bad = rl_hp_compare_f32("softmax", got, expected, NULL, 0x1p-20,
                                   kRows * kCols);
  free(in);
  free(got);
  free(expected);
  return bad;
}

static uint32_t rl_hp_dot(const rl_hp_run_t* run) {
  enum { kRows = 200, kK = 64 };
  uint64_t state = rl_hp_seed("dot");
  uint16_t* ha = malloc(kRows * kK * 4);
  uint16_t* hb = malloc(kK * 4);
  uint32_t* ia = malloc(kRows * kK * 4);
  uint32_t* ib = malloc(kK * 4);
  for (uint32_t i = 0; i < kRows * kK * 2; ++i) {
    ha[i] = rl_hp_half_from_float(rl_hp_uniform(&state, 2));
  }
  for (uint32_t i = 0; i < kK * 2; ++i) {
    hb[i] = rl_hp_half_from_float(rl_hp_uniform(&state, 2));
  }
  rl_hp_fill_u32(ia, kRows * kK, &state);
  rl_hp_fill_u32(ib, kK, &state);
  rl_hp_t hp;
  rl_hp_open(&hp, "dot", run->target, run->variant);
  uint64_t a_ha = 0, a_hb = 0, a_ia = 0, a_ib = 0, a_out[4] = {0};
  rl_hp_buffer(&hp, "ha", ha, kRows * kK * 4, &a_ha);
  rl_hp_buffer(&hp, "hb", hb, kK * 4, &a_hb);
  rl_hp_buffer(&hp, "ia", ia, kRows * kK * 4, &a_ia);
  rl_hp_buffer(&hp, "ib", ib, kK * 4, &a_ib);
  static const char* const kernels[4] = {
      "hp_dot_half2", "hp_dot_int8_builtin", "hp_dot_int8_plain",
      "hp_dot_u8_builtin"};
  uint32_t out[4];
  for (uint32_t k = 0; k < 4; ++k) {
    out[k] = rl_hp_buffer(&hp, kernels[k], NULL, kRows * 4, &a_out[k]);
    const rl_funnel_arg_t args[] = {
        rl_funnel_arg_pointer(k == 0 ? a_ha : a_ia),
        rl_funnel_arg_pointer(k == 0 ? a_hb : a_ib),
        rl_funnel_arg_pointer(a_out[k]), rl_funnel_arg_u32(kRows),
        rl_funnel_arg_u32(kK)};
    rl_hp_launch(&hp, kernels[k], (kRows + 63) / 64, 1, 64, 1, args, 5);
  }
  uint32_t got[4][kRows], expected[4][kRows];
  for (uint32_t k = 0; k < 4; ++k) rl_hp_read(&hp, out[k], got[k], kRows * 4);
  rl_hp_finish(&hp, run);
  rl_hp_ref_dot_half2(ha, hb, kRows, kK, (float*)expected[0]);
  rl_hp_ref_dot_i8(ia, ib, kRows, kK, expected[1]);
  rl_hp_ref_dot_i8(ia, ib, kRows, kK, expected[2]);
  rl_hp_ref_dot_u8(ia, ib, kRows, kK, expected[3]);
  if (run->corrupt_reference) expected[2][17] += 1u;
  // Every half operation is reproduced with its rounding: exact.
  uint32_t bad = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    bad += rl_hp_compare_u32(kernels[k], got[k], expected[k], kRows);
  }
  free(ha);
  free(hb);
  free(ia);
  free(ib);
  return bad;
}

static uint32_t rl_hp_scan(const rl_hp_run_t* run) {
  enum { kN = 10000, kGroups = (kN + 255) / 256 };
  uint64_t state = rl_hp_seed("scan");
  uint32_t* in = malloc(kN * 4);
  uint32_t* got = malloc(kN * 4);
  uint32_t* expected = malloc(kN * 4);
  for (uint32_t i = 0; i < kN; ++i) in[i] = (uint32_t)(rl_hp_next(&state) >> 44);
  rl_hp_t hp;
  rl_hp_open(&hp, "scan", run->target, run->variant);
  uint64_t a_in = 0, a_out = 0, a_totals = 0;
  rl_hp_buffer(&hp, "in", in, kN * 4, &a_in);
  uint32_t out = rl_hp_buffer(&hp, "out", NULL, kN * 4, &a_out);
  uint32_t totals = rl_hp_buffer(&hp, "totals", NULL, kGroups * 4, &a_totals);
  const rl_funnel_arg_t blocks[] = {
      rl_funnel_arg_pointer(a_in), rl_funnel_arg_pointer(a_out),
      rl_funnel_arg_pointer(a_totals), rl_funnel_arg_u32(kN)};
  const rl_funnel_arg_t scan_totals[] = {rl_funnel_arg_pointer(a_totals),
                                         rl_funnel_arg_u32(kGroups)};
  const rl_funnel_arg_t add[] = {rl_funnel_arg_pointer(a_out),
                                 rl_funnel_arg_pointer(a_totals),
                                 rl_funnel_arg_u32(kN)};
  rl_hp_launch(&hp, "hp_scan_blocks", kGroups, 1, 256, 1, blocks, 4);
  rl_hp_launch(&hp, "hp_scan_totals", 1, 1, 256, 1, scan_totals, 2);
  rl_hp_launch(&hp, "hp_scan_add", kGroups, 1, 256, 1, add, 3);
  rl_hp_read(&hp, out, got, kN * 4);
  if (run->capture_path) {
    rl_hp_region(&hp, "out", out, kN * 4, RL_REGION_U32);
    rl_hp_region(&hp, "totals", totals, kGroups * 4, RL_REGION_U32);
  }
  rl_hp_finish(&hp, run);
  rl_hp_ref_scan(in, kN, expected);
  if (run->corrupt_reference) expected[kN - 1] += 1u;
  uint32_t bad = rl_hp_compare_u32("scan", got, expected, kN);
  free(in);
  free(got);
  free(expected);
  return bad;
}

static uint32_t rl_hp_int64(const rl_hp_run_t* run) {
  enum { kN = 1000 };
  uint64_t state = rl_hp_seed("int64");
  uint64_t* a = malloc(kN * 8);
  uint64_t* b = malloc(kN * 8);
  uint64_t* got = malloc(kN * 64);
  uint64_t* expected = malloc(kN * 64);
  for (uint32_t i = 0; i < kN; ++i) {
    // Mixed magnitudes: full 64-bit, 32-bit and small divisors, negatives.
    uint32_t shape = i % 4;
    a[i] = rl_hp_next(&state) >> (shape == 1 ? 20 : 0);
    b[i] = rl_hp_next(&state) >> (shape == 0 ? 0 : shape == 1 ? 32 : 56);
    if (i % 7 == 3) b[i] = (uint64_t)-(int64_t)(b[i] >> 8);
  }
  a[0] = (uint64_t)INT64_MIN;
  b[0] = UINT64_MAX;  // INT64_MIN / -1, which the kernel avoids
  rl_hp_t hp;
  rl_hp_open(&hp, "int64", run->target, run->variant);
  uint64_t a_a = 0, a_b = 0, a_out = 0;
  rl_hp_buffer(&hp, "a", a, kN * 8, &a_a);
  rl_hp_buffer(&hp, "b", b, kN * 8, &a_b);
  uint32_t out = rl_hp_buffer(&hp, "out", NULL, kN * 64, &a_out);
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(a_a), rl_funnel_arg_pointer(a_b),
      rl_funnel_arg_pointer(a_out), rl_funnel_arg_u32(kN)};
  rl_hp_launch(&hp, "hp_int64", (kN + 63) / 64, 1, 64, 1, args, 4);
  rl_hp_read(&hp, out, got, kN * 64);
  rl_hp_finish(&hp, run);
  rl_hp_ref_int64(a, b, kN, expected);
  if (run->corrupt_reference) expected[8 * 500 + 2] ^= 1ull << 40;
  uint32_t bad = rl_hp_compare_u64("int64", got, expected, 8ull * kN);
  free(a);
  free(b);
  free(got);
  free(expected);
  return bad;
}

static uint32_t rl_hp_histogram(const rl_hp_run_t* run) {
  enum { kBytes = 100000, kGroups = 16 };
  uint64_t state = rl_hp_seed("histogram");
  uint32_t* in = malloc(kBytes);
  // Skewed bytes (a small range is hit often) so LDS atomics collide.
  for (uint32_t i = 0; i < kBytes / 4; ++i) {
    uint32_t word = (uint32_t)rl_hp_next(&state);
    in[i] = (i & 1) ? word : word & 0x0f0f0f0fu;
  }
  rl_hp_t hp;
  rl_hp_open(&hp, "histogram", run->target, run->variant);
  uint64_t a_in = 0, a_bins = 0;
  rl_hp_buffer(&hp, "in", in, kBytes, &a_in);
  uint32_t bins = rl_hp_buffer(&hp, "bins", NULL, 256 * 4, &a_bins);
  const rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(a_in),
                                  rl_funnel_arg_pointer(a_bins),
                                  rl_funnel_arg_u32(kBytes)};
  rl_hp_launch(&hp, "hp_histogram", kGroups, 1, 256, 1, args, 3);
  uint32_t got[256], expected[256];
  rl_hp_read(&hp, bins, got, sizeof(got));
  rl_hp_finish(&hp, run);
  rl_hp_ref_histogram(in, kBytes, expected);
  if (run->corrupt_reference) expected[3] += 1u;
  free(in);
  return rl_hp_compare_u32("histogram", got, expected, 256);
}

static uint32_t rl_hp_bitonic(const rl_hp_run_t* run) {
  enum { kSlices = 6, kKeys = kSlices * 512 };
  uint64_t state = rl_hp_seed("bitonic");
  uint32_t keys[kKeys], got[kKeys], expected[kKeys];
  rl_hp_fill_u32(keys, kKeys, &state);
  for (uint32_t i = 0; i < kKeys; i += 5) keys[i] &= 0xffu;  // duplicates
  rl_hp_t hp;
  rl_hp_open(&hp, "bitonic", run->target, run->variant);
  uint64_t a_keys = 0;
  uint32_t buffer = rl_hp_buffer(&hp, "keys", keys, sizeof(keys), &a_keys);
  const rl_funnel_arg_t args[] = {rl_funnel_arg_pointer(a_keys)};
  rl_hp_launch(&hp, "hp_bitonic", kSlices, 1, 256, 1, args, 1);
  rl_hp_read(&hp, buffer, got, sizeof(got));
  rl_hp_finish(&hp, run);
  rl_hp_ref_bitonic(keys, kSlices, expected);
  if (run->corrupt_reference) expected[1000] ^= 0x80000000u;
  return rl_hp_compare_u32("bitonic", got, expected, kKeys);
}

static uint32_t rl_hp_gemm(const rl_hp_run_t* run) {
  enum { kM = 48, kN = 64, kK = 80 };
  uint64_t state = rl_hp_seed("gemm");
  static float a[kM * kK], b[kK * kN], got[kM * kN], expected[kM * kN];
  for (uint32_t i = 0; i < kM * kK; ++i) a[i] = rl_hp_uniform(&state, 1);
  for (uint32_t i = 0; i < kK * kN; ++i) b[i] = rl_hp_uniform(&state, 1);
  rl_hp_t hp;
  rl_hp_open(&hp, "gemm", run->target, run->variant);
  uint64_t a_a = 0, a_b = 0, a_c = 0;
  rl_hp_buffer(&hp, "a", a, sizeof(a), &a_a);
  rl_hp_buffer(&hp, "b", b, sizeof(b), &a_b);
  uint32_t c = rl_hp_buffer(&hp, "c", NULL, sizeof(got), &a_c);
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(a_a), rl_funnel_arg_pointer(a_b),
      rl_funnel_arg_pointer(a_c), rl_funnel_arg_u32(kM), rl_funnel_arg_u32(kN),
      rl_funnel_arg_u32(kK)};
  rl_hp_launch(&hp, "hp_gemm", kN / 16, kM / 16, 16, 16, args, 6);
  rl_hp_read(&hp, c, got, sizeof(got));
  rl_hp_finish(&hp, run);
  rl_hp_ref_gemm(a, b, kM, kN, kK, expected);
  if (run->corrupt_reference) expected[99] = nextafterf(expected[99], 2.0f);
  // One fmaf per k in the kernel's order: exact.
  return rl_hp_compare_f32("gemm", got, expected, NULL, 0.0, kM * kN);
}

static uint32_t rl_hp_layernorm(const rl_hp_run_t* run) {
  enum { kRows = 10, kCols = 300 };
  const float eps = 1e-5f;
  uint64_t state = rl_hp_seed("layernorm");
  static float x[kRows * kCols], gamma[kCols], beta[kCols];
  static float y[kRows * kCols], y2[kRows * kCols];
  static float ey[kRows * kCols], ey2[kRows * kCols], y_floor[kRows * kCols];
  for (uint32_t i = 0; i < kRows * kCols; ++i) {
    x[i] = rl_hp_uniform(&state, 3) + (float)(i / kCols);
  }
  for (uint32_t i = 0; i < kCols; ++i) {
    gamma[i] = rl_hp_uniform(&state, 2);
    beta[i] = rl_hp_uniform(&state, 1);
  }
  rl_hp_t hp;
  rl_hp_open(&hp, "layernorm", run->target, run->variant);
  uint64_t a_x = 0, a_g = 0, a_b = 0, a_y = 0, a_y2 = 0;
  rl_hp_buffer(&hp, "x", x, sizeof(x), &a_x);
  rl_hp_buffer(&hp, "gamma", gamma, sizeof(gamma), &a_g);
  rl_hp_buffer(&hp, "beta", beta, sizeof(beta), &a_b);
  uint32_t by = rl_hp_buffer(&hp, "y", NULL, sizeof(y), &a_y);
  uint32_t by2 = rl_hp_buffer(&hp, "y2", NULL, sizeof(y2), &a_y2);
  const rl_funnel_arg_t args[] = {
      rl_funnel_arg_pointer(a_x), rl_funnel_arg_pointer(a_g),
      rl_funnel_arg_pointer(a_b), rl_funnel_arg_pointer(a_y),
      rl_funnel_arg_pointer(a_y2), rl_funnel_arg_u32(kCols),
      rl_funnel_arg_f32(eps)};
  rl_hp_launch(&hp, "hp_layernorm", kRows, 1, 64, 1, args, 7);
  rl_hp_read(&hp, by, y, sizeof(y));
  rl_hp_read(&hp, by2, y2, sizeof(y2));
  rl_hp_finish(&hp, run);
  rl_hp_ref_layernorm(x, gamma, beta, kRows, kCols, eps, ey, ey2, y_floor);
  if (run->corrupt_reference) ey2[123] = nextafterf(ey2[123], 10.0f);
  // y: v_rsq_f32's ulp carried through (floor, see the reference); y2:
  // sqrtf and the division are correctly rounded, so exact.
  return rl_hp_compare_f32("layernorm_y", y, ey, y_floor, 0.0, kRows * kCols) +
         rl_hp_compare_f32("layernorm_y2", y2, ey2, NULL, 0.0, kRows * kCols);
}

// ---------------------------------------------------------------------------
// The test matrix.

typedef struct rl_hp_case_s {
  const char* program;
  rl_hp_program_fn run;
} rl_hp_case_t;

static const rl_hp_case_t rl_hp_cases[] = {
    {"transpose", rl_hp_transpose}, {"reduce", rl_hp_reduce},
    {"softmax", rl_hp_softmax},     {"dot", rl_hp_dot},
    {"scan", rl_hp_scan},           {"int64", rl_hp_int64},
    {"histogram", rl_hp_histogram}, {"bitonic", rl_hp_bitonic},
    {"gemm", rl_hp_gemm},           {"layernorm", rl_hp_layernorm},
};
#define RL_HP_CASE_COUNT (sizeof(rl_hp_cases) / sizeof(rl_hp_cases[0]))

static const rl_hp_case_t* rl_hp_case(const char* program) {
  for (size_t i = 0; i < RL_HP_CASE_COUNT; ++i) {
    if (strcmp(rl_hp_cases[i].program, program) == 0) return &rl_hp_cases[i];
  }
  fail_msg("no program %s", program);
  return NULL;
}

static void rl_hp_expect_pass(const char* program, const char* target,
                              const char* variant) {
  rl_hp_run_t run = {.target = target, .variant = variant};
  uint32_t bad = rl_hp_case(program)->run(&run);
  if (bad) fail_msg("%s %s%s: %u mismatches", program, target, variant, bad);
}

#define RL_HP_TEST(program, target, variant)                    \
  static void test_##program##_##target(void** state) {         \
    (void)state;                                                \
    rl_hp_expect_pass(#program, #target, variant);              \
  }
#define RL_HP_TARGETS(program) \
  RL_HP_TEST(program, gfx1100, "") RL_HP_TEST(program, gfx1151, "")
RL_HP_TARGETS(transpose)
RL_HP_TARGETS(reduce)
RL_HP_TARGETS(softmax)
RL_HP_TARGETS(dot)
RL_HP_TARGETS(scan)
RL_HP_TARGETS(int64)
RL_HP_TARGETS(histogram)
RL_HP_TARGETS(bitonic)
RL_HP_TARGETS(gemm)
RL_HP_TARGETS(layernorm)

static void test_scan_gfx1100_O1(void** state) {
  (void)state;
  rl_hp_expect_pass("scan", "gfx1100", "-O1");
}

static void test_int64_gfx1100_Os(void** state) {
  (void)state;
  rl_hp_expect_pass("int64", "gfx1100", "-Os");
}

static void test_softmax_gfx1100_ftz(void** state) {
  (void)state;
  rl_hp_expect_pass("softmax", "gfx1100", "-ftz");
}

// The negative control: one planted error in each reference must be
// reported exactly once, so every comparison above can fail.
static void test_negative_control(void** state) {
  (void)state;
  for (size_t i = 0; i < RL_HP_CASE_COUNT; ++i) {
    rl_hp_run_t run = {.target = "gfx1100", .variant = "",
                       .corrupt_reference = true};
    uint32_t bad = rl_hp_cases[i].run(&run);
    if (bad != 1) {
      fail_msg("%s: the planted error gave %u mismatches, expected 1",
               rl_hp_cases[i].program, bad);
    }
  }
}

// Captures |program| on gfx1100 and replays it with `redline shadow
// --executor isa` over all four arms; the arms must agree byte for byte.
static void rl_hp_shadow(const char* program) {
  char dir[] = "/tmp/rl_hip_programs.XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256], command[1024];
  snprintf(path, sizeof(path), "%s/%s.rlc", dir, program);
  rl_hp_run_t run = {.target = "gfx1100", .variant = "", .capture_path = path};
  assert_int_equal(rl_hp_case(program)->run(&run), 0);
  snprintf(command, sizeof(command),
           "'%s' shadow '%s' --arms eager,recorded,aql,pm4 --executor isa "
           "> '%s/out.txt' 2>&1",
           RL_REDLINE_BIN, path, dir);
  int code = system(command);
  snprintf(command, sizeof(command), "cat '%s/out.txt'; rm -rf '%s'", dir, dir);
  if (code != 0) {
    (void)system(command);
    fail_msg("redline shadow on %s exited with %d", program, code);
  }
  snprintf(command, sizeof(command), "rm -rf '%s'", dir);
  assert_int_equal(system(command), 0);
}

static void test_shadow_transpose(void** state) {
  (void)state;
  rl_hp_shadow("transpose");
}

static void test_shadow_reduce(void** state) {
  (void)state;
  rl_hp_shadow("reduce");
}

static void test_shadow_scan(void** state) {
  (void)state;
  rl_hp_shadow("scan");
}

#define RL_HP_ENTRIES(program)                 \
  cmocka_unit_test(test_##program##_gfx1100), \
      cmocka_unit_test(test_##program##_gfx1151)

int main(void) {
  const struct CMUnitTest tests[] = {
      RL_HP_ENTRIES(transpose), RL_HP_ENTRIES(reduce),
      RL_HP_ENTRIES(softmax),   RL_HP_ENTRIES(dot),
      RL_HP_ENTRIES(scan),      RL_HP_ENTRIES(int64),
      RL_HP_ENTRIES(histogram), RL_HP_ENTRIES(bitonic),
      RL_HP_ENTRIES(gemm),      RL_HP_ENTRIES(layernorm),
      cmocka_unit_test(test_scan_gfx1100_O1),
      cmocka_unit_test(test_int64_gfx1100_Os),
      cmocka_unit_test(test_softmax_gfx1100_ftz),
      cmocka_unit_test(test_negative_control),
      cmocka_unit_test(test_shadow_transpose),
      cmocka_unit_test(test_shadow_reduce),
      cmocka_unit_test(test_shadow_scan),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  rl_isa_executor_clear_cache();
  return failed;
}
