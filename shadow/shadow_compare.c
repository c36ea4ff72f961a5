// The byte comparator of shadow runs (shadow/shadow_compare.h).
#include "shadow/shadow_compare.h"

#include <math.h>
#include <string.h>

double rl_shadow_f16_to_double(uint16_t bits) {
  int sign = bits >> 15;
  int exponent = (bits >> 10) & 0x1F;
  int mantissa = bits & 0x3FF;
  double value;
  if (exponent == 0) {
    value = ldexp((double)mantissa, -24);  // subnormal: m x 2^-24
  } else if (exponent == 31) {
    value = mantissa ? NAN : INFINITY;
  } else {
    value = ldexp((double)(mantissa | 0x400), exponent - 25);
  }
  return sign ? -value : value;
}

double rl_shadow_bf16_to_double(uint16_t bits) {
  uint32_t word = (uint32_t)bits << 16;
  float value;
  memcpy(&value, &word, sizeof(value));
  return value;
}

static uint32_t rl_shadow_element_size(rl_region_type_t type) {
  switch (type) {
    case RL_REGION_F32: return 4;
    case RL_REGION_F16:
    case RL_REGION_BF16: return 2;
    default: return 0;
  }
}

static double rl_shadow_element(rl_region_type_t type, const uint8_t* bytes) {
  if (type == RL_REGION_F32) {
    uint32_t word = (uint32_t)bytes[0] | ((uint32_t)bytes[1] << 8) |
                    ((uint32_t)bytes[2] << 16) | ((uint32_t)bytes[3] << 24);
    float value;
    memcpy(&value, &word, sizeof(value));
    return value;
  }
  uint16_t half = (uint16_t)(bytes[0] | (bytes[1] << 8));
  return type == RL_REGION_F16 ? rl_shadow_f16_to_double(half)
                               : rl_shadow_bf16_to_double(half);
}

// |a - b| for two elements whose bytes differ: +inf unless both are finite.
static double rl_shadow_abs_difference(double a, double b) {
  if (!isfinite(a) || !isfinite(b)) return INFINITY;
  double difference = fabs(a - b);
  return difference;
}

static double rl_shadow_max_abs(rl_region_type_t type, const uint8_t* a,
                                const uint8_t* b, uint64_t size,
                                uint64_t first) {
  uint32_t element = rl_shadow_element_size(type);
  double max = 0.0;
  for (uint64_t i = first - first % element; i + element <= size;
       i += element) {
    if (memcmp(a + i, b + i, element) == 0) continue;
    double difference = rl_shadow_abs_difference(rl_shadow_element(type, a + i),
                                                 rl_shadow_element(type, b + i));
    // A difference in bits that is 0 numerically (+0 vs -0) stays 0.
    if (difference > max || isnan(difference)) max = difference;
  }
  return max;
}

void rl_shadow_compare(rl_region_type_t type, const uint8_t* reference,
                       const uint8_t* candidate, uint64_t size,
                       rl_shadow_diff_t* out_diff) {
  memset(out_diff, 0, sizeof(*out_diff));
  out_diff->equal = true;
  out_diff->has_max_abs = rl_shadow_element_size(type) != 0;
  for (uint64_t i = 0; i < size; ++i) {
    if (reference[i] == candidate[i]) continue;
    if (out_diff->equal) out_diff->first_difference = i;
    out_diff->equal = false;
    ++out_diff->differing_bytes;
  }
  if (!out_diff->equal && out_diff->has_max_abs) {
    out_diff->max_abs_difference = rl_shadow_max_abs(
        type, reference, candidate, size, out_diff->first_difference);
  }
}
