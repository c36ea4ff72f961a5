// shadow/shadow_compare.h — the byte comparator of shadow runs: where two
// copies of a state region differ, by how many bytes, and for float
// regions by how much.
//
// Equality is byte equality, nothing else: two NaNs with the same bits are
// equal, +0 and -0 are not. The numeric report only explains a difference:
// the max abs difference over the elements of a f32/f16/bf16 region
// (little-endian; a trailing partial element is left out), +inf when one
// side is NaN or infinite and the other is not (or both are but differ),
// so a difference never reports as 0.
//
// Thread-safety: pure functions.
#ifndef REDLINE_SHADOW_SHADOW_COMPARE_H_
#define REDLINE_SHADOW_SHADOW_COMPARE_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_shadow_diff_s {
  bool equal;
  uint64_t first_difference;  // byte offset; 0 when equal
  uint64_t differing_bytes;
  bool has_max_abs;           // |type| is f32, f16 or bf16
  double max_abs_difference;  // 0 when equal
} rl_shadow_diff_t;

// Compares |size| bytes of |reference| and |candidate| as elements of
// |type|; *|out_diff| is cleared first.
void rl_shadow_compare(rl_region_type_t type, const uint8_t* reference,
                       const uint8_t* candidate, uint64_t size,
                       rl_shadow_diff_t* out_diff);

// Element decoding for the report (little-endian bytes -> double).
double rl_shadow_f16_to_double(uint16_t bits);
double rl_shadow_bf16_to_double(uint16_t bits);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_SHADOW_COMPARE_H_
