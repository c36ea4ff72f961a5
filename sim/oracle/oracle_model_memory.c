// sim/oracle/oracle_model_memory.c — the host model of the memory
// operations' data (oracle_model.h): the extension of a sub-dword load and
// the new memory value of a DS or global/flat atomic, from the RDNA3 ISA
// guide's pseudo-code; nothing here includes sim/isa/.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/oracle/oracle_model.h"
#include "sim/oracle/oracle_model_internal.h"

uint32_t rl_hm_load_extend(uint32_t raw, uint32_t size, bool sign) {
  if (size >= 4) return raw;
  uint32_t bits = size * 8;
  raw &= (1u << bits) - 1;
  return sign ? (uint32_t)rl_hm_sext(raw, bits) : raw;
}

// Memory atomics (RDNA3 ISA guide, DS_* / GLOBAL_ATOMIC_* pseudo-code):
// |base| is the mnemonic without its family prefix and "_rtn" ("add_u32",
// "cmpswap_b64"...); tmp the old memory value, src DATA, cmp the compare
// value (DS: DATA1; GLOBAL/FLAT cmpswap: the high half of DATA).
static bool rl_hm_atomic(const char* base, uint64_t tmp, uint64_t src,
                         uint64_t cmp, uint64_t* out) {
  const char* us = strrchr(base, '_');
  if (us == NULL) return false;
  size_t n = (size_t)(us - base);
  bool wide = !strcmp(us + 1, "u64") || !strcmp(us + 1, "i64") ||
              !strcmp(us + 1, "b64");
  if (!wide && strcmp(us + 1, "u32") && strcmp(us + 1, "i32") &&
      strcmp(us + 1, "b32") && strcmp(us + 1, "f32")) {
    return false;
  }
  uint64_t mask = wide ? ~0ull : 0xffffffffull;
  tmp &= mask, src &= mask, cmp &= mask;
  bool is_signed = us[1] == 'i', is_float = us[1] == 'f';
  int64_t st = wide ? (int64_t)tmp : (int32_t)(uint32_t)tmp;
  int64_t ss = wide ? (int64_t)src : (int32_t)(uint32_t)src;
#define IS(name) (n == strlen(name) && !strncmp(base, name, n))
  uint64_t r;
  if (is_float) {
    float a = rl_hm_f((uint32_t)tmp), b = rl_hm_f((uint32_t)src);
    if (IS("add")) r = rl_hm_u(a + b);
    else if (IS("min")) r = rl_hm_minmax(RL_HM_MODE_IEEE, (uint32_t)tmp, (uint32_t)src, false);
    else if (IS("max")) r = rl_hm_minmax(RL_HM_MODE_IEEE, (uint32_t)tmp, (uint32_t)src, true);
    // gfx12 *_min_num_f32 / *_max_num_f32: minimumNumber/maximumNumber
    else if (IS("min_num")) r = rl_hm_minmax(0, (uint32_t)tmp, (uint32_t)src, false);
    else if (IS("max_num")) r = rl_hm_minmax(0, (uint32_t)tmp, (uint32_t)src, true);
    else return false;
  } else if (IS("add")) r = tmp + src;
  else if (IS("sub")) r = tmp - src;
  else if (IS("rsub")) r = src - tmp;
  else if (IS("inc")) r = tmp >= src ? 0 : tmp + 1;
  else if (IS("dec")) r = tmp == 0 || tmp > src ? src : tmp - 1;
  else if (IS("min")) r = is_signed ? (st < ss ? tmp : src) : (tmp < src ? tmp : src);
  else if (IS("max")) r = is_signed ? (st > ss ? tmp : src) : (tmp > src ? tmp : src);
  else if (IS("and")) r = tmp & src;
  else if (IS("or")) r = tmp | src;
  else if (IS("xor")) r = tmp ^ src;
  else if (IS("swap") || IS("storexchg")) r = src;
  else if (IS("cmpswap") || IS("cmpstore")) r = tmp == cmp ? src : tmp;
  else if (IS("csub")) r = tmp < src ? 0 : tmp - src;
  else return false;
#undef IS
  *out = r & mask;
  return true;
}

static void rl_hm_atomic_base(const char* name, const char* prefix,
                              char* base, size_t capacity) {
  snprintf(base, capacity, "%s", name + strlen(prefix));
  char* rtn = strstr(base, "_rtn");
  if (rtn) memmove(rtn, rtn + 4, strlen(rtn + 4) + 1);
}

bool rl_hm_ds_atomic(const char* name, uint64_t old, uint64_t data,
                     uint64_t cmp, uint64_t* out_new) {
  char base[48];
  if (strncmp(name, "ds_", 3)) return false;
  rl_hm_atomic_base(name, "ds_", base, sizeof(base));
  return rl_hm_atomic(base, old, data, cmp, out_new);
}

bool rl_hm_mem_atomic(const char* name, uint64_t old, uint64_t data,
                      uint64_t cmp, uint64_t* out_new) {
  name = rl_hm_gfx12_alias(name);
  char base[48];
  const char* prefix = !strncmp(name, "global_atomic_", 14) ? "global_atomic_"
                       : !strncmp(name, "flat_atomic_", 12) ? "flat_atomic_"
                                                            : NULL;
  if (prefix == NULL) return false;
  rl_hm_atomic_base(name, prefix, base, sizeof(base));
  return rl_hm_atomic(base, old, data, cmp, out_new);
}
