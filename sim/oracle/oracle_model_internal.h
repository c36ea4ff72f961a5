// sim/oracle/oracle_model_internal.h — what the files of the host model
// (oracle_model*.c) share; private to sim/oracle.
#ifndef REDLINE_SIM_ORACLE_ORACLE_MODEL_INTERNAL_H_
#define REDLINE_SIM_ORACLE_ORACLE_MODEL_INTERNAL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/oracle/oracle_model.h"

// The binary32 bit views (a union reinterprets the bytes in C11).
typedef union rl_hm_f32_u {
  uint32_t bits;
  float value;
} rl_hm_f32_u;
static inline float rl_hm_f(uint32_t bits) {
  return (rl_hm_f32_u){.bits = bits}.value;
}
static inline uint32_t rl_hm_u(float v) { return (rl_hm_f32_u){.value = v}.bits; }

// |v|'s low |bits| bits (1..64) sign-extended.
static inline int64_t rl_hm_sext(uint64_t v, uint32_t bits) {
  uint64_t sign = 1ull << (bits - 1);
  v &= (bits == 64) ? ~0ull : (1ull << bits) - 1;
  return (int64_t)((v ^ sign) - sign);
}

// V_MIN_F32/V_MAX_F32 of binary32 |a| and |b| under |mode| (oracle_model.c).
uint32_t rl_hm_minmax(uint32_t mode, uint32_t a, uint32_t b, bool max);
// The gfx11 name of a gfx12 (RDNA4 guide) mnemonic the model knows under its
// gfx11 name; |name| itself otherwise (oracle_model.c).
const char* rl_hm_gfx12_alias(const char* name);

// One operation file's rows (rl_hm_find() searches them in turn).
typedef struct rl_hm_table_s {
  const rl_hm_op_t* ops;
  size_t count;
} rl_hm_table_t;
extern const rl_hm_table_t rl_hm_ops_vint;    // oracle_model_vint.c
extern const rl_hm_table_t rl_hm_ops_vfloat;  // oracle_model_vfloat.c
extern const rl_hm_table_t rl_hm_ops_scalar;  // oracle_model_scalar.c
extern const rl_hm_table_t rl_hm_ops_packed;  // oracle_model_packed.c

// The op of compare mnemonic |name| (v_cmp[x]_*, s_cmp_*, s_cmpk_*) into
// |out|; false when |name| is no compare the model knows
// (oracle_model_compare.c).
bool rl_hm_parse_compare(const char* name, rl_hm_op_t* out);

// binary16 (oracle_model_vfloat.c): a binary16 in the low half as its exact
// binary64 value; a binary64 rounded once to binary16 (nearest even); is
// it a NaN; a binary16 as its exact binary32 image and back.
double rl_hm_h2d(uint32_t h);
uint32_t rl_hm_d2h(double d);
bool rl_hm_nan16(uint32_t h);
uint32_t rl_hm_h2f_bits(uint32_t h);
uint32_t rl_hm_f2h_bits(uint32_t f);

#endif  // REDLINE_SIM_ORACLE_ORACLE_MODEL_INTERNAL_H_
