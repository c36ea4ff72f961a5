// sim/oracle/oracle_model_internal.h — what the files of the host model
// (oracle_model.c, oracle_model_memory.c) share; private to sim/oracle.
#ifndef REDLINE_SIM_ORACLE_ORACLE_MODEL_INTERNAL_H_
#define REDLINE_SIM_ORACLE_ORACLE_MODEL_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

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

#endif  // REDLINE_SIM_ORACLE_ORACLE_MODEL_INTERNAL_H_
