// sim/oracle/oracle_model_compare.c — the host model (oracle_model.h): the
// compares, parsed from the mnemonic (rl_hm_parse_compare):
// v_cmp[x]_<cond>_<type>, s_cmp_<cond>_<type>, s_cmpk_<cond>_<type>.
// Semantics follow the RDNA3 ISA guide's opcode pseudo-code; nothing here
// includes sim/isa/. Built with -ffp-contract=off: every float operation
// must round where the instruction rounds.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/oracle/oracle_model_ops.h"

enum { T_F32, T_F64, T_I32, T_U32, T_I64, T_U64, T_I16, T_U16, T_F16 };

static bool rl_hm_cond(const char* cond, int order, bool unordered) {
  // |order|: -1 less, 0 equal, 1 greater (meaningless when unordered).
  bool lt = !unordered && order < 0, eq = !unordered && order == 0;
  bool gt = !unordered && order > 0;
  if (!strcmp(cond, "f")) return false;
  if (!strcmp(cond, "t")) return true;
  if (!strcmp(cond, "lt")) return lt;
  if (!strcmp(cond, "eq")) return eq;
  if (!strcmp(cond, "le")) return lt || eq;
  if (!strcmp(cond, "gt")) return gt;
  if (!strcmp(cond, "lg") || !strcmp(cond, "ne")) return lt || gt ||
                                                       (!strcmp(cond, "ne") && unordered);
  if (!strcmp(cond, "ge")) return gt || eq;
  if (!strcmp(cond, "o")) return !unordered;
  if (!strcmp(cond, "u")) return unordered;
  if (cond[0] == 'n') return !rl_hm_cond(cond + 1, order, unordered);
  return false;
}

static bool rl_hm_cond_known(const char* cond, bool is_float) {
  static const char* const f[] = {"f", "lt", "eq", "le", "gt", "lg", "ge",
                                  "o", "u", "nge", "nlg", "ngt", "nle",
                                  "neq", "nlt", "t"};
  static const char* const i[] = {"f", "lt", "eq", "le", "gt", "ne", "ge",
                                  "t", "lg"};
  const char* const* list = is_float ? f : i;
  uint32_t n = is_float ? 16 : 9;
  for (uint32_t k = 0; k < n; ++k) {
    if (!strcmp(list[k], cond)) return true;
  }
  return false;
}

typedef struct rl_hm_cmp_s {
  char cond[8];
  int type;
  bool sopk;
} rl_hm_cmp_t;

// A compare's condition, type and SOPK bit live in its op's |arg| (the
// condition as an index into rl_hm_conds), so a parsed op is a value the
// caller owns and evaluating it reads no shared state.
static const char* const rl_hm_conds[] = {
    "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg",
    "ngt", "nle", "neq", "nlt", "t", "ne"};

static uint32_t rl_hm_cmp_encode(const rl_hm_cmp_t* c) {
  uint32_t k = 0;
  while (k < sizeof(rl_hm_conds) / sizeof(rl_hm_conds[0]) &&
         strcmp(rl_hm_conds[k], c->cond) != 0) {
    ++k;
  }
  return k | ((uint32_t)c->type << 8) | (c->sopk ? 1u << 16 : 0u);
}

static rl_hm_cmp_t rl_hm_cmp_decode(uint32_t arg) {
  rl_hm_cmp_t c = {{0}, (int)((arg >> 8) & 0xff), ((arg >> 16) & 1) != 0};
  snprintf(c.cond, sizeof(c.cond), "%s", rl_hm_conds[arg & 0xff]);
  return c;
}

FN(hm_compare) {
  const rl_hm_cmp_t parsed = rl_hm_cmp_decode(op->arg);
  const rl_hm_cmp_t* c = &parsed;
  int order = 0;
  bool unordered = false;
  uint64_t a = x->s[0], b = x->s[1];
  if (c->sopk) b = c->type == T_I32 ? (uint32_t)rl_hm_sext(b, 16) : (b & 0xffff);
  switch (c->type) {
    case T_F32: {
      float fa = rl_hm_in(mode, a), fb = rl_hm_in(mode, b);
      unordered = fa != fa || fb != fb;
      order = fa < fb ? -1 : fa > fb ? 1 : 0;
      break;
    }
    case T_F64: {
      double da = rl_hm_d(a), db = rl_hm_d(b);
      unordered = da != da || db != db;
      order = da < db ? -1 : da > db ? 1 : 0;
      break;
    }
    case T_I32: order = rl_hm_s32((uint32_t)a) < rl_hm_s32((uint32_t)b) ? -1
                        : rl_hm_s32((uint32_t)a) > rl_hm_s32((uint32_t)b) ? 1 : 0;
      break;
    case T_U32: order = (uint32_t)a < (uint32_t)b ? -1 : (uint32_t)a > (uint32_t)b;
      break;
    case T_F16: {
      double ha = rl_hm_h2d((uint32_t)a), hb = rl_hm_h2d((uint32_t)b);
      unordered = ha != ha || hb != hb;
      order = ha < hb ? -1 : ha > hb ? 1 : 0;
      break;
    }
    case T_I16: order = SX16(a) < SX16(b) ? -1 : SX16(a) > SX16(b);
      break;
    case T_U16: order = LO16(a) < LO16(b) ? -1 : LO16(a) > LO16(b);
      break;
    case T_I64: order = (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
      break;
    default: order = a < b ? -1 : a > b; break;
  }
  x->cout = rl_hm_cond(c->cond, order, unordered);
}

bool rl_hm_parse_compare(const char* name, rl_hm_op_t* out) {
  rl_hm_cmp_t c = {{0}, 0, false};
  const char* rest = NULL;
  bool vector = false, cmpx = false;
  if (!strncmp(name, "v_cmpx_", 7)) rest = name + 7, vector = cmpx = true;
  else if (!strncmp(name, "v_cmp_", 6)) rest = name + 6, vector = true;
  else if (!strncmp(name, "s_cmpk_", 7)) rest = name + 7, c.sopk = true;
  else if (!strncmp(name, "s_cmp_", 6)) rest = name + 6;
  else return false;
  const char* us = strchr(rest, '_');
  if (us == NULL || us - rest >= (long)sizeof(c.cond)) return false;
  memcpy(c.cond, rest, (size_t)(us - rest));
  static const char* const types[] = {"f32", "f64", "i32", "u32", "i64",
                                      "u64", "i16", "u16", "f16"};
  c.type = -1;
  for (int t = 0; t < 9; ++t) {
    if (!strcmp(us + 1, types[t])) c.type = t;
  }
  if (c.type < 0) return false;
  bool is_float = c.type <= T_F64 || c.type == T_F16;
  if (!rl_hm_cond_known(c.cond, is_float)) return false;
  if (c.type >= T_I16 && !vector) return false;
  if (!is_float && !strcmp(c.cond, "lg") && vector) return false;
  if (!is_float && !strcmp(c.cond, "ne") && !vector) return false;
  bool wide = c.type == T_F64 || c.type == T_I64 || c.type == T_U64;
  uint32_t wbits = wide ? (W0 | W1) : c.type == T_F16 ? (H0 | H1) : 0;
  rl_hm_op_t op = {name, 2, (uint8_t)wbits,
                   (uint8_t)(is_float ? (F0 | F1) : 0),
                   (uint16_t)(RL_HM_CMP | (cmpx ? RL_HM_CMPX : 0) |
                              (vector ? RL_HM_COUT
                                      : RL_HM_SALU | SCCO | RL_HM_NO_DST) |
                              (c.sopk ? RL_HM_SOPK : 0) |
                              (!vector && c.type == T_F32 ? RL_HM_SALU_FLOAT
                                                          : 0)),
                   hm_compare, rl_hm_cmp_encode(&c)};
  *out = op;
  return true;
}
