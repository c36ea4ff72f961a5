// CPU references of the corpus programs (hip_programs_ref.h). Built with
// -ffp-contract=off: every float operation rounds where it is written.
#include "tests/hip_programs/hip_programs_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Mismatches printed per comparison; the rest are only counted.
#define RL_HP_REPORT 5u

uint32_t rl_hp_compare_u32(const char* what, const uint32_t* got,
                           const uint32_t* expected, uint32_t count) {
  uint32_t bad = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (got[i] == expected[i]) continue;
    if (bad++ < RL_HP_REPORT) {
      printf("%s[%u]: got 0x%08x, expected 0x%08x\n", what, i, got[i],
             expected[i]);
    }
  }
  return bad;
}

uint32_t rl_hp_compare_u64(const char* what, const uint64_t* got,
                           const uint64_t* expected, uint64_t count) {
  uint32_t bad = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (got[i] == expected[i]) continue;
    if (bad++ < RL_HP_REPORT) {
      printf("%s[%llu]: got 0x%016llx, expected 0x%016llx\n", what,
             (unsigned long long)i, (unsigned long long)got[i],
             (unsigned long long)expected[i]);
    }
  }
  return bad;
}

uint32_t rl_hp_compare_f32(const char* what, const float* got,
                           const float* expected, const float* abs_floor,
                           double rel, uint32_t count) {
  uint32_t bad = 0;
  for (uint32_t i = 0; i < count; ++i) {
    double limit = rel * fabs((double)expected[i]) +
                   (abs_floor ? (double)abs_floor[i] : 0.0);
    double diff = fabs((double)got[i] - (double)expected[i]);
    if (diff <= limit) continue;  // false for NaN
    if (bad++ < RL_HP_REPORT) {
      printf("%s[%u]: got %.9g, expected %.9g (limit %.3g)\n", what, i,
             got[i], expected[i], limit);
    }
  }
  return bad;
}

void rl_hp_ref_transpose(const uint32_t* in, uint32_t rows, uint32_t cols,
                         uint32_t* out) {
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  }
}

void rl_hp_ref_softmax(const float* in, uint32_t rows, uint32_t cols,
                       float* out) {
  for (uint32_t r = 0; r < rows; ++r) {
    const float* row = in + (size_t)r * cols;
    double m = -INFINITY, sum = 0.0;
    for (uint32_t i = 0; i < cols; ++i) m = row[i] > m ? row[i] : m;
    for (uint32_t i = 0; i < cols; ++i) sum += exp((double)row[i] - m);
    for (uint32_t i = 0; i < cols; ++i) {
      out[(size_t)r * cols + i] = (float)(exp((double)row[i] - m) / sum);
    }
  }
}

// The conversions go through the compiler's _Float16 (GCC >= 12 and clang
// on x86-64 convert with round-to-nearest-even, subnormals kept).
uint16_t rl_hp_half_from_float(float value) {
  _Float16 half = (_Float16)value;
  uint16_t bits = 0;
  memcpy(&bits, &half, sizeof(bits));
  return bits;
}

float rl_hp_half_to_float(uint16_t bits) {
  _Float16 half = 0;
  memcpy(&half, &bits, sizeof(bits));
  return (float)half;
}

// One half operation: float holds the exact product of two halves, and a
// float sum rounded again to half is the correctly rounded half sum (24 >=
// 2 * 11 + 2 bits, so the double rounding is innocuous).
static float rl_hp_h(float value) {
  return rl_hp_half_to_float(rl_hp_half_from_float(value));
}

void rl_hp_ref_dot_half2(const uint16_t* a, const uint16_t* b, uint32_t rows,
                         uint32_t k, float* out) {
  for (uint32_t r = 0; r < rows; ++r) {
    float acc[2] = {0.0f, 0.0f};
    for (uint32_t j = 0; j < k; ++j) {
      for (uint32_t h = 0; h < 2; ++h) {
        float p = rl_hp_h(rl_hp_half_to_float(a[2 * ((size_t)r * k + j) + h]) *
                          rl_hp_half_to_float(b[2 * j + h]));
        acc[h] = rl_hp_h(acc[h] + p);
      }
    }
    out[r] = rl_hp_h(acc[0] + acc[1]);
  }
}

static void rl_hp_ref_dot_bytes(const uint32_t* a, const uint32_t* b,
                                uint32_t rows, uint32_t k, int is_signed,
                                uint32_t* out) {
  for (uint32_t r = 0; r < rows; ++r) {
    uint32_t acc = 0;
    for (uint32_t j = 0; j < k; ++j) {
      for (uint32_t byte = 0; byte < 4; ++byte) {
        uint32_t x = (a[(size_t)r * k + j] >> (8 * byte)) & 0xff;
        uint32_t y = (b[j] >> (8 * byte)) & 0xff;
        int32_t sx = is_signed ? (int8_t)x : (int32_t)x;
        int32_t sy = is_signed ? (int8_t)y : (int32_t)y;
        acc += (uint32_t)(sx * sy);
      }
    }
    out[r] = acc;
  }
}

void rl_hp_ref_dot_i8(const uint32_t* a, const uint32_t* b, uint32_t rows,
                      uint32_t k, uint32_t* out) {
  rl_hp_ref_dot_bytes(a, b, rows, k, 1, out);
}

void rl_hp_ref_dot_u8(const uint32_t* a, const uint32_t* b, uint32_t rows,
                      uint32_t k, uint32_t* out) {
  rl_hp_ref_dot_bytes(a, b, rows, k, 0, out);
}

void rl_hp_ref_scan(const uint32_t* in, uint32_t n, uint32_t* out) {
  uint32_t running = 0;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t x = in[i], steps = 0;
    while (x > 1u && steps < 1000u) {
      x = (x & 1u) ? 3u * x + 1u : x >> 1;
      ++steps;
    }
    out[i] = running;
    running += steps;
  }
}

void rl_hp_ref_int64(const uint64_t* a, const uint64_t* b, uint32_t n,
                     uint64_t* out) {
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t x = a[i], y = b[i] | 1u;
    int64_t sx = (int64_t)x, sy = (int64_t)y;
    if (sx == INT64_MIN && sy == -1) sy = 1;
    uint64_t* o = out + 8ull * i;
    o[0] = x / y;
    o[1] = x % y;
    o[2] = (uint64_t)(sx / sy);
    o[3] = (uint64_t)(sx % sy);
    o[4] = x * y;
    o[5] = (uint64_t)(((unsigned __int128)x * y) >> 64);
    o[6] = (x << (y & 63)) ^ (x >> ((y >> 8) & 63));
    o[7] = (uint64_t)(sx >> ((y >> 16) & 63)) + x / 1000000007ull;
  }
}

void rl_hp_ref_histogram(const uint32_t* in, uint32_t n, uint32_t* bins) {
  memset(bins, 0, 256 * sizeof(*bins));
  for (uint32_t i = 0; i < n; ++i) ++bins[(in[i >> 2] >> ((i & 3u) * 8u)) & 0xff];
}

static int rl_hp_u32_order(const void* a, const void* b) {
  uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
  return (x > y) - (x < y);
}

void rl_hp_ref_bitonic(const uint32_t* keys, uint32_t slices, uint32_t* out) {
  memcpy(out, keys, (size_t)slices * 512 * sizeof(*out));
  for (uint32_t s = 0; s < slices; ++s) {
    qsort(out + (size_t)s * 512, 512, sizeof(*out), rl_hp_u32_order);
  }
}

void rl_hp_ref_gemm(const float* a, const float* b, uint32_t m, uint32_t n,
                    uint32_t k, float* c) {
  for (uint32_t row = 0; row < m; ++row) {
    for (uint32_t col = 0; col < n; ++col) {
      float acc = 0.0f;
      for (uint32_t j = 0; j < k; ++j) {
        acc = fmaf(a[(size_t)row * k + j], b[(size_t)j * n + col], acc);
      }
      c[(size_t)row * n + col] = acc;
    }
  }
}

// The kernel's block sum: 64 lane partials in ascending strided order, then
// the LDS tree at strides 32, 16, ..., 1.
static float rl_hp_ln_sum(const float* values, uint32_t cols) {
  float part[64];
  for (uint32_t t = 0; t < 64; ++t) {
    float sum = 0.0f;
    for (uint32_t i = t; i < cols; i += 64) sum = sum + values[i];
    part[t] = sum;
  }
  for (uint32_t s = 32; s > 0; s >>= 1) {
    for (uint32_t t = 0; t < s; ++t) part[t] = part[t] + part[t + s];
  }
  return part[0];
}

// y = d * r * gamma + beta with r = v_rsq_f32(var + eps). The hardware's
// reciprocal square root is documented to about 1 ulp; modelled as the
// correctly rounded value, y then differs from this reference by at most
// 1 ulp of r carried through two products (|d * r * gamma| * 2^-22 covers
// it with room) plus the final rounding (ulp of |y| <= 2^-23 |y|, covered
// by the same bound plus |beta| * 2^-22).
void rl_hp_ref_layernorm(const float* x, const float* gamma, const float* beta,
                         uint32_t rows, uint32_t cols, float eps, float* y,
                         float* y2, float* y_floor) {
  float* d = malloc(cols * sizeof(*d));
  for (uint32_t r = 0; r < rows; ++r) {
    const float* row = x + (size_t)r * cols;
    float mean = rl_hp_ln_sum(row, cols) / (float)cols;
    for (uint32_t i = 0; i < cols; ++i) {
      float diff = row[i] - mean;
      d[i] = diff * diff;
    }
    float var = rl_hp_ln_sum(d, cols) / (float)cols;
    float rs = (float)(1.0 / sqrt((double)(var + eps)));
    float sd = sqrtf(var + eps);
    for (uint32_t i = 0; i < cols; ++i) {
      float diff = row[i] - mean;
      size_t at = (size_t)r * cols + i;
      y[at] = diff * rs * gamma[i] + beta[i];
      y2[at] = diff / sd;
      y_floor[at] = (float)((fabs((double)diff * rs * gamma[i]) +
                             fabs((double)beta[i])) * 0x1p-22);
    }
  }
  free(d);
}
