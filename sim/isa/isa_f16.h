// sim/isa/isa_f16.h — binary16 (IEEE 754 half) conversions of the
// ISA executor (private to rl_sim_isa). Pure inline functions on bit
// patterns; no host _Float16 support is assumed.
//
// Model (RDNA3 ISA guide, "16-bit Math"; FLOAT_DENORM_MODE_16_64 is 3, the
// only mode begin() accepts, so binary16 denormals are kept):
//   - binary16 -> binary32/binary64 is exact (NaN payloads are kept in the
//     top mantissa bits and quieted);
//   - binary64 -> binary16 rounds once to nearest even, overflows to
//     infinity, keeps denormals, quiets NaNs;
//   - binary16 add, sub and mul are computed exactly in binary64 (the exact
//     sum of two binary16 values needs at most 40 significant bits, the
//     product 22) and rounded once, so they are correctly rounded; fma is
//     fma() in binary64 then rounded to binary16, which can differ from a
//     single rounding only when the binary64 result lands exactly on a
//     binary16 tie after its own rounding (a documented 1-ulp tolerance).
#ifndef REDLINE_SIM_ISA_ISA_F16_H_
#define REDLINE_SIM_ISA_ISA_F16_H_

#include <math.h>
#include <stdint.h>

#include "sim/isa/isa_float.h"

static inline double rl_isa_f16_to_f64(uint32_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 31, man = h & 0x3ff;
  double value;
  if (exp == 31) {
    if (man == 0) return sign ? -INFINITY : INFINITY;
    return rl_isa_f64(((uint64_t)sign << 63) | 0x7ff8000000000000ull |
                      ((uint64_t)man << 42));
  }
  value = exp == 0 ? ldexp((double)man, -24)
                   : ldexp((double)(man | 0x400), (int)exp - 25);
  return sign ? -value : value;
}

static inline float rl_isa_f16_to_f32(uint32_t h) {
  return (float)rl_isa_f16_to_f64(h);  // exact
}

// The binary32 bit pattern of |h| for the min/max rule: exact, and a NaN
// keeps its quiet bit (a signalling NaN stays signalling; the conversions
// above quiet it).
static inline uint32_t rl_isa_f16_image32(uint32_t h) {
  h &= 0xffffu;
  if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0) {
    return (h & 0x8000u) << 16 | 0x7f800000u | (h & 0x3ffu) << 13;
  }
  return rl_isa_bits32(rl_isa_f16_to_f32(h));
}

// Rounds |x| to binary16, nearest even.
static inline uint32_t rl_isa_f64_to_f16(double x) {
  uint64_t bits = rl_isa_bits64(x);
  uint32_t sign = (uint32_t)(bits >> 63) << 15;
  if (isnan(x)) {
    return sign | 0x7e00u | (uint32_t)((bits >> 42) & 0x1ff);
  }
  double a = fabs(x);
  if (a >= 65520.0) return sign | 0x7c00u;  // rounds to infinity
  if (a < 0x1p-14) {  // denormal or zero: units of 2^-24, nearest even
    return sign | (uint32_t)nearbyint(a * 0x1p24);
  }
  int e = 0;
  double m = frexp(a, &e);            // a = m * 2^e, m in [0.5, 1)
  double scaled = nearbyint(m * 2048.0);  // 11 significant bits
  if (scaled == 2048.0) {
    scaled = 1024.0;
    ++e;
  }
  uint32_t exp = (uint32_t)(e - 1 + 15);
  if (exp >= 31) return sign | 0x7c00u;
  return sign | (exp << 10) | ((uint32_t)scaled & 0x3ff);
}

static inline uint32_t rl_isa_f32_to_f16(float x) {
  return rl_isa_f64_to_f16((double)x);  // binary32 -> binary64 is exact
}

#endif  // REDLINE_SIM_ISA_ISA_F16_H_
